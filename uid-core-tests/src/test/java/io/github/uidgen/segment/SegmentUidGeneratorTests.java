package io.github.uidgen.segment;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.uidgen.InvalidSettingException;
import io.github.uidgen.InvalidUidException;
import io.github.uidgen.ManualClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The segment generator on real stores: dense numbers, the background claim at the prefetch threshold, the adaptive
 * step and its bounds, restarts, a store that goes backwards, closing, and what decoding a segment ID says. Redis
 * where the store does not matter, every store where it might.
 */
class SegmentUidGeneratorTests {

	private final SegmentBackend.Open redis = SegmentBackend.REDIS.open();

	@AfterEach
	void closeStore() {
		this.redis.close();
	}

	private SegmentUidGenerator.Builder onRedis() {
		return SegmentUidGenerator.builder(this.redis.store).key("orders");
	}

	@Test
	void aNewKeyIsHandedOutDenselyFromOne() {
		try (SegmentUidGenerator generator = onRedis().step(100).maxStep(100).build()) {
			for (long expected = 1; expected <= 1000; expected++) {
				assertThat(generator.getUID()).isEqualTo(expected);
			}
			assertThat(generator.getIssuedCount()).isEqualTo(1000);
			assertThat(generator.getSegmentsFetched()).isBetween(10L, 11L);
			assertThat(generator.getStoreFailureCount()).isZero();
		}
	}

	@Test
	void theNextSegmentIsClaimedInTheBackgroundOnceThePrefetchThresholdIsUsed() throws InterruptedException {
		try (SegmentUidGenerator generator = onRedis().step(100).maxStep(100).prefetchThreshold(50).build()) {
			take(generator, 50);
			Thread.sleep(200);
			assertThat(generator.getSegmentsFetched()).as("not yet: 50 of 100 used").isOne();
			assertThat(generator.getRemaining()).isEqualTo(50);
			assertThat(generator.getUID()).isEqualTo(51);
			await(() -> generator.getSegmentsFetched() == 2, "the background claim");
			assertThat(generator.getRemaining()).as("the rest of the first segment and all of the second")
				.isEqualTo(49 + 100);
			assertThat(generator.getCurrentSegment()).isEqualTo(new SegmentRange(1, 100));
		}
	}

	@Test
	void theStepDoublesUpToMaxStepWhileSegmentsGoFasterThanTheTargetAndHalvesBackDownToStepWhenSlow() {
		ManualClock clock = ManualClock.atSystemTime();
		// Threshold 99: the successor is claimed as the last number of a segment is taken, one claim per segment.
		try (SegmentUidGenerator generator = onRedis().step(10)
			.maxStep(40)
			.targetInterval(Duration.ofMinutes(1))
			.prefetchThreshold(99)
			.clock(clock)
			.build()) {
			long taken = 0;
			long[] expectedSteps = { 20, 40, 40, 20, 10, 10, 10 };
			Duration[] lifetimes = { Duration.ZERO, Duration.ZERO, Duration.ZERO, Duration.ofMinutes(3),
					Duration.ofMinutes(3), Duration.ofMinutes(3), Duration.ofSeconds(90) };
			assertThat(generator.getStep()).isEqualTo(10);
			for (int i = 0; i < expectedSteps.length; i++) {
				assertThat(generator.getUID()).isEqualTo(++taken);
				SegmentRange segment = generator.getCurrentSegment();
				clock.advance(lifetimes[i].toMillis());
				for (long n = 1; n < segment.size(); n++) {
					assertThat(generator.getUID()).isEqualTo(++taken);
				}
				long claims = i + 2;
				await(() -> generator.getSegmentsFetched() == claims, "claim " + claims);
				assertThat(generator.getStep()).as("step of claim %d, after a segment that lasted %s", claims,
						lifetimes[i])
					.isEqualTo(expectedSteps[i]);
			}
		}
	}

