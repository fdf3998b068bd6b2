package io.github.uidgen.snowflake;

import java.time.Duration;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import io.github.uidgen.UidSets;
import io.github.uidgen.testsupport.SteppableClock;
import io.github.uidgen.worker.FixedWorkerIdAssigner;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A thread takes a few IDs and then sits idle while other threads keep asking, so that the filler is woken by
 * demand rather than by its schedule; meanwhile the clock moves on. When the idle thread asks again, what it gets
 * must be no older than {@code schedule-interval} + 1 s, however busy the others kept the filler: a run of IDs
 * ages no more than the ring's own IDs do.
 */
class RunAgeTests {

	private static final Duration INTERVAL = Duration.ofMillis(100);

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
		SteppableClock clock = new SteppableClock(Duration.ZERO);
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
			AtomicReference<Throwable> busyFailure = new AtomicReference<>();
			Thread busy = new Thread(() -> {
				try {
					while (!stop.get()) {
						int burst = (demand == Demand.STEADY) ? 3_000 : 100_000;
						for (int i = 0; i < burst; i++) {
							generator.getUID();
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
				// Several scheduled wake-ups pass, every one of them under demand.
				Thread.sleep(5 * INTERVAL.toMillis());
				long[] after = idle.takeNow(3);
				long now = clock.currentTimeMillis();
				for (long uid : after) {
					long age = now - generator.decode(uid).timestamp().toEpochMilli();
					assertThat(age).as("age of %d after the idle spell, ms", uid).isLessThanOrEqualTo(MAX_AGE_MILLIS);
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
