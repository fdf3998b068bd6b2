package io.github.uidgen.impl;

import java.time.Duration;

import io.github.uidgen.InvalidSettingException;
import io.github.uidgen.UidException;
import io.github.uidgen.UidGeneratorStatus;
import io.github.uidgen.UidLayout;
import io.github.uidgen.buffer.RejectedPutHandler;
import io.github.uidgen.buffer.RejectedTakeHandler;
import io.github.uidgen.buffer.RingBuffer;
import io.github.uidgen.buffer.ThreadRuns;
import io.github.uidgen.buffer.WaitingTakeHandler;

/**
 * Hands out IDs produced ahead of demand from a {@link RingBuffer} that a background thread keeps filled. A
 * thread takes a short run of consecutive IDs from the ring at once ({@link ThreadRuns}), so most calls of
 * {@link #getUID()} read and write only the calling thread's memory: no lock, no allocation, no shared write.
 *
 * <p>The ring holds {@code (maxSequence + 1) << boostPower} IDs, one slot per run of consecutive IDs, and is
 * refilled when a take leaves it under {@code paddingFactor} percent full, and on every {@code scheduleInterval}. At
 * least once an interval and once a second, whatever the demand, IDs older than one interval are replaced by
 * current ones (put in before the old ones are dropped, so takers never find the ring empty meanwhile) and threads
 * drop runs that hold such IDs, so no ID handed out lies more than {@code scheduleInterval} + 1 s behind the clock.
 * Under demand beyond {@code 2^seqBits} IDs per time unit the filler borrows future time units, never more than
 * {@code maxAhead} past the clock; the worker's high-water mark is recorded before any borrowed unit is used, so a
 * restart on the same worker ID never repeats an ID.
 */
public final class CachedUidGenerator extends AbstractUidGenerator {

	/** Default boost power: the ring holds 8 time units' worth of IDs. */
	public static final int DEFAULT_BOOST_POWER = 3;

	/** Default padding factor: refill when under half full. */
	public static final int DEFAULT_PADDING_FACTOR = 50;

	/** Default interval of the scheduled refill that also retires stale IDs. */
	public static final Duration DEFAULT_SCHEDULE_INTERVAL = Duration.ofSeconds(1);

	/** Default bound on how far ahead of the clock the filler may run. */
	public static final Duration DEFAULT_MAX_AHEAD = Duration.ofSeconds(10);

	/** How many takes at most pass between two checks that the lease was renewed recently. */
	private static final int LEASE_CHECK_INTERVAL = 256;

	/** The largest ring: 2^28 slots, 2 GiB of IDs. */
	private static final int MAX_CAPACITY = 1 << 28;

	private final RingBuffer ring;

	private final ThreadRuns runs;

	private final UidRingFiller filler;

	private final int boostPower;

	private final int paddingFactor;

	private final Duration maxAhead;

	private final Duration scheduleInterval;

	private CachedUidGenerator(WorkerSession session, Builder builder, int capacity) {
		super(session);
		this.boostPower = builder.boostPower;
		this.paddingFactor = builder.paddingFactor;
		this.maxAhead = builder.maxAhead;
		this.scheduleInterval = builder.scheduleInterval;
		// A slot per run of consecutive IDs: the filler writes one slot for a thread's whole run.
		int idsPerSlot = (int) Math.min(ThreadRuns.MAX_RUN, this.layout.getMaxSequence() + 1);
		this.ring = new RingBuffer(capacity, idsPerSlot, builder.paddingFactor, builder.rejectedPutHandler,
				builder.rejectedTakeHandler);
		// IDs that are multiples of the interval (one in every 256, or every new time unit with fewer sequence bits)
		// check that the lease was renewed recently: a resumed process hands out at most that many IDs before it
		// notices. Each is the first of its run, so the check costs the take from a run nothing.
		int leaseCheckInterval = (int) Math.min(this.layout.getMaxSequence() + 1, LEASE_CHECK_INTERVAL);
		this.runs = new ThreadRuns(this.ring, ThreadRuns.MAX_RUN, leaseCheckInterval, this::checkLease);
		long unitMillis = this.layout.getTimeUnit().toMillis();
		this.filler = new UidRingFiller(this.ring, session, builder.maxAhead.toMillis() / unitMillis,
				builder.scheduleInterval.toMillis());
		this.ring.setFiller(this.filler);
	}

	/** Fills the ring as far as the clock allows without waiting, then starts the filler thread. */
	private void start() {
		this.session.onLeaseLost(this.filler::leaseLost);
		this.filler.start();
	}

	/**
	 * Starts building a generator.
	 * @return a builder
	 */
	public static Builder builder() {
		return new Builder();
	}

	@Override
	public long getUID() {
		return this.runs.take();
	}

	private void checkLease() {
		if (this.session.isRenewalOverdue()) {
			confirmLeaseAfterPause();
		}
	}

	/**
	 * The mark keeper has not renewed for a while: the process was paused (a stopped or frozen JVM, a long GC) or the
	 * store is out of reach, and the lease may be gone without this process knowing. Withdraws what the ring holds and
	 * hands out nothing more until a renewal proves the worker ID is still this generator's.
	 */
	private void confirmLeaseAfterPause() {
		this.ring.discardAll();
		this.session.confirmLease();
	}

	@Override
	String kind() {
		return "cached";
	}

	@Override
	long issuedCount() {
		return this.runs.takenCount();
	}

	@Override
	long latestUnit() {
		return this.filler.latestUnit();
	}

	@Override
	long clockBackwardsCount() {
		return this.filler.clockBackwardsCount();
	}

	@Override
	UidException failure() {
		UidException fillerFailure = this.filler.failure();
		return (fillerFailure != null) ? fillerFailure : super.failure();
	}