	@ParameterizedTest
	@EnumSource(SegmentBackend.class)
	void manyThreadsOfTwoInstancesTakeDistinctNumbersThatStrictlyIncreasePerThread(SegmentBackend backend)
			throws InterruptedException {
		try (SegmentBackend.Open first = backend.open();
				SegmentBackend.Open second = backend.open(first.name);
				SegmentUidGenerator one = SegmentUidGenerator.builder(first.store).key("orders").build();
				SegmentUidGenerator other = SegmentUidGenerator.builder(second.store).key("orders").build()) {
			long[][] ids = TakingThreads.take(new SegmentUidGenerator[] { one, one, one, one, other, other, other,
					other }, 250_000);
			for (long[] thread : ids) {
				assertThat(TakingThreads.firstNotIncreasing(thread)).as("per thread strictly increasing").isEqualTo(-1);
			}
			assertThat(TakingThreads.duplicates(ids)).isZero();
			assertThat(Arrays.stream(ids).mapToLong((thread) -> thread.length).sum()).isEqualTo(2_000_000);
		}
	}

	@ParameterizedTest
	@EnumSource(SegmentBackend.class)
	void aRestartedInstanceStartsAboveEveryNumberHandedOutBeforeLeavingTheUnusedOnesAsAGap(SegmentBackend backend) {
		try (SegmentBackend.Open open = backend.open()) {
			SegmentUidGenerator.Builder settings = SegmentUidGenerator.builder(open.store)
				.key("orders")
				.step(1000)
				.maxStep(1000);
			long highest;
			long claimedBefore;
			try (SegmentUidGenerator before = settings.build()) {
				highest = take(before, 1500)[1499];
				await(() -> before.getSegmentsFetched() == 2, "the prefetch of the second segment");
				claimedBefore = 2000;
				assertThat(before.getRemaining()).isEqualTo(claimedBefore - highest);
			}
			try (SegmentUidGenerator after = settings.build()) {
				long first = after.getUID();
				assertThat(first).as("the unused 1501..2000 are skipped, never handed out again")
					.isEqualTo(claimedBefore + 1);
				assertThat(first).isGreaterThan(highest);
			}
		}
	}

	@ParameterizedTest
	@EnumSource(SegmentBackend.class)
	void aStoreThatGoesBackwardsIsRefusedAndNoNumberRepeats(SegmentBackend backend) {
		try (SegmentBackend.Open open = backend.open();
				SegmentUidGenerator generator = SegmentUidGenerator.builder(open.store)
					.key("orders")
					.step(10)
					.maxStep(10)
					.prefetchThreshold(50)
					.build()) {
			// As if the store lost its data and more: every later claim lies below what this generator has seen.
			open.setCounter("orders", -1000);
			long[] served = take(generator, 10);
			assertThat(served).containsExactly(1, 2, 3, 4, 5, 6, 7, 8, 9, 10);
			await(() -> generator.getStoreFailure() != null, "the refused background claim");
			assertThat(generator.getStoreFailure()).isInstanceOf(SegmentStoreRewoundException.class)
				.hasMessageContaining("handed out -999..-990 after this generator had already claimed up to 10");
			for (int attempt = 0; attempt < 3; attempt++) {
				assertThatExceptionOfType(SegmentUnavailableException.class).isThrownBy(generator::getUID)
					.withMessageContaining("key 'orders'")
					.havingCause()
					.isInstanceOf(SegmentStoreRewoundException.class);
			}
			assertThat(generator.getFailure()).isInstanceOf(SegmentUnavailableException.class);
			assertThat(generator.getIssuedCount()).isEqualTo(10);
		}
	}

	@Test
	void closingStopsIssueAndTheBackgroundThread() {
		SegmentUidGenerator generator = onRedis().key("closing").build();
		assertThat(generator.getUID()).isOne();
		assertThat(prefetcherAlive("closing")).isTrue();
		generator.close();
		generator.close();
		assertThatExceptionOfType(SegmentUnavailableException.class).isThrownBy(generator::getUID)
			.withMessage("The segment generator of key 'closing' is closed");
		assertThat(generator.getFailure()).hasMessageContaining("closed");
		assertThat(generator.getRemaining()).isZero();
		assertThat(generator.getIssuedCount()).isOne();
		await(() -> !prefetcherAlive("closing"), "the prefetch thread to end");
	}

