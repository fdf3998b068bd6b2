package io.github.uidgen;

import java.time.Duration;
import java.time.Instant;

/**
 * What a generator says about itself, for endpoints, health checks and meters: its kind and layout, the worker it
 * issues as, how much it has issued, and why it cannot issue, if that is so. Parts a generator does not have are
 * {@code null} (a generator without a worker, without a ring buffer).
 *
 * <p>Every generator has one ({@link UidGenerator#status()}); an application's own generator is described by its
 * class name and layout unless it says more by overriding {@code status()}. A status is a snapshot: ask again for
 * fresh figures.
 *
 * @param kind {@code default}, {@code cached}, {@code segment}, or the class name of an application's own
 * generator
 * @param layout the ID layout, or {@code null} when IDs have none (segment IDs are plain numbers)
 * @param worker the worker the generator issues as, or {@code null}
 * @param issued how many IDs were handed out (not those waiting in the cached generator's ring or a thread's run);
 * exact while nothing is taken, close to it under load; {@code -1} when not counted
 * @param clockBackwards how often the clock was seen going backwards
 * @param aheadOfClock how far the latest issued (or produced) ID lies ahead of the clock, or {@code null}
 * @param ring the ring buffer of a generator that hands out IDs produced ahead, or {@code null}
 * @param segment the number segments of a segment generator, or {@code null}
 * @param failure why no ID can be issued now (lease lost, mark not recordable, layout exhausted, store down), or
 * {@code null} while the generator can issue
 * @param exhaustedUnits in how many time units the sequence ran out, so that issue waited for the next unit;
 * {@code -1} when not counted (the cached generator borrows later units instead, see {@code aheadOfClock})
 */
