package io.github.uidgen.snowflake;

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
 * pause while the filler is held at its next clock reading, as if not yet scheduled. The bound the docs give for that
 * case: a caller hands out what its run and the ring held from before the pause, at most the rest of its run and the
 * ring's capacity, in order and none twice, then current IDs once the filler has run.
 */
class PausedRunAgeTests {

	private static final Duration INTERVAL = CachedUidGenerator.DEFAULT_SCHEDULE_INTERVAL;

	/** The promise while the filler runs on time: no ID handed out lies further behind the clock than this. */
	private static final long MAX_AGE_MILLIS = INTERVAL.plusSeconds(1).toMillis();

	/** The longest run a thread holds. */
	private static final int RUN = 256;

	@ParameterizedTest
	@ValueSource(longs = { 3_000, 60_000 })
	void aThreadHandsOutItsRunAndTheRingFromBeforeAPauseUntilTheFillerRuns(long pauseMillis) throws Exception {
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

			Resumed resumed = pauseThenTakeUntilCurrent(generator, clock, taker, pauseMillis, lastBeforePause);

			int capacity = generator.ringBuffer().capacity();
			assertThat(resumed.stale).as("IDs from before the pause: the rest of the run, then the ring's")
				.isGreaterThan(RUN - 1)
				.isLessThanOrEqualTo(RUN - 1 + capacity);
			assertThat(resumed.increasing).as("each stale ID above the one before").isTrue();
			assertCurrentFromNowOn(generator, clock, taker, resumed.firstCurrent, lastBeforePause);
		}
	}

	@ParameterizedTest
	@ValueSource(longs = { 3_000, 60_000 })
	void aThreadHoldingNoRunHandsOutTheRingFromBeforeAPauseUntilTheFillerRuns(long pauseMillis) throws Exception {
		HeldFillerClock clock = new HeldFillerClock();
		try (CachedUidGenerator generator = generator(clock); Taker first = new Taker(); Taker fresh = new Taker();
				AutoCloseable released = clock::releaseFiller) {
			long lastBeforePause = first.run(() -> takeMany(generator, 4 * RUN)[4 * RUN - 1]).get(30, TimeUnit.SECONDS);

			// A thread that asks for the first time after the pause: everything it gets comes from the ring.
			Resumed resumed = pauseThenTakeUntilCurrent(generator, clock, fresh, pauseMillis, lastBeforePause);

			assertThat(resumed.stale).as("IDs from before the pause, all the ring's")
				.isPositive()
				.isLessThanOrEqualTo(generator.ringBuffer().capacity());
			assertThat(resumed.increasing).as("each stale ID above the one before").isTrue();
			assertCurrentFromNowOn(generator, clock, fresh, resumed.firstCurrent, lastBeforePause);
		}
	}

	/**
	 * Holds the filler, steps the clock past the pause, and has the taker take until it gets a current ID; lets the
	 * filler go once the taker waits for the ring, as the scheduler would give it its turn.
	 */
	private static Resumed pauseThenTakeUntilCurrent(CachedUidGenerator generator, HeldFillerClock clock, Taker taker,
			long pauseMillis, long lastBeforePause) throws Exception {
		assertThat(generator.ringBuffer().size()).as("a full ring waits to be handed out").isGreaterThan(10_000);
		clock.holdFiller();
		clock.advance(pauseMillis);
		long rejectionsBefore = generator.ringBuffer().takeRejections();
		Future<Resumed> taking = taker.run(() -> {
			Resumed result = new Resumed();
			long previous = lastBeforePause;
			long uid = generator.getUID();
			while (age(generator, clock, uid) > MAX_AGE_MILLIS && result.stale < 1_000_000) {
				result.stale++;
				result.increasing &= uid > previous;
				previous = uid;
				uid = generator.getUID();
			}
			result.increasing &= uid > previous;
			result.firstCurrent = uid;
			return result;
		});
		awaitUntil(() -> taking.isDone() || generator.ringBuffer().takeRejections() > rejectionsBefore);
		clock.releaseFiller();
		return taking.get(30, TimeUnit.SECONDS);
	}

	private static void assertCurrentFromNowOn(CachedUidGenerator generator, UidClock clock, Taker taker,
			long firstCurrent, long lastBeforePause) throws Exception {
		long[] more = taker.run(() -> takeMany(generator, 10_000)).get(30, TimeUnit.SECONDS);
		for (long uid : more) {
			assertThat(age(generator, clock, uid)).as("age of %d, ms", uid).isLessThanOrEqualTo(MAX_AGE_MILLIS);
		}
		assertThat(more[0]).isGreaterThan(firstCurrent);
		assertThat(UidSets.countDuplicates(more, new long[] { firstCurrent, lastBeforePause })).isZero();
	}

	/** What a caller got after the pause. */
	private static final class Resumed {

		long stale;

		boolean increasing = true;

		long firstCurrent;

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
