package io.github.uidgen.impl;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

import io.github.uidgen.UidClock;
import io.github.uidgen.UidSets;
import io.github.uidgen.worker.FixedWorkerIdAssigner;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The process is paused (a long GC, SIGSTOP, a frozen VM) while the ring and a thread's run are full. On resume the
 * callers may run before the filler does, and the filler is what retires stale IDs: the test steps the clock past the
 * pause while the filler is held at its next clock reading, as if not yet scheduled. What a caller may still get from
 * before the pause is what is left of the run it holds, never the ring's IDs; the next ID it claims is current.
 */
class PausedRunAgeTests {

	private static final Duration INTERVAL = CachedUidGenerator.DEFAULT_SCHEDULE_INTERVAL;

	/** The promise outside a pause: no ID handed out lies further behind the clock than this. */
	private static final long MAX_AGE_MILLIS = INTERVAL.plusSeconds(1).toMillis();

	/** The longest run a thread holds. */
	private static final int RUN = 256;

	@ParameterizedTest
	@ValueSource(longs = { 3_000, 60_000 })
	void aThreadHandsOutOnlyWhatIsLeftOfItsRunFromBeforeAPauseThenCurrentIds(long pauseMillis) throws Exception {
		HeldFillerClock clock = new HeldFillerClock();
		// Closed first: a test that fails lets the filler go before the generator closes.
		try (CachedUidGenerator generator = generator(clock); Taker taker = new Taker();
				AutoCloseable released = clock::releaseFiller) {
			// Runs double up to their longest; the last ID taken starts a run, so that run holds 255 more.
			long lastBeforePause = taker.run(() -> {
				long uid = 0;
				for (int i = 0; i < 4 * RUN || uid % RUN != 0; i++) {
					uid = generator.getUID();
				}
				return uid;
			}).get(30, TimeUnit.SECONDS);
			assertThat(generator.ringBuffer().size()).as("a full ring waits to be handed out").isGreaterThan(10_000);

			clock.holdFiller();
			clock.advance(pauseMillis);
			long rejectionsBefore = generator.ringBuffer().takeRejections();
			long[] stale = new long[1];
			boolean[] restOfTheRun = { true };
			Future<Long> resumed = taker.run(() -> {
				long uid = generator.getUID();
				while (age(generator, clock, uid) > MAX_AGE_MILLIS && stale[0] < 1_000_000) {
					stale[0]++;
					restOfTheRun[0] &= (uid == lastBeforePause + stale[0]);
					uid = generator.getUID();
				}
				return uid;
			});
			// Once the caller waits for the ring, the filler gets its turn, as the scheduler would give it.
			awaitUntil(() -> resumed.isDone() || generator.ringBuffer().takeRejections() > rejectionsBefore);
			clock.releaseFiller();
			long firstCurrent = resumed.get(30, TimeUnit.SECONDS);

			// What the docs allow after a pause, and no more: the rest of the run, never the ring's stale IDs.
			assertThat(stale[0]).as("IDs from before the pause handed out after it").isEqualTo(RUN - 1);
			assertThat(restOfTheRun[0]).as("each of them the next of the thread's run").isTrue();
			assertThat(firstCurrent).isGreaterThan(lastBeforePause + stale[0]);
			long[] more = taker.run(() -> takeMany(generator, 10_000)).get(30, TimeUnit.SECONDS);
			for (long uid : more) {
				assertThat(age(generator, clock, uid)).as("age of %d, ms", uid).isLessThanOrEqualTo(MAX_AGE_MILLIS);
			}
			assertThat(more[0]).isGreaterThan(firstCurrent);
			assertThat(UidSets.countDuplicates(more, new long[] { firstCurrent, lastBeforePause })).isZero();
		}
	}

	@ParameterizedTest
	@ValueSource(longs = { 3_000, 60_000 })
	void aThreadHoldingNoRunGetsNothingFromBeforeAPause(long pauseMillis) throws Exception {
		HeldFillerClock clock = new HeldFillerClock();
		try (CachedUidGenerator generator = generator(clock); Taker first = new Taker(); Taker fresh = new Taker();
				AutoCloseable released = clock::releaseFiller) {
			long[] before = first.run(() -> takeMany(generator, 4 * RUN)).get(30, TimeUnit.SECONDS);
			assertThat(generator.ringBuffer().size()).as("a full ring waits to be handed out").isGreaterThan(10_000);

			clock.holdFiller();
			clock.advance(pauseMillis);
			long rejectionsBefore = generator.ringBuffer().takeRejections();
			// A thread that asks for the first time after the pause: everything it gets comes from the ring.
			Future<long[]> resumed = fresh.run(() -> takeMany(generator, 10_000));
			awaitUntil(() -> resumed.isDone() || generator.ringBuffer().takeRejections() > rejectionsBefore);
			clock.releaseFiller();
			long[] after = resumed.get(30, TimeUnit.SECONDS);

			for (long uid : after) {
				assertThat(age(generator, clock, uid)).as("age of %d, ms", uid).isLessThanOrEqualTo(MAX_AGE_MILLIS);
			}
			assertThat(UidSets.countDuplicates(before, after)).isZero();
		}
	}

	private static CachedUidGenerator generator(UidClock clock) {
		return CachedUidGenerator.builder()
			.clock(clock)
			.scheduleInterval(INTERVAL)
			.workerIdAssigner(new FixedWorkerIdAssigner(5))
			.build();
	}

	private static long[] takeMany(CachedUidGenerator generator, int count) {
		long[] ids = new long[count];
		for (int i = 0; i < count; i++) {
			ids[i] = generator.getUID();
		}
		return ids;
	}

	private static long age(CachedUidGenerator generator, UidClock clock, long uid) {
		return clock.currentTimeMillis() - generator.decode(uid).timestamp().toEpochMilli();
	}

	private static void awaitUntil(BooleanSupplier condition) throws InterruptedException {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
		while (!condition.getAsBoolean()) {
			assertThat(System.nanoTime()).as("condition met within 30 s").isLessThan(deadline);
			Thread.sleep(1);
		}
	}

	/** A caller's thread that lives across the test's steps, so it keeps its run, and may wait while the test acts. */
	private static final class Taker implements AutoCloseable {

		private final ExecutorService thread = Executors.newSingleThreadExecutor((work) -> {
			Thread taker = new Thread(work, "test-taker");
			taker.setDaemon(true);
			return taker;
		});

		<T> Future<T> run(Callable<T> work) {
			return this.thread.submit(work);
		}

		@Override
		public void close() throws InterruptedException {
			this.thread.shutdownNow();
			assertThat(this.thread.awaitTermination(30, TimeUnit.SECONDS)).as("the taker's thread ended").isTrue();
		}

	}

	/**
	 * A clock the test steps by hand, at which the filler thread stops while it is held: a filler not yet scheduled
	 * after a pause, as the callers resume.
	 */
	private static final class HeldFillerClock implements UidClock {

		private final AtomicLong millis = new AtomicLong(System.currentTimeMillis());

		private volatile CountDownLatch hold;

		void holdFiller() {
			this.hold = new CountDownLatch(1);
		}

		void releaseFiller() {
			CountDownLatch held = this.hold;
			this.hold = null;
			if (held != null) {
				held.countDown();
			}
		}

		void advance(long deltaMillis) {
			this.millis.addAndGet(deltaMillis);
		}

		@Override
		public long currentTimeMillis() {
			CountDownLatch held = this.hold;
			if (held != null && Thread.currentThread().getName().startsWith("uid-ring-filler")) {
				try {
					held.await(60, TimeUnit.SECONDS);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			}
			return this.millis.get();
		}

	}

}