	@Test
	void decodingSaysASegmentIdIsAPlainNumberWithNoTimeOrWorker() {
		try (SegmentUidGenerator generator = onRedis().build()) {
			long uid = generator.getUID();
			assertThatExceptionOfType(SegmentIdNotDecodableException.class).isThrownBy(() -> generator.decode(uid))
				.withMessageStartingWith("uid " + uid + " is a segment ID")
				.withMessageContaining("key 'orders'")
				.withMessageContaining("no time, worker ID or sequence");
			assertThatExceptionOfType(SegmentIdNotDecodableException.class)
				.isThrownBy(() -> generator.parseUID(uid))
				.isInstanceOf(InvalidUidException.class);
			assertThatExceptionOfType(InvalidUidException.class).isThrownBy(() -> generator.decode(-1))
				.withMessageContaining("negative");
			assertThatExceptionOfType(NoLayoutException.class).isThrownBy(generator::layout)
				.withMessageContaining("no ID layout");
			assertThat(generator.kind()).isEqualTo("segment");
			assertThat(generator.getStoreName()).isEqualTo("redis");
		}
	}

	@Test
	void invalidSettingsNameTheSettingAndTheFix() {
		assertInvalid(() -> onRedis().step(0), "step", "use a number of 1 to 1000000000");
		assertInvalid(() -> onRedis().step(100).maxStep(50).build(), "maxStep", "use a number from the step (100)");
		assertInvalid(() -> onRedis().prefetchThreshold(100), "prefetchThreshold", "use a percentage of 0 to 99");
		assertInvalid(() -> onRedis().waitTimeout(Duration.ZERO), "waitTimeout", "use a positive duration");
		assertInvalid(() -> onRedis().targetInterval(Duration.ZERO), "targetInterval", "at least 1 ms");
		assertInvalid(() -> onRedis().key("order numbers"), "key", "use 1 to 128 letters");
		assertInvalid(() -> onRedis().key("k".repeat(129)), "key", "use 1 to 128 letters");
	}

	@Test
	void theStepAndTheMaxStepAreCheckedAgainstEachOtherWhenTheSecondIsSetEitherWay() {
		assertInvalid(() -> onRedis().step(100).maxStep(50), "maxStep", "use a number from the step (100)");
		assertInvalid(() -> onRedis().maxStep(50).step(100), "step", "use a number of 1 to the max step (50)");
		// Below the default step, set before the step: valid once the step is lowered.
		onRedis().key("max-step-first").maxStep(500).step(100).build().close();
		assertInvalid(() -> onRedis().maxStep(500).build(), "maxStep", "use a number from the step (1000)");
	}

	@Test
	void buildingClaimsTheFirstSegmentAndAStoreThatFailsStartsNoThread() {
		AtomicInteger claims = new AtomicInteger();
		SegmentUidGenerator.Builder builder = SegmentUidGenerator.builder((key, size) -> {
			claims.incrementAndGet();
			throw new SegmentStoreException("store down");
		}).key("never-started");
		assertThat(claims).hasValue(0);
		assertThatExceptionOfType(SegmentStoreException.class).isThrownBy(builder::build)
			.withMessage("store down");
		assertThat(claims).hasValue(1);
		assertThat(prefetcherAlive("never-started")).isFalse();
	}

	@Test
	void aBackgroundClaimThatThrowsAnErrorIsAFailedClaimThatIsRetried() throws InterruptedException {
		// A store of one's own (the SPI allows it) over the real one, whose one claim throws an Error, as a class
		// that fails to load or an assertion would.
		AtomicBoolean failNext = new AtomicBoolean();
		SegmentStore store = new SegmentStore() {

			@Override
			public SegmentRange claim(String key, long size) {
				if (failNext.compareAndSet(true, false)) {
					throw new NoClassDefFoundError("com/example/store/Codec");
				}
				return SegmentUidGeneratorTests.this.redis.store.claim(key, size);
			}

			@Override
			public String name() {
				return "own";
			}

		};
		try (SegmentUidGenerator generator = SegmentUidGenerator.builder(store)
			.key("erring")
			.step(10)
			.maxStep(10)
			.prefetchThreshold(50)
			.waitTimeout(Duration.ofSeconds(1))
			.build()) {
			failNext.set(true);
			long[] before = take(generator, 6);
			await(() -> generator.getStoreFailureCount() == 1, "the claim that threw to count as a failed claim");
			assertThat(generator.getStoreFailure()).hasMessageContaining("NoClassDefFoundError")
				.hasMessageContaining("key 'erring'");
			long[] rest = take(generator, 4);
			// The failed claim is retried after 100 ms and then less often; callers meanwhile are told it is unavailable.
			long next = org.awaitility.Awaitility.await("the retried claim")
				.atMost(Duration.ofSeconds(30))
				.pollInterval(Duration.ofMillis(20))
				.ignoreExceptionsInstanceOf(SegmentUnavailableException.class)
				.until(generator::getUID, (id) -> true);
			assertThat(next).as("issue resumes once the store answers").isEqualTo(11);
			assertThat(generator.getFailure()).isNull();
			assertThat(TakingThreads.duplicates(before, rest, new long[] { next })).isZero();
		}
	}

