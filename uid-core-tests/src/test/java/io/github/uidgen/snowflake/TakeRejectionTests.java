package io.github.uidgen.snowflake;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import io.github.uidgen.UidClock;
import io.github.uidgen.UidSets;
import io.github.uidgen.worker.FixedWorkerIdAssigner;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A take is rejected (and the caller made to wait) only when the ring has run out of IDs, never because the filler
 * happens to be refreshing it. Demand here is low, so the ring's IDs go stale every schedule interval and are
 * retired; the filler thread is held up whenever it reads the clock while the ring is empty, as a busy machine may
 * hold it up between any two steps, so that any moment the ring spends empty during a refresh is long enough for
 * the taker to run into it.
 */
class TakeRejectionTests {

	private static final Duration INTERVAL = Duration.ofMillis(50);

	@Test
	void takesAreNotRejectedWhileTheFillerReplacesStaleIds() throws Exception {
		StallingClock clock = new StallingClock();
		try (CachedUidGenerator generator = CachedUidGenerator.builder()
			.clock(clock)
			.scheduleInterval(INTERVAL)
			.workerIdAssigner(new FixedWorkerIdAssigner(4))
			.build()) {
			clock.watch(generator);
			long[] ids = new long[600];
			long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
			for (int i = 0; i < ids.length && System.nanoTime() < deadline; i++) {
				long askedAt = System.currentTimeMillis();
				ids[i] = generator.getUID();
				long age = askedAt - generator.decode(ids[i]).timestamp().toEpochMilli();
				assertThat(age).as("age of ID %d, ms", i)
					.isLessThanOrEqualTo(INTERVAL.plusSeconds(1).toMillis() + clock.fillerLateness());
				TimeUnit.MILLISECONDS.sleep(1);
			}
			assertThat(generator.ringBuffer().discardedCount()).as("stale IDs were retired").isPositive();
			assertThat(generator.status().ring().takeRejections()).as("takes rejected while the ring was refreshed")
				.isZero();
			assertThat(UidSets.firstNonIncreasing(ids)).isEqualTo(-1);
			assertThat(UidSets.countDuplicates(ids)).isZero();
		}
	}

	/**
	 * The system clock, except that the filler thread is held up 20 ms whenever it reads it on an empty ring; it also
	 * notes the filler's readings.
	 */
	private static final class StallingClock implements UidClock {

		private final AtomicReference<CachedUidGenerator> generator = new AtomicReference<>();

		private final AtomicInteger stalls = new AtomicInteger();

		private final FillerReads fillerReads = new FillerReads();

		void watch(CachedUidGenerator watched) {
			this.generator.set(watched);
		}

		/** How far behind its schedule the filler may be now: see {@link FillerReads#lateness()}. */
		long fillerLateness() {
			return this.fillerReads.lateness();
		}

		@Override
		public long currentTimeMillis() {
			CachedUidGenerator watched = this.generator.get();
			boolean filler = FillerReads.onFiller();
			if (watched != null && filler && watched.ringBuffer().size() == 0 && this.stalls.incrementAndGet() < 100) {
				try {
					Thread.sleep(20);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			}
			long now = System.currentTimeMillis();
			if (filler) {
				this.fillerReads.read(now);
			}
			return now;
		}

	}

}