	@Override
	UidGeneratorStatus.Ring ring() {
		return new UidGeneratorStatus.Ring(this.ring.capacity(), this.ring.size(), this.ring.putRejections(),
				this.ring.takeRejections(), this.filler.fillErrors());
	}

	/** The ring, for tests that look inside. */
	RingBuffer ringBuffer() {
		return this.ring;
	}

	public int getBoostPower() {
		return this.boostPower;
	}

	public int getPaddingFactor() {
		return this.paddingFactor;
	}

	public Duration getMaxAhead() {
		return this.maxAhead;
	}

	public Duration getScheduleInterval() {
		return this.scheduleInterval;
	}

	@Override
	public void close() {
		long latest = this.filler.close(this.workerId);
		this.session.close(Math.max(latest, this.startUnit - 1));
	}

	@Override
	void haltIssuing() {
		this.filler.close(this.workerId);
	}

	/**
	 * Builds a {@link CachedUidGenerator}.
	 */
	public static final class Builder extends AbstractUidGenerator.Builder<Builder> {

		private int boostPower = DEFAULT_BOOST_POWER;

		private int paddingFactor = DEFAULT_PADDING_FACTOR;

		private Duration scheduleInterval = DEFAULT_SCHEDULE_INTERVAL;

		private Duration maxAhead = DEFAULT_MAX_AHEAD;

		private RejectedPutHandler rejectedPutHandler = RejectedPutHandler.KEEP_FOR_NEXT_FILL;

		private RejectedTakeHandler rejectedTakeHandler;

		private Builder() {
		}

		/**
		 * Sets the ring size as a power of two times the IDs of one time unit; checked against the layout when the
		 * layout is set already, else when the generator is built.
		 * @param boostPower 0 or more
		 * @return this builder
		 */
		public Builder boostPower(int boostPower) {
			if (boostPower < 0) {
				throw new InvalidSettingException("boostPower", boostPower,
						"use 0 or more; the ring holds (maxSequence + 1) << boostPower IDs");
			}
			if (layout() != null) {
				requireRingFits(layout(), boostPower);
			}
			this.boostPower = boostPower;
			return this;
		}

		private static void requireRingFits(UidLayout layout, int boostPower) {
			long perUnit = layout.getMaxSequence() + 1;
			if (boostPower > 30 || perUnit > (MAX_CAPACITY >> boostPower)) {
				throw new InvalidSettingException("boostPower", boostPower,
						"the ring of " + perUnit + " << " + boostPower + " IDs exceeds " + MAX_CAPACITY
								+ " slots; lower the boost power or the sequence bits");
			}
		}

		/**
		 * Sets the fill percentage under which a take asks for a refill.
		 * @param paddingFactor 1 to 99
		 * @return this builder
		 */
		public Builder paddingFactor(int paddingFactor) {
			if (paddingFactor < 1 || paddingFactor > 99) {
				throw new InvalidSettingException("paddingFactor", paddingFactor, "use a percentage from 1 to 99");
			}
			this.paddingFactor = paddingFactor;
			return this;
		}

		/**
		 * Sets the interval of the scheduled refill, which also replaces IDs older than one interval and drops the
		 * threads' runs (at least once a second); zero turns it off (refills then happen only on demand, and nothing
		 * is retired for its age).
		 * @param scheduleInterval zero or more
		 * @return this builder
		 */
		public Builder scheduleInterval(Duration scheduleInterval) {
			this.scheduleInterval = requireNotNegative(scheduleInterval, "scheduleInterval");
			return this;
		}

		/**
		 * Sets how far ahead of the clock the filler may borrow time when demand outruns {@code 2^seqBits} IDs
		 * per unit; takers wait beyond it.
		 * @param maxAhead zero or more
		 * @return this builder
		 */
		public Builder maxAhead(Duration maxAhead) {
			this.maxAhead = requireNotNegative(maxAhead, "maxAhead");
			return this;
		}

		/**
		 * Sets what happens when the ring is full on put; by default nothing, as the filler keeps the ID.
		 * @param rejectedPutHandler the handler
		 * @return this builder
		 */
		public Builder rejectedPutHandler(RejectedPutHandler rejectedPutHandler) {
			if (rejectedPutHandler == null) {
				throw new InvalidSettingException("rejectedPutHandler", null, "set a handler");
			}
			this.rejectedPutHandler = rejectedPutHandler;
			return this;
		}

		/**
		 * Sets what happens when the ring is empty on take; by default the taker waits (see
		 * {@link WaitingTakeHandler}).
		 * @param rejectedTakeHandler the handler
		 * @return this builder
		 */
		public Builder rejectedTakeHandler(RejectedTakeHandler rejectedTakeHandler) {
			if (rejectedTakeHandler == null) {
				throw new InvalidSettingException("rejectedTakeHandler", null, "set a handler");
			}
			this.rejectedTakeHandler = rejectedTakeHandler;
			return this;
		}

		/**
		 * Claims a worker ID, fills the ring and starts the filler thread.
		 * @return a running generator; close it to stop its threads and release the worker ID
		 */
		public CachedUidGenerator build() {
			applyDefaults();
			if (this.rejectedTakeHandler == null) {
				this.rejectedTakeHandler = new WaitingTakeHandler();
			}
			requireRingFits(layout(), this.boostPower);
			long perUnit = layout().getMaxSequence() + 1;
			WorkerSession session = openSession(this.maxAhead);
			try {
				CachedUidGenerator generator = new CachedUidGenerator(session, this, (int) (perUnit << this.boostPower));
				generator.start();
				return generator;
			}
			catch (RuntimeException ex) {
				session.close();
				throw ex;
			}
		}

	}

}