	@Test
	void theHotPathAllocatesNothing() {
		// One segment covers warm-up and measurement, so the measured calls never claim; the background claim at the
		// prefetch point happens on the prefetch thread, whose allocations are not counted.
		try (SegmentUidGenerator generator = onRedis().step(2_000_000).maxStep(2_000_000).build()) {
			long warmUpLast = take(generator, 1_000_000)[999_999];
			com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory
				.getThreadMXBean();
			long thread = Thread.currentThread().getId();
			long before = threads.getThreadAllocatedBytes(thread);
			long last = 0;
			for (int i = 0; i < 1_000_000; i++) {
				last = generator.getUID();
			}
			long allocated = threads.getThreadAllocatedBytes(thread) - before;
			assertThat(last).isEqualTo(warmUpLast + 1_000_000);
			assertThat(allocated).isLessThan(64 * 1024);
		}
	}

	@Test
	void eachKeyIsASequenceOfItsOwn() {
		SegmentUidGenerators generators = new SegmentUidGenerators(onRedis().step(10));
		try {
			SegmentUidGenerator orders = generators.forKey("order");
			assertThat(take(generators.forKey("order"), 3)).containsExactly(1, 2, 3);
			assertThat(take(generators.forKey("invoice"), 2)).containsExactly(1, 2);
			assertThat(generators.forKey("order")).isSameAs(orders);
			assertThat(generators.generators()).containsOnlyKeys("order", "invoice");
			assertInvalid(() -> generators.forKey("no spaces"), "key", "use 1 to 128 letters");
		}
		finally {
			generators.close();
		}
		assertThatExceptionOfType(SegmentUnavailableException.class).isThrownBy(() -> generators.forKey("order")
			.getUID());
		assertThatExceptionOfType(SegmentUnavailableException.class).isThrownBy(() -> generators.forKey("ticket"));
	}

	@Test
	void whenCreatedSeesEveryGeneratorOnceWhetherCreatedBeforeOrAfter() {
		try (SegmentUidGenerators generators = new SegmentUidGenerators(onRedis().step(10))) {
			SegmentUidGenerator before = generators.forKey("seen-before");
			List<SegmentUidGenerator> seen = new CopyOnWriteArrayList<>();
			generators.whenCreated(seen::add);
			assertThat(seen).containsExactly(before);
			SegmentUidGenerator after = generators.forKey("seen-after");
			generators.forKey("seen-after");
			generators.forKey("seen-before");
			assertThat(seen).containsExactly(before, after);
		}
	}

	private static long[] take(SegmentUidGenerator generator, int count) {
		long[] ids = new long[count];
		for (int i = 0; i < count; i++) {
			ids[i] = generator.getUID();
		}
		return ids;
	}

	private static void assertInvalid(Runnable settings, String setting, String fix) {
		assertThatExceptionOfType(InvalidSettingException.class).isThrownBy(settings::run)
			.satisfies((ex) -> assertThat(ex.getSetting()).isEqualTo(setting))
			.satisfies((ex) -> assertThat(ex.getFix()).contains(fix));
	}

	private static boolean prefetcherAlive(String key) {
		return Thread.getAllStackTraces()
			.keySet()
			.stream()
			.anyMatch((thread) -> thread.getName().equals("uid-segment-prefetch-" + key) && thread.isAlive());
	}

	static void await(BooleanSupplier condition, String what) {
		long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
		while (!condition.getAsBoolean()) {
			if (System.nanoTime() - deadline > 0) {
				throw new AssertionError("Gave up waiting for " + what);
			}
			try {
				Thread.sleep(5);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new AssertionError("Interrupted", ex);
			}
		}
	}

}
