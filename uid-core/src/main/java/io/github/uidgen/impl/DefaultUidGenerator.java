package io.github.uidgen.impl;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import io.github.uidgen.ClockMovedBackwardsException;
import io.github.uidgen.LayoutExhaustedException;
import io.github.uidgen.UidUnavailableException;

/**
 * Computes each ID on the call: the same time unit gives the next sequence, a new unit restarts it, an
 * exhausted sequence waits for the next unit.
 *
 * <p>The last (unit, sequence) pair lives in one {@code long} advanced by compare-and-set, so any number of
 * threads share it without a lock, and a thread that has to wait for the next unit waits alone. Small steps
 * of the clock backwards are absorbed by counting on from the last unit; larger ones fail with
 * {@link ClockMovedBackwardsException}. Never issues a duplicate or a negative ID.
 */
public final class DefaultUidGenerator extends AbstractUidGenerator {

	/** Default for how far back the clock may step before issue fails. */
	public static final Duration DEFAULT_CLOCK_BACKWARDS_TOLERANCE = Duration.ofSeconds(1);

	private static final VarHandle STATE;

	static {
		try {
			STATE = MethodHandles.lookup().findVarHandle(DefaultUidGenerator.class, "state", long.class);
		}
		catch (ReflectiveOperationException ex) {
			throw new ExceptionInInitializerError(ex);
		}
	}

	private static final long CLOSED = Long.MAX_VALUE;

	private final int seqBits;

	private final int workerBitCount;

	private final long maxSequence;

	private final long maxTime;

	private final long toleranceMillis;

	private final Duration tolerance;

	/** {@code (unit << seqBits) | sequence} of the last ID issued; {@link #CLOSED} once closed. */
	@SuppressWarnings("unused")
	private volatile long state;

	/** IDs issued in units already left behind; the current unit's count comes from {@link #state}. */
	private final AtomicLong issuedInPastUnits;

	private final AtomicLong clockBackwardsCount = new AtomicLong();

	private volatile long lastBackwardsUnit = Long.MIN_VALUE;

	private DefaultUidGenerator(WorkerSession session, Builder builder) {
		super(session);
		this.seqBits = this.layout.getSeqBits();
		this.workerBitCount = this.layout.getWorkerBits();
		this.maxSequence = this.layout.getMaxSequence();
		this.maxTime = this.layout.getMaxTime();
		this.tolerance = builder.clockBackwardsTolerance;
		this.toleranceMillis = builder.clockBackwardsTolerance.toMillis();
		// Start "at the end of the unit before the first", so the first call moves to a fresh unit.
		this.state = ((this.startUnit - 1) << this.seqBits) | this.maxSequence;
		this.issuedInPastUnits = new AtomicLong(-(this.maxSequence + 1));
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
		long now = this.layout.toUnit(this.clock.currentTimeMillis());
		for (;;) {
			long current = this.state;
			if (current == CLOSED) {
				throw new UidUnavailableException("The generator of worker " + this.workerId + " is closed");
			}
			long last = current >> this.seqBits;
			long next;
			if (now > last) {
				if (now > this.session.refreshAt()) {
					enterUnit(now);
				}
				else if (this.session.isRenewalOverdue()) {
					// Resumed after a pause, or the store is out of reach: the lease may be gone.
					this.session.confirmLease();
				}
				next = now << this.seqBits;
			}
			else if ((current & this.maxSequence) < this.maxSequence) {
				if (now < last) {
					now = checkBackwards(now, last);
					if (now > last) {
						continue;
					}
				}
				next = current + 1;
			}
			else {
				now = awaitUnitAfter(last);
				continue;
			}
			if (STATE.compareAndSet(this, current, next)) {
				if (now > last) {
					this.issuedInPastUnits.addAndGet((current & this.maxSequence) + 1);
				}
				return ((next & ~this.maxSequence) << this.workerBitCount) | this.shiftedWorkerId
						| (next & this.maxSequence);
			}
		}
	}

