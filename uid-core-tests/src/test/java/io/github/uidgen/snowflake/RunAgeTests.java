package io.github.uidgen.snowflake;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import io.github.uidgen.UidClock;
import io.github.uidgen.UidSets;
import io.github.uidgen.testsupport.SteppableClock;
import io.github.uidgen.worker.FixedWorkerIdAssigner;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A thread takes a few IDs and then sits idle while other threads keep asking, so that the filler is woken by
 * demand rather than by its schedule; meanwhile the clock moves on. When the idle thread asks again, what it gets
 * must be no older than {@code schedule-interval} + 1 s, however busy the others kept the filler: a run of IDs
 * ages no more than the ring's own IDs do. The product promises that while its filler thread runs, so the idle thread
 * asks again once the filler has been seen to run its maintenance since the clock moved on (counted through the
 * clock, which each maintenance pass reads first), not after a fixed sleep that a starved filler may sleep through,
 * and allows an ID the more age the longer the filler was seen held up ({@link FillerReads}).
 */
class RunAgeTests {

	private static final Duration INTERVAL = Duration.ofMillis(100);

	/** How long the filler may take to be seen at work: a bound for a stalled machine, not a promise of speed. */
	private static final Duration BOUND = Duration.ofSeconds(60);

	/** The promise: no ID handed out lies further behind the clock than this. */
	private static final long MAX_AGE_MILLIS = INTERVAL.plusSeconds(1).toMillis();

	/** How the other threads keep the filler busy. */
	enum Demand {

		/** Bursts of 3,000 IDs a millisecond: each burst drains the 4,096-slot ring past its padding threshold. */
		STEADY,

		/** As fast as a thread can: the filler soon borrows as far ahead as allowed and waits for the clock. */
		SATURATING

	}

	@ParameterizedTest
	@EnumSource(Demand.class)
	void anIdleThreadsRunHandsOutNothingOlderThanTheScheduleIntervalWhileOthersKeepTheFillerBusy(Demand demand)
			throws Exception {
		MaintenanceCountingClock clock = new MaintenanceCountingClock();
		try (CachedUidGenerator generator = CachedUidGenerator.builder()
			.clock(clock)
			.boostPower(0)
			.scheduleInterval(INTERVAL)
			.maxAhead(Duration.ofMillis(100))
			.workerIdAssigner(new FixedWorkerIdAssigner(3))
			.build()) {
			IdleTaker idle = new IdleTaker(generator);
			idle.start();
			long[] before = idle.takeNow(3);

			AtomicBoolean stop = new AtomicBoolean();
			AtomicLong busyTook = new AtomicLong();
			AtomicLong busyLatest = new AtomicLong();
			AtomicReference<Throwable> busyFailure = new AtomicReference<>();
			Thread busy = new Thread(() -> {
				try {
					while (!stop.get()) {
						int burst = (demand == Demand.STEADY) ? 3_000 : 100_000;
						for (int i = 0; i < burst; i++) {
							busyLatest.set(generator.getUID());
						}
						busyTook.addAndGet(burst);
						if (demand == Demand.STEADY) {
							Thread.sleep(1);
						}
					}
				}
				catch (Throwable ex) {
					busyFailure.set(ex);
				}
			}, "test-busy-taker");
			busy.setDaemon(true);
			busy.start();
			try {
				// The idle thread's run was claimed before this step: 8 s later its IDs are 8 s behind the clock.
				Thread.sleep(3 * INTERVAL.toMillis());
				clock.step(Duration.ofSeconds(8));
				long steppedAt = clock.currentTimeMillis();
				// Several maintenance passes, every one of them under demand: by the start of the third, one that
				// began after the step has ended (a pass nests at most one more inside it), and has dropped the idle
				// thread's run. The others have taken IDs from the ring filled after the step.
				await().atMost(BOUND).pollInterval(Duration.ofMillis(10)).untilAsserted(() -> {
					assertThat(clock.maintenancePassesSince(steppedAt)).as("maintenance passes since the step")
						.isGreaterThanOrEqualTo(3);
					assertThat(generator.decode(busyLatest.get()).timestamp().toEpochMilli())
						.as("the time of the latest ID the others took")
						.isGreaterThanOrEqualTo(steppedAt - INTERVAL.toMillis());
					assertThat(busyTook.get()).as("the other thread kept asking").isGreaterThan(10_000);
				});
				long askedAt = clock.currentTimeMillis();
				long[] after = idle.takeNow(3);
				for (long uid : after) {
					long age = askedAt - generator.decode(uid).timestamp().toEpochMilli();
					assertThat(age).as("age of %d after the idle spell, ms", uid)
						.isLessThanOrEqualTo(MAX_AGE_MILLIS + clock.fillerLateness());
				}
				assertThat(UidSets.countDuplicates(before, after)).isZero();
				assertThat(after[0]).isGreaterThan(before[2]);
			}
			finally {
				stop.set(true);
				busy.join(10_000);
				idle.finish();
			}
			assertThat(busyFailure.get()).isNull();
			assertThat(busyTook.get()).as("the other thread kept asking").isGreaterThan(10_000);
		}
	}

