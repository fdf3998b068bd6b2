package io.github.uidgen.snowflake;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import io.github.uidgen.ClockMovedBackwardsException;
import io.github.uidgen.LayoutExhaustedException;
import io.github.uidgen.UidUnavailableException;
import io.github.uidgen.worker.WorkerLeaseLostException;

/**
 * Computes each ID on the call: the same time unit gives the next sequence, a new unit restarts it, an
 * exhausted sequence waits for the next unit.
 *
 * <p>The last (unit, sequence) pair lives in one {@code long} advanced by compare-and-set, so any number of
 * threads share it without a lock, and a thread that has to wait for the next unit waits alone. Small steps
 * of the clock backwards are absorbed by counting on from the last unit. On a larger step the generator claims a
 * further worker ID whose mark lies behind the clock (lease assigners can, and the static one with backup worker IDs)
 * and goes on issuing as that worker, keeping
 * the first one's lease until the clock has passed its mark; when it cannot, or when switching is off, issue fails
 * with {@link ClockMovedBackwardsException}. Never issues a duplicate or a negative ID.
 *
 * <p>The state is the last ID issued itself, worker bits included, so a move to another worker and every ID issued
 * are ordered by one compare-and-set: no thread can issue as a worker the generator has moved away from.
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

	/** Never an ID, nor a state: IDs are not negative, and the state before the first unit is not this one. */
	private static final long CLOSED = Long.MIN_VALUE;

	private final int timeShift;

	private final long workerMask;

	private final long maxSequence;

	private final long maxTime;

	private final long toleranceMillis;

	private final Duration tolerance;

	/** The last ID issued, {@code (unit << timeShift) | (worker << seqBits) | sequence}; {@link #CLOSED} once closed. */
	@SuppressWarnings("unused")
	private volatile long state;

	/** IDs issued in units already left behind; the current unit's count comes from {@link #state}. */
	private final AtomicLong issuedInPastUnits;

	private final AtomicLong clockBackwardsCount = new AtomicLong();

	private volatile long lastBackwardsUnit = Long.MIN_VALUE;

	/** Time units whose sequence ran out; each counted once, by the thread that first found it used up. */
	private final AtomicLong exhaustedUnits = new AtomicLong();

	private final AtomicLong lastExhaustedUnit = new AtomicLong(Long.MIN_VALUE);

	private final boolean switchWorker;

	/** The session of the worker the state's IDs carry; written before the state moves to another worker. */
	private volatile WorkerSession issuing;

	/** Guards moves to another worker, and closing. */
	private final Object switchLock = new Object();

	/** Earlier workers kept until the clock passes their marks; used under {@link #switchLock}. */
	private final WorkerSwitches switches = new WorkerSwitches();

	private DefaultUidGenerator(WorkerSession session, Builder builder) {
		super(session, builder);
		this.issuing = session;
		this.switchWorker = builder.clockBackwardsSwitchWorker;
		this.timeShift = this.layout.getWorkerBits() + this.layout.getSeqBits();
		// The whole worker field, data-center bits included: a move to another worker changes only the worker part.
		this.workerMask = ~(-1L << this.layout.getWorkerBits()) << this.layout.getSeqBits();
		this.maxSequence = this.layout.getMaxSequence();
		this.maxTime = this.layout.getMaxTime();
		this.tolerance = builder.clockBackwardsTolerance;
		this.toleranceMillis = builder.clockBackwardsTolerance.toMillis();
		// Start "at the end of the unit before the first", so the first call moves to a fresh unit.
		this.state = ((this.startUnit - 1) << this.timeShift) | this.shiftedWorkerId | this.maxSequence;
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
		long worker = -1;
		for (;;) {
			long current = this.state;
			if (current == CLOSED) {
				throw new UidUnavailableException("The generator of worker " + this.workerId + " is closed");
			}
			if ((current & this.workerMask) != worker) {
				if (worker != -1) {
					// The generator moved to another worker since the clock was read, most likely because the clock
					// stepped back meanwhile: a reading from before would carry the new worker ahead of the clock.
					now = this.layout.toUnit(this.clock.currentTimeMillis());
				}
				worker = current & this.workerMask;
			}
			long last = current >> this.timeShift;
			long next;
			if (now > last) {
				WorkerSession session = this.issuing;
				if ((current & this.workerMask) != session.shiftedWorkerId()) {
					// Another thread is moving the state to the worker it has just opened: read it again.
					Thread.onSpinWait();
					continue;
				}
				if (now > session.refreshAt()) {
					enterUnit(session, now);
				}
				next = (now << this.timeShift) | (current & this.workerMask);
			}
			else if ((current & this.maxSequence) < this.maxSequence) {
				if (now < last) {
					now = checkBackwards(now, last, current);
					if (now > last) {
						continue;
					}
				}
				next = current + 1;
			}
			else {
				if (now == last) {
					countExhausted(last);
				}
				now = awaitUnitAfter(last, current);
				continue;
			}
			if (STATE.compareAndSet(this, current, next)) {
				if (now > last) {
					this.issuedInPastUnits.addAndGet((current & this.maxSequence) + 1);
				}
				return next;
			}
		}
	}

	/** Slow path, at most once a unit: refuses an exhausted layout and keeps the mark ahead of the unit. */
	private void enterUnit(WorkerSession session, long unit) {
		if (unit > this.maxTime) {
			throw new LayoutExhaustedException(this.layout.getExpiry());
		}
		try {
			session.cover(unit);
		}
		catch (WorkerLeaseLostException ex) {
			throw lostLease(ex);
		}
	}

	/** Watches a session's lease: when it is lost, says so to callers and claims again (unless told not to). */
	private void watch(WorkerSession watched) {
		watched.onLeaseLost((reason) -> {
			this.recovery.lost(watched, reason);
			this.recovery.reclaim(watched, (next) -> resume(watched, next));
		});
	}

	/**
	 * Moves issue to a session claimed after the lost one's lease was lost, unless the generator closed or moved on
	 * meanwhile. Every thread that still reads the lost session fails its compare-and-set and reads the new state.
	 * @return whether the generator issues on the new session now; when not, the session is closed
	 */
	private boolean resume(WorkerSession lost, WorkerSession next) {
		synchronized (this.switchLock) {
			if (this.state == CLOSED || this.issuing != lost) {
				next.close();
				return false;
			}
			watch(next);
			this.issuing = next;
			if (!moveStateTo(next)) {
				this.issuing = lost;
				next.close();
				return false;
			}
			leave(lost);
			lost.close();
			return true;
		}
	}

	/**
	 * Moves the state to the start of another worker's first unit, unless the generator closed; every thread that
	 * still reads the old state fails its compare-and-set and reads the new one.
	 * @return whether the state moved
	 */
	private boolean moveStateTo(WorkerSession to) {
		long start = ((to.startUnit() - 1) << this.timeShift) | to.shiftedWorkerId() | this.maxSequence;
		long replaced;
		do {
			replaced = this.state;
			if (replaced == CLOSED) {
				return false;
			}
		}
		while (!STATE.compareAndSet(this, replaced, start));
		// The last unit of the old worker and the fresh start count as the constructor's does.
		this.issuedInPastUnits.addAndGet((replaced & this.maxSequence) - this.maxSequence);
		return true;
	}

	/**
	 * The clock reads behind the last unit: within tolerance the caller counts on from the last unit; beyond it the
	 * generator moves to another worker, or issue fails. Returns a fresh reading in case the clock has caught up
	 * meanwhile; after a move the caller's compare-and-set fails and it reads the new state.
	 */
	private long checkBackwards(long now, long last, long current) {
		long fresh = this.layout.toUnit(this.clock.currentTimeMillis());
		if (fresh >= last) {
			return fresh;
		}
		if (this.lastBackwardsUnit != last) {
			this.lastBackwardsUnit = last;
			this.clockBackwardsCount.incrementAndGet();
		}
		long behindMillis = this.layout.startMillis(last) - this.layout.startMillis(fresh);
		if (behindMillis > this.toleranceMillis && !(this.switchWorker && switchWorker(current, behindMillis))) {
			throw new ClockMovedBackwardsException(Duration.ofMillis(behindMillis), this.tolerance);
		}
		return fresh;
	}

	/**
	 * Moves issue to a further worker ID whose mark lies behind the clock, unless another thread already did. The
	 * new worker's first reservation is recorded before the state moves to it; the old worker is retired only after,
	 * so no thread can issue as it again, and it keeps its lease until the clock has passed its mark.
	 * @param observed the state the caller saw, of the worker whose mark lies ahead of the clock
	 * @return whether the generator issues on another worker than the observed state's now
	 */
	private boolean switchWorker(long observed, long behindMillis) {
		synchronized (this.switchLock) {
			long current = this.state;
			if (current == CLOSED) {
				return false;
			}
			if ((current & this.workerMask) != (observed & this.workerMask)) {
				return true;
			}
			WorkerSession from = this.issuing;
			WorkerSession to = this.switches.openBehind(from, behindMillis);
			if (to == null) {
				return false;
			}
			this.switches.keep(from);
			watch(to);
			this.issuing = to;
			if (!moveStateTo(to)) {
				// Halted meanwhile (a crash test): give nothing back, as a killed process would not.
				to.halt();
				return false;
			}
			this.switches.moved(from, to, behindMillis);
			return true;
		}
	}

	/** Counts a used-up unit once, however many threads wait for the next one; at most once a unit, off the fast path. */
	private void countExhausted(long unit) {
		long seen = this.lastExhaustedUnit.get();
		if (seen < unit && this.lastExhaustedUnit.compareAndSet(seen, unit)) {
			this.exhaustedUnits.incrementAndGet();
		}
	}

	@Override
	long exhaustedUnits() {
		return this.exhaustedUnits.get();
	}

	/** The sequence of {@code last} is used up: waits, without any lock, for the clock to reach a later unit. */
	private long awaitUnitAfter(long last, long current) {
		for (;;) {
			long millis = this.clock.currentTimeMillis();
			long now = this.layout.toUnit(millis);
			if (now > last || this.state != current) {
				return now;
			}
			if (now < last) {
				checkBackwards(now, last, current);
				if (this.state != current) {
					return now;
				}
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
		long startUnit = this.issuing.startUnit();
		return (current == CLOSED) ? startUnit : Math.max(current >> this.timeShift, startUnit - 1);
	}

	@Override
	long clockBackwardsCount() {
		return this.clockBackwardsCount.get();
	}

	@Override
	WorkerSession issuingSession() {
		return this.issuing;
	}

	@Override
	long workerSwitches() {
		return this.switches.count();
	}

	@Override
	Long retiredWorkerId() {
		return this.switches.latestKeptWorkerId();
	}

	/** Releases the worker ID issued on, with its final mark, and every earlier one still kept. */
	@Override
	public void close() {
		// Before the lock: a claim under way hands its session over under the same lock, and finds the state closed.
		this.recovery.close();
		synchronized (this.switchLock) {
			long current;
			do {
				current = this.state;
				if (current == CLOSED) {
					return;
				}
			}
			while (!STATE.compareAndSet(this, current, CLOSED));
			WorkerSession session = this.issuing;
			session.close(Math.max(current >> this.timeShift, session.startUnit() - 1));
			this.switches.closeAll();
		}
	}

	@Override
	void haltIssuing() {
		long current;
		do {
			current = this.state;
		}
		while (current != CLOSED && !STATE.compareAndSet(this, current, CLOSED));
	}

	@Override
	void haltSessions() {
		this.issuing.halt();
		this.switches.haltAll();
	}

	/**
	 * Builds a {@link DefaultUidGenerator}.
	 */
	public static final class Builder extends AbstractUidGenerator.Builder<Builder> {

		private Duration clockBackwardsTolerance = DEFAULT_CLOCK_BACKWARDS_TOLERANCE;

		private boolean clockBackwardsSwitchWorker = true;

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
		 * Sets whether a step of the clock back beyond the tolerance moves issue to a further worker ID whose mark lies
		 * behind the clock, when the assigner can hand one out (the lease assigners can, and the static one with backup
		 * worker IDs); on by default. Off, or when
		 * no such worker ID can be had, issue fails with {@link ClockMovedBackwardsException} until the clock has
		 * caught up.
		 * @param clockBackwardsSwitchWorker whether to move to another worker ID
		 * @return this builder
		 */
		public Builder clockBackwardsSwitchWorker(boolean clockBackwardsSwitchWorker) {
			this.clockBackwardsSwitchWorker = clockBackwardsSwitchWorker;
			return this;
		}

		/**
		 * Claims a worker ID and builds the generator.
		 * @return a running generator; close it to release the worker ID
		 */
		public DefaultUidGenerator build() {
			DefaultUidGenerator generator = new DefaultUidGenerator(openSession(Duration.ZERO), this);
			generator.watch(generator.session);
			return generator;
		}

	}

}