public record UidGeneratorStatus(String kind, UidLayout layout, Worker worker, long issued, long clockBackwards,
		Duration aheadOfClock, Ring ring, Segment segment, UidException failure, long exhaustedUnits) {

	/**
	 * Describes a generator that does not count the time units its sequence ran out in.
	 * @param kind the kind of generator
	 * @param layout the ID layout, or {@code null}
	 * @param worker the worker, or {@code null}
	 * @param issued how many IDs were handed out, {@code -1} when not counted
	 * @param clockBackwards how often the clock was seen going backwards
	 * @param aheadOfClock how far the latest issued ID lies ahead of the clock, or {@code null}
	 * @param ring the ring buffer, or {@code null}
	 * @param segment the number segments, or {@code null}
	 * @param failure why no ID can be issued now, or {@code null}
	 */
	public UidGeneratorStatus(String kind, UidLayout layout, Worker worker, long issued, long clockBackwards,
			Duration aheadOfClock, Ring ring, Segment segment, UidException failure) {
		this(kind, layout, worker, issued, clockBackwards, aheadOfClock, ring, segment, failure, -1);
	}

	/**
	 * Describes a generator that says nothing about itself: its class and layout, and whether the layout has run
	 * out.
	 * @param generator the generator
	 * @param clock the clock to compare the layout's expiry with
	 * @return the status
	 */
	public static UidGeneratorStatus of(UidGenerator generator, UidClock clock) {
		UidLayout layout = generator.layout();
		UidException failure = (layout != null && !layout.getExpiry().isAfter(Instant.ofEpochMilli(clock.currentTimeMillis())))
				? new LayoutExhaustedException(layout.getExpiry()) : null;
		return new UidGeneratorStatus(generator.getClass().getName(), layout, null, -1, 0, null, null, null,
				failure);
	}

	/**
	 * Returns whether the generator can issue IDs now.
	 * @return whether there is no failure
	 */
	public boolean isHealthy() {
		return this.failure == null;
	}

	/**
	 * The worker a generator issues as.
	 *
	 * @param id the worker ID
	 * @param assigner the name of the assigner it came from, for example {@code static}, {@code db}, {@code redis}
	 * @param highWaterMark the latest time the worker may issue IDs for before recording a new mark, or {@code null}
	 * once closed or the lease is lost
	 * @param markFailures how many times recording the mark failed and was retried
	 * @param leaseLost whether the worker ID's lease was lost (the generator issues nothing until it has claimed a
	 * worker ID again, or for good when it does not claim again)
	 * @param switches how often the generator moved to another worker ID because the clock stepped back further
	 * than it absorbs
	 * @param previousId the worker ID it issued as before the latest move, while it is still kept (until the clock
	 * has passed its mark), or {@code null}
	 * @param datacenterId the data center it issues for, or {@code null} when the layout has no data-center bits;
	 * {@code id} and {@code previousId} are worker IDs within it
	 * @param recoveries how often the generator claimed a worker ID again by itself after a lost lease and issued
	 * again
	 * @param issuableUntil the latest time the worker may issue IDs for without its store answering: the high-water
	 * mark, or further on its lease (see {@code WorkerIdAssigner.leaseHold()}); {@code null} once closed or the
	 * lease is lost
	 * @param storeSilent how long the worker's store has not answered renewals (they fail, or one has been
	 * outstanding for longer than a renewal interval); {@link Duration#ZERO} while it answers
	 */
	public record Worker(long id, String assigner, Instant highWaterMark, long markFailures, boolean leaseLost,
			long switches, Long previousId, Long datacenterId, long recoveries, Instant issuableUntil,
			Duration storeSilent) {

		/**
		 * Describes a worker without saying how long it may issue without its store.
		 * @param id the worker ID
		 * @param assigner the name of the assigner it came from
		 * @param highWaterMark the latest time the worker may issue IDs for, or {@code null}
		 * @param markFailures how many times recording the mark failed and was retried
		 * @param leaseLost whether the worker ID's lease was lost
		 * @param switches how often the generator moved to another worker ID because the clock stepped back
		 * @param previousId the worker ID it issued as before the latest move, or {@code null}
		 * @param datacenterId the data center it issues for, or {@code null}
		 * @param recoveries how often the generator claimed a worker ID again after a lost lease
		 */
		public Worker(long id, String assigner, Instant highWaterMark, long markFailures, boolean leaseLost,
				long switches, Long previousId, Long datacenterId, long recoveries) {
			this(id, assigner, highWaterMark, markFailures, leaseLost, switches, previousId, datacenterId, recoveries,
					highWaterMark, Duration.ZERO);
		}

		/**
		 * Returns whether the generator issues while its store does not answer, on the mark recorded or its lease.
		 * @return whether the store has been silent for longer than a renewal interval and issue goes on
		 */
		public boolean isRidingThrough() {
			return !this.leaseLost && this.storeSilent != null && !this.storeSilent.isZero()
					&& this.issuableUntil != null;
		}

		/**
		 * Describes a worker that never claimed again after a lost lease.
		 * @param id the worker ID
		 * @param assigner the name of the assigner it came from
		 * @param highWaterMark the latest time the worker may issue IDs for, or {@code null}
		 * @param markFailures how many times recording the mark failed and was retried
		 * @param leaseLost whether the worker ID's lease was lost
		 * @param switches how often the generator moved to another worker ID because the clock stepped back
		 * @param previousId the worker ID it issued as before the latest move, or {@code null}
		 * @param datacenterId the data center it issues for, or {@code null}
		 */
		public Worker(long id, String assigner, Instant highWaterMark, long markFailures, boolean leaseLost,
				long switches, Long previousId, Long datacenterId) {
			this(id, assigner, highWaterMark, markFailures, leaseLost, switches, previousId, datacenterId, 0,
					highWaterMark, Duration.ZERO);
		}

		/**
		 * Describes a worker of a layout without data-center bits.
		 * @param id the worker ID
		 * @param assigner the name of the assigner it came from
		 * @param highWaterMark the latest time the worker may issue IDs for, or {@code null}
		 * @param markFailures how many times recording the mark failed and was retried
		 * @param leaseLost whether the worker ID's lease was lost
		 * @param switches how often the generator moved to another worker ID because the clock stepped back
		 * @param previousId the worker ID it issued as before the latest move, or {@code null}
		 */
		public Worker(long id, String assigner, Instant highWaterMark, long markFailures, boolean leaseLost,
				long switches, Long previousId) {
			this(id, assigner, highWaterMark, markFailures, leaseLost, switches, previousId, null, 0, highWaterMark,
					Duration.ZERO);
		}

		/**
		 * Describes a worker that never moved to another worker ID.
		 * @param id the worker ID
		 * @param assigner the name of the assigner it came from
		 * @param highWaterMark the latest time the worker may issue IDs for, or {@code null}
		 * @param markFailures how many times recording the mark failed and was retried
		 * @param leaseLost whether the worker ID's lease was lost
		 */
		public Worker(long id, String assigner, Instant highWaterMark, long markFailures, boolean leaseLost) {
			this(id, assigner, highWaterMark, markFailures, leaseLost, 0, null, null, 0, highWaterMark, Duration.ZERO);
		}

	}

	/**
	 * The ring buffer of the cached generator.
	 *
	 * @param capacity slots
	 * @param size IDs waiting
	 * @param putRejections puts that found the ring full
	 * @param takeRejections takes that found the ring empty
	 * @param fillErrors fills that failed and were retried
	 */
	public record Ring(int capacity, int size, long putRejections, long takeRejections, long fillErrors) {

		/**
		 * Returns the fill as a percentage of the capacity.
		 * @return 0 to 100
		 */
		public int fillPercent() {
			return (int) (100L * this.size / this.capacity);
		}

	}

	/**
	 * The number segments of a segment generator.
	 *
	 * @param key the business key the numbers belong to
	 * @param step how many numbers the next segment claims
	 * @param remaining how many numbers are left in memory (current and prefetched segment)
	 * @param segmentsFetched how many segments were claimed from the store
	 * @param storeFailures how many claims from the store failed
	 */
	public record Segment(String key, long step, long remaining, long segmentsFetched, long storeFailures) {
	}

}