	/**
	 * The system clock, stepped by the test, that also counts the filler's maintenance passes: each reads the clock
	 * first, through {@code UidRingFiller.readClock} called by {@code maintainIfDue}.
	 */
	private static final class MaintenanceCountingClock implements UidClock {

		private static final StackWalker STACK = StackWalker.getInstance();

		/** The filler's methods, innermost first, through which a maintenance pass reads the clock. */
		private static final List<String> MAINTENANCE_READ = List.of("readClock", "maintainIfDue");

		private final SteppableClock clock = new SteppableClock(Duration.ZERO);

		private final AtomicLong passesFrom = new AtomicLong(Long.MAX_VALUE);

		private final AtomicInteger passes = new AtomicInteger();

		private final FillerReads fillerReads = new FillerReads();

		void step(Duration step) {
			this.clock.step(step);
		}

		/** How far behind its schedule the filler may be now: see {@link FillerReads#lateness()}. */
		long fillerLateness() {
			return this.fillerReads.lateness();
		}

		/** How many maintenance passes read the clock at or after the given time (the last time asked for). */
		int maintenancePassesSince(long millis) {
			if (this.passesFrom.getAndSet(millis) != millis) {
				this.passes.set(0);
			}
			return this.passes.get();
		}

		@Override
		public long currentTimeMillis() {
			long now = this.clock.currentTimeMillis();
			boolean filler = FillerReads.onFiller();
			if (filler) {
				this.fillerReads.read(System.currentTimeMillis());
			}
			if (now >= this.passesFrom.get() && filler
					&& STACK.walk((frames) -> frames.skip(1).limit(2).map(StackWalker.StackFrame::getMethodName).toList())
						.equals(MAINTENANCE_READ)) {
				this.passes.incrementAndGet();
			}
			return now;
		}

	}

	/** A thread of its own that takes IDs only when told to, and sits idle in between. */
	private static final class IdleTaker extends Thread {

		private final CachedUidGenerator generator;

		private final SynchronousQueue<Integer> requests = new SynchronousQueue<>();

		private final SynchronousQueue<long[]> answers = new SynchronousQueue<>();

		IdleTaker(CachedUidGenerator generator) {
			super("test-idle-taker");
			this.generator = generator;
			setDaemon(true);
		}

		long[] takeNow(int count) throws InterruptedException {
			assertThat(this.requests.offer(count, 10, TimeUnit.SECONDS)).as("the idle thread listens").isTrue();
			long[] ids = this.answers.poll(10, TimeUnit.SECONDS);
			assertThat(ids).as("the idle thread answered").isNotNull();
			return ids;
		}

		void finish() throws InterruptedException {
			this.requests.offer(0, 10, TimeUnit.SECONDS);
			join(10_000);
		}

		@Override
		public void run() {
			try {
				for (Integer count = this.requests.poll(30, TimeUnit.SECONDS); count != null && count > 0;
						count = this.requests.poll(30, TimeUnit.SECONDS)) {
					long[] ids = new long[count];
					for (int i = 0; i < ids.length; i++) {
						ids[i] = this.generator.getUID();
					}
					this.answers.offer(ids, 10, TimeUnit.SECONDS);
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}

	}

}
