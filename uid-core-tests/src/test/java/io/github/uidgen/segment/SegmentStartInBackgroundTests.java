package io.github.uidgen.segment;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;

import com.zaxxer.hikari.HikariDataSource;
import io.github.uidgen.segment.jdbc.JdbcSegmentStore;
import io.github.uidgen.testsupport.TestDatabases;
import io.github.uidgen.testsupport.TestDatabases.Database;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static io.github.uidgen.segment.SegmentUidGeneratorTests.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * {@link SegmentUidGenerators#startKey(String)}: the first segment of a key claimed on the background threads while
 * the caller goes on, with the guarantees of a first claim on the calling thread: a call before it waits for it (at
 * most the wait timeout), the first claim's failure is what {@link SegmentUidGenerator#awaitFirstSegment()} throws,
 * the empty start does not grow the step, and closing while the claim is under way leaves no thread and drops the
 * claim. On the real Redis, its first claim held back by a wrapper that delegates to it.
 */
class SegmentStartInBackgroundTests {

	private final SegmentBackend.Open redis = SegmentBackend.REDIS.open();

	private final HeldStore held = new HeldStore(this.redis.store);

	@AfterEach
	void closeStore() {
		this.held.release();
		this.redis.close();
	}

	@Test
	void startKeyReturnsAtOnceAndACallBeforeTheFirstSegmentWaitsForIt() throws Exception {
		try (SegmentUidGenerators generators = new SegmentUidGenerators(
				SegmentUidGenerator.builder(this.held).step(10))) {
			SegmentUidGenerator generator = generators.startKey("orders");
			assertThat(this.held.entered.await(10, TimeUnit.SECONDS)).as("the first claim, in the background").isTrue();
			assertThat(this.held.firstClaimThread).startsWith("uid-segment-prefetch#");
			assertThat(generator.getSegmentsFetched()).isZero();
			assertThat(generator.getRemaining()).isZero();
			assertThat(generator.getCurrentSegment()).isNull();
			assertThat(generator.getFailure()).isInstanceOf(SegmentUnavailableException.class)
				.hasMessageStartingWith("The segment generator of key 'orders' is starting: claiming its first segment "
						+ "from the redis store since");
			assertThat(generator.status().failure()).isNotNull();
			assertThat(generators.forKey("orders")).isSameAs(generator);
			assertThat(generators.startKey("orders")).isSameAs(generator);

			CompletableFuture<Long> early = new CompletableFuture<>();
			Thread caller = new Thread(() -> {
				try {
					early.complete(generator.getUID());
				}
				catch (Throwable ex) {
					early.completeExceptionally(ex);
				}
			}, "early-caller");
			caller.start();
			// Until the call is parked waiting for the first segment (the claimer's condition; a contended lock
			// would park on the lock itself), or is done, which it must not be.
			await(() -> early.isDone() || isParkedOnACondition(caller), "the early call to wait or be done");
			assertThat(early).as("waits for the first segment").isNotDone();
			this.held.release();
			assertThat(early.get(10, TimeUnit.SECONDS)).isOne();
			generator.awaitFirstSegment();
			assertThat(generator.getUID()).isEqualTo(2);
			assertThat(generator.getSegmentsFetched()).isOne();
			assertThat(generator.getStep()).as("the empty start is no segment used up in 0 ms").isEqualTo(10);
			assertThat(generator.getCurrentSegment()).isEqualTo(new SegmentRange(1, 10));
			assertThat(generator.getIssuedCount()).isEqualTo(2);
			assertThat(generator.getFailure()).isNull();
			assertThat(this.held.claims).as("one claim for the first segment").hasValue(1);
			for (int i = 3; i <= 25; i++) {
				assertThat(generator.getUID()).isEqualTo(i);
			}
			assertThat(generator.getStoreFailureCount()).isZero();
		}
	}

	@Test
	void aStartedGeneratorLooksLikeOneBuiltOnTheCallingThread() {
		this.held.release();
		try (SegmentUidGenerators generators = new SegmentUidGenerators(
				SegmentUidGenerator.builder(this.held).step(10))) {
			SegmentUidGenerator generator = generators.startKey("ready");
			generator.awaitFirstSegment();
			generator.awaitFirstSegment();
			assertThat(generator.getCurrentSegment()).as("moved on to the first segment before any take")
				.isEqualTo(new SegmentRange(1, 10));
			assertThat(generator.getRemaining()).isEqualTo(10);
			assertThat(generator.getIssuedCount()).isZero();
			assertThat(generator.getFailure()).isNull();
			assertThat(generator.toString()).contains("segment=1..10");
			// A generator built on the calling thread has its first segment already.
			SegmentUidGenerator other = generators.forKey("ready-other");
			other.awaitFirstSegment();
			assertThat(other.getUID()).isOne();
		}
	}

	@Test
	void aFirstClaimThatFailsIsThrownAsAClaimOnTheCallingThreadThrowsIt() {
		try (HikariDataSource dataSource = Database.MARIADB.open()) {
			String missing = TestDatabases.uniqueTable("uid_seg_missing");
			SegmentUidGenerator.Builder settings = SegmentUidGenerator.builder(
					JdbcSegmentStore.builder(dataSource).table(missing).build());
			Throwable synchronous;
			try (SegmentUidGenerators generators = new SegmentUidGenerators(settings)) {
				synchronous = catchThrowable(() -> generators.forKey("missing"));
			}
			assertThat(synchronous).isInstanceOf(SegmentStoreException.class);
			try (SegmentUidGenerators generators = new SegmentUidGenerators(settings)) {
				SegmentUidGenerator generator = generators.startKey("missing");
				Throwable background = catchThrowable(generator::awaitFirstSegment);
				assertThat(background).isExactlyInstanceOf(synchronous.getClass())
					.hasMessage(synchronous.getMessage());
				assertThat(catchThrowable(generator::awaitFirstSegment)).as("the start failed for good")
					.isSameAs(background);
				assertThat(generator.getFailure()).hasCause(background);
				assertThatExceptionOfType(SegmentUnavailableException.class).isThrownBy(generator::getUID)
					.withCause(background);
			}
		}
	}

	@Test
	void aCallBeforeTheFirstSegmentWaitsAtMostTheWaitTimeout() {
		try (SegmentUidGenerators generators = new SegmentUidGenerators(
				SegmentUidGenerator.builder(this.held).waitTimeout(Duration.ofMillis(300)))) {
			SegmentUidGenerator generator = generators.startKey("slow");
			long start = System.nanoTime();
			assertThatExceptionOfType(SegmentUnavailableException.class).isThrownBy(generator::getUID)
				.withMessageStartingWith("Every number of key 'slow' claimed so far is used up");
			assertThat(Duration.ofNanos(System.nanoTime() - start)).isBetween(Duration.ofMillis(250),
					Duration.ofSeconds(5));
			this.held.release();
			generator.awaitFirstSegment();
			assertThat(generator.getUID()).isOne();
		}
	}

	@Test
	void closingWhileTheFirstClaimIsUnderWayLeavesNoThreadAndDropsTheClaim() throws Exception {
		CountingThreadFactory threads = new CountingThreadFactory();
		SegmentUidGenerators generators = new SegmentUidGenerators(
				SegmentUidGenerator.builder(this.held).prefetchThreadFactory(threads));
		SegmentUidGenerator generator = generators.startKey("closing");
		assertThat(this.held.entered.await(10, TimeUnit.SECONDS)).isTrue();
		CompletableFuture<Throwable> waiting = CompletableFuture
			.supplyAsync(() -> catchThrowable(generator::awaitFirstSegment));
		CompletableFuture<Void> releasedLater = CompletableFuture.runAsync(this.held::release,
				CompletableFuture.delayedExecutor(300, TimeUnit.MILLISECONDS));
		generators.close();
		releasedLater.get(10, TimeUnit.SECONDS);
		assertThat(waiting.get(10, TimeUnit.SECONDS)).isInstanceOf(SegmentUnavailableException.class)
			.hasMessage("The segment generator of key 'closing' was closed before its first segment was claimed");
		assertThatExceptionOfType(SegmentUnavailableException.class).isThrownBy(generator::getUID)
			.withMessage("The segment generator of key 'closing' is closed");
		await(() -> threads.created().stream().noneMatch(Thread::isAlive), "the prefetch threads to end");
		assertThat(this.held.claims).as("the claim under way returned").hasValue(1);
		assertThat(generator.getCurrentSegment()).as("the claim that returned after close is dropped").isNull();
		assertThat(generator.getRemaining()).isZero();
	}

	private static boolean isParkedOnACondition(Thread thread) {
		Thread.State state = thread.getState();
		return (state == Thread.State.WAITING || state == Thread.State.TIMED_WAITING)
				&& LockSupport.getBlocker(thread) instanceof Condition;
	}

	/** Delegates to a real store; holds the first claim until released, as a store whose first answer is slow. */
	private static final class HeldStore implements SegmentStore {

		private final SegmentStore store;

		final CountDownLatch entered = new CountDownLatch(1);

		private final CountDownLatch released = new CountDownLatch(1);

		final AtomicInteger claims = new AtomicInteger();

		volatile String firstClaimThread;

		HeldStore(SegmentStore store) {
			this.store = store;
		}

		void release() {
			this.released.countDown();
		}

		@Override
		public SegmentRange claim(String key, long size) {
			if (this.entered.getCount() > 0) {
				this.firstClaimThread = Thread.currentThread().getName();
				this.entered.countDown();
				try {
					this.released.await(30, TimeUnit.SECONDS);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			}
			try {
				return this.store.claim(key, size);
			}
			finally {
				this.claims.incrementAndGet();
			}
		}

		@Override
		public Optional<StoredKeys> readKeys(int maxKeys) {
			return this.store.readKeys(maxKeys);
		}

		@Override
		public String name() {
			return this.store.name();
		}

	}

}
