package io.github.uidgen.snowflake;

import java.time.Duration;

import io.github.uidgen.InvalidSettingException;
import io.github.uidgen.UidException;
import io.github.uidgen.UidGeneratorStatus;
import io.github.uidgen.buffer.RejectedPutHandler;
import io.github.uidgen.buffer.RejectedTakeHandler;
import io.github.uidgen.buffer.RingBuffer;
import io.github.uidgen.buffer.ThreadRuns;
import io.github.uidgen.buffer.WaitingTakeHandler;
import io.github.uidgen.worker.WorkerLeaseLostException;

/**
 * Hands out IDs produced ahead of demand from a {@link RingBuffer} that a background thread keeps filled. A
 * thread takes a short run of consecutive IDs from the ring at once ({@link ThreadRuns}), so most calls of
 * {@link #getUID()} read and write only the calling thread's memory: no lock, no allocation, no shared write.
 *
 * <p>The ring holds {@code (maxSequence + 1) << boostPower} IDs, one slot per run of consecutive IDs, and is
 * refilled when a take leaves it under {@code paddingFactor} percent full, and on every {@code scheduleInterval}. At
 * least once an interval and once a second, whatever the demand, IDs older than one interval are replaced by
 * current ones (put in before the old ones are dropped, so takers never find the ring empty meanwhile) and threads
 * drop runs that hold such IDs, so no ID handed out lies more than {@code scheduleInterval} + 1 s behind the clock
 * while the filler thread runs. After a pause of the process (a long GC, SIGSTOP) or while the filler is starved of
 * CPU, callers that run before it hand out what the ring and their runs held from before, in order and never twice:
 * at most the ring's capacity plus {@value ThreadRuns#MAX_RUN} per thread. Takers do not read the clock, so that a
 * take from a run stays a field increment and no caller waits for a starved filler while the ring holds IDs.
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

	// The ring, the threads' runs over it and its filler belong to one worker session; after a lost lease the
	// generator issues from new ones on the session it claimed again, so these are replaced (runs last).
	private volatile RingBuffer ring;

	private volatile ThreadRuns runs;

	private volatile UidRingFiller filler;

	private volatile WorkerSession issuing;

	private final RingSetup setup;

	/** What earlier rings handed out or counted, so the generator's figures never go back; guarded by the lock. */
	private final RingTotals earlier = new RingTotals();

	private final Object lifecycle = new Object();

	private boolean closed;

	private final int boostPower;

	private final int paddingFactor;

	private final Duration maxAhead;

	private final Duration scheduleInterval;

	private CachedUidGenerator(WorkerSession session, Builder builder, int capacity) {
		super(session, builder);
		this.boostPower = builder.boostPower;
		this.paddingFactor = builder.paddingFactor;
		this.maxAhead = builder.maxAhead;
		this.scheduleInterval = builder.scheduleInterval;
		this.setup = new RingSetup(this.layout, capacity, builder.paddingFactor, builder.rejectedPutHandler,
				builder.rejectedTakeHandler, builder.maxAhead.toMillis(), builder.scheduleInterval.toMillis());
		this.issuing = session;
		this.ring = this.setup.newRing();
		this.runs = this.setup.newRuns(this.ring);
		this.filler = this.setup.newFiller(this.ring, session);
	}

	/** Fills the ring as far as the clock allows without waiting, then starts the filler thread. */
	private void start() {
		watch(this.session, this.filler);
		this.filler.start();
	}

	/**
	 * Watches a session's lease: when it is lost, its ring is sealed at once (callers get why, and what the generator
	 * does about it), then a worker ID is claimed again unless told not to.
	 */
	private void watch(WorkerSession watched, UidRingFiller fillingFor) {
		watched.onLeaseLost((reason) -> {
			fillingFor.leaseLost(this.recovery.lost(watched, reason));
			this.recovery.reclaim(watched, (next) -> resume(watched, next));
		});
	}

	/**
	 * Issues from a new ring, filled from the session claimed after the lost one's lease was lost, unless the generator
	 * closed meanwhile. The lost session's ring was sealed when its lease was lost: its IDs and the runs taken from it
	 * are gone, and nothing more goes in.
	 * @return whether the generator issues on the new session now; when not, the session is closed
	 */
	private boolean resume(WorkerSession lost, WorkerSession next) {
		synchronized (this.lifecycle) {
			if (this.closed || this.issuing != lost) {
				next.close();
				return false;
			}
		}
		// Filled outside the lock, which status readers take: the first fill may wait for the new worker's mark.
		RingBuffer freshRing;
		UidRingFiller freshFiller;
		try {
			freshRing = this.setup.newRing();
			freshFiller = this.setup.newFiller(freshRing, next);
			watch(next, freshFiller);
			freshFiller.start();
		}
		catch (RuntimeException ex) {
			next.close();
			throw ex;
		}
		synchronized (this.lifecycle) {
			if (this.closed || this.issuing != lost) {
				freshFiller.close(next.workerId());
				next.close();
				return false;
			}
			this.filler.close(lost.workerId());
			this.earlier.add(this.ring, this.runs, this.filler);
			this.issuing = next;
			this.filler = freshFiller;
			this.ring = freshRing;
			this.runs = this.setup.newRuns(freshRing);
			leave(lost);
			lost.close();
			return true;
		}
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

	@Override
	WorkerSession issuingSession() {
		return this.issuing;
	}

	@Override
	String kind() {
		return "cached";
	}

	@Override
	long issuedCount() {
		synchronized (this.lifecycle) {
			return this.earlier.issued(this.runs);
		}
	}

	@Override
	long latestUnit() {
		return this.filler.latestUnit();
	}

	@Override
	long clockBackwardsCount() {
		synchronized (this.lifecycle) {
			return this.earlier.clockBackwards(this.filler);
		}
	}

	@Override
	UidException failure() {
		UidException lost = this.recovery.failure();
		if (lost != null) {
			return lost;
		}
		UidException fillerFailure = this.filler.failure();
		return (fillerFailure != null) ? fillerFailure : super.failure();
	}

	@Override
	UidGeneratorStatus.Ring ring() {
		synchronized (this.lifecycle) {
			return this.earlier.status(this.ring, this.filler);
		}
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
		// Before the lock: a claim under way hands its session over under the same lock, and finds the generator closed.
		this.recovery.close();
		synchronized (this.lifecycle) {
			if (this.closed) {
				return;
			}
			this.closed = true;
			WorkerSession current = this.issuing;
			long latest = this.filler.close(current.workerId());
			current.close(Math.max(latest, current.startUnit() - 1));
		}
	}

	@Override
	void haltIssuing() {
		synchronized (this.lifecycle) {
			this.closed = true;
			this.filler.close(this.issuing.workerId());
		}
	}

	@Override
	void haltSessions() {
		this.issuing.halt();
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
				RingSetup.capacity(layout(), boostPower);
			}
			this.boostPower = boostPower;
			return this;
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
			int capacity = RingSetup.capacity(layout(), this.boostPower);
			WorkerSession session = openSession(this.maxAhead);
			try {
				CachedUidGenerator generator = new CachedUidGenerator(session, this, capacity);
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