	/** Slow path, at most once a unit: refuses an exhausted layout and keeps the mark ahead of the unit. */
	private void enterUnit(long unit) {
		if (unit > this.maxTime) {
			throw new LayoutExhaustedException(this.layout.getExpiry());
		}
		this.session.cover(unit);
	}

	/**
	 * The clock reads behind the last unit: within tolerance the caller counts on from the last unit, beyond it
	 * issue fails. Returns a fresh reading in case the clock has caught up meanwhile.
	 */
	private long checkBackwards(long now, long last) {
		long fresh = this.layout.toUnit(this.clock.currentTimeMillis());
		if (fresh >= last) {
			return fresh;
		}
		if (this.lastBackwardsUnit != last) {
			this.lastBackwardsUnit = last;
			this.clockBackwardsCount.incrementAndGet();
		}
		long behindMillis = this.layout.startMillis(last) - this.layout.startMillis(fresh);
		if (behindMillis > this.toleranceMillis) {
			throw new ClockMovedBackwardsException(Duration.ofMillis(behindMillis), this.tolerance);
		}
		return fresh;
	}

	/** The sequence of {@code last} is used up: waits, without any lock, for the clock to reach a later unit. */
	private long awaitUnitAfter(long last) {
		for (;;) {
			long millis = this.clock.currentTimeMillis();
			long now = this.layout.toUnit(millis);
			if (now > last) {
				return now;
			}
			if (now < last) {
				checkBackwards(now, last);
			}
			long left = this.layout.startMillis(last + 1) - millis;
			if (last >= this.maxTime) {
				throw new LayoutExhaustedException(this.layout.getExpiry());
			}
			if (Thread.currentThread().isInterrupted()) {
				throw new UidUnavailableException("Interrupted while waiting for the next time unit of worker "
						+ this.workerId);
			}
			if (left > 1) {
				LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(left - 1));
			}
			else {
				Thread.onSpinWait();
			}
		}
	}

	@Override
	String kind() {
		return "default";
	}

	@Override
	long issuedCount() {
		long current = this.state;
		return this.issuedInPastUnits.get() + (current & this.maxSequence) + 1;
	}

	@Override
	long latestUnit() {
		long current = this.state;
		return (current == CLOSED) ? this.startUnit : Math.max(current >> this.seqBits, this.startUnit - 1);
	}

	@Override
	long clockBackwardsCount() {
		return this.clockBackwardsCount.get();
	}

	@Override
	public void close() {
		long current;
		do {
			current = this.state;
			if (current == CLOSED) {
				return;
			}
		}
		while (!STATE.compareAndSet(this, current, CLOSED));
		this.session.close(Math.max(current >> this.seqBits, this.startUnit - 1));
	}

	@Override
	void haltIssuing() {
		long current;
		do {
			current = this.state;
		}
		while (current != CLOSED && !STATE.compareAndSet(this, current, CLOSED));
	}

	/**
	 * Builds a {@link DefaultUidGenerator}.
	 */
	public static final class Builder extends AbstractUidGenerator.Builder<Builder> {

		private Duration clockBackwardsTolerance = DEFAULT_CLOCK_BACKWARDS_TOLERANCE;

		private Builder() {
		}

		/**
		 * Sets how far back the clock may step while issue carries on from the last time unit; further back
		 * fails with {@link ClockMovedBackwardsException}.
		 * @param clockBackwardsTolerance zero or more
		 * @return this builder
		 */
		public Builder clockBackwardsTolerance(Duration clockBackwardsTolerance) {
			this.clockBackwardsTolerance = requireNotNegative(clockBackwardsTolerance, "clockBackwardsTolerance");
			return this;
		}

		/**
		 * Claims a worker ID and builds the generator.
		 * @return a running generator; close it to release the worker ID
		 */
		public DefaultUidGenerator build() {
			return new DefaultUidGenerator(openSession(Duration.ZERO), this);
		}

	}

}
