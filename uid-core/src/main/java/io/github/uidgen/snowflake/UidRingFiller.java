package io.github.uidgen.snowflake;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import io.github.uidgen.LayoutExhaustedException;
import io.github.uidgen.UidClock;
import io.github.uidgen.UidException;
import io.github.uidgen.UidLayout;
import io.github.uidgen.UidUnavailableException;
import io.github.uidgen.buffer.RingBuffer;
import io.github.uidgen.buffer.RingFiller;
import io.github.uidgen.worker.WorkerLeaseLostException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fills the cached generator's ring from one named daemon thread.
 *
 * <p>It keeps its own (unit, sequence) position and resumes exactly where the last fill stopped, so a full ring
 * wastes no sequence. It moves to a new unit when the current one is used up ("borrowing" future time when demand
 * outruns the clock) and jumps forward to the clock whenever the clock is ahead, so IDs never carry old times
 * after a quiet spell. It never runs more than {@code maxAhead} past the highest clock reading seen (which also
 * makes it immune to the clock stepping back), refuses to pass the layout's last unit, records the high-water mark
 * before putting any unit, and survives an exception in a fill by retrying.
 */
final class UidRingFiller implements RingFiller {

	private static final Logger logger = LoggerFactory.getLogger(UidRingFiller.class);

	private static final long IDLE_PARK_NANOS = TimeUnit.SECONDS.toNanos(1);

	/** The longest a thread's run or the ring may go unchecked for stale IDs. */
	private static final long MAX_MAINTENANCE_NANOS = TimeUnit.SECONDS.toNanos(1);

	private static final long RETRY_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

	private final RingBuffer ring;

	private final UidLayout layout;

	private final UidClock clock;

	private final WorkerSession session;

	private final long shiftedWorkerId;

	private final int timeShift;

	private final long maxSequence;

	private final long maxAheadUnits;

	private final long scheduleNanos;

	/**
	 * How often the filler retires stale IDs and makes threads drop their runs: every schedule interval, and at least
	 * once a second, whatever the demand, so nothing handed out lies more than an interval and a second behind the
	 * clock. Zero when the schedule is off.
	 */
	private final long maintenanceNanos;

	private final long staleUnits;

	private final Thread thread;

	private final AtomicLong clockBackwardsCount = new AtomicLong();

	private final AtomicLong fillErrors = new AtomicLong();

	// Filler-thread state: the next (unit, sequence) to put and the highest clock unit seen.
	private long fillUnit;

	private long nextSequence;

	private long highestClockUnit;

	private long lastClockUnit;

	/** When stale IDs were last retired and runs dropped (each drop wastes what the runs still held). */
	private long maintainedNanos = System.nanoTime();

	private volatile long latestUnit;

	private volatile boolean fillRequested;

	private volatile boolean closed;

	private volatile UidException failure;

	private volatile Throwable lastError;

	UidRingFiller(RingBuffer ring, WorkerSession session, long maxAheadUnits, long scheduleMillis) {
		this.ring = ring;
		this.layout = session.layout();
		this.clock = session.clock();
		this.session = session;
		this.shiftedWorkerId = session.shiftedWorkerId();
		this.timeShift = this.layout.getWorkerBits() + this.layout.getSeqBits();
		this.maxSequence = this.layout.getMaxSequence();
		this.maxAheadUnits = maxAheadUnits;
		this.scheduleNanos = TimeUnit.MILLISECONDS.toNanos(scheduleMillis);
		this.maintenanceNanos = Math.min(this.scheduleNanos, MAX_MAINTENANCE_NANOS);
		this.staleUnits = Math.max(1, scheduleMillis / this.layout.getTimeUnit().toMillis());
		long startUnit = session.startUnit();
		this.fillUnit = startUnit - 1;
		this.nextSequence = this.maxSequence + 1;
		this.latestUnit = startUnit - 1;
		this.highestClockUnit = Long.MIN_VALUE;
		this.lastClockUnit = Long.MIN_VALUE;
		this.thread = new Thread(this::run, "uid-ring-filler-worker-" + session.workerId());
		this.thread.setDaemon(true);
	}

	/**
	 * Fills the ring on the calling thread as far as the clock allows without waiting, so start-up fails fast,
	 * then starts the filler thread, which carries on from there.
	 */
	void start() {
		fill(false);
		this.fillRequested = true;
		this.thread.start();
	}

	@Override
	public void requestFill() {
		if (!this.fillRequested) {
			this.fillRequested = true;
			LockSupport.unpark(this.thread);
		}
	}

	@Override
	public UidException failure() {
		return this.failure;
	}

	@Override
	public String describe() {
		Throwable error = this.lastError;
		UidException keeperFailure = this.session.failure();
		return "filling time unit " + this.latestUnit + ", clock at unit "
				+ this.layout.toUnit(this.clock.currentTimeMillis())
				+ ((keeperFailure != null) ? ", high-water mark: " + keeperFailure.getMessage() : "")
				+ ((error != null) ? ", last fill failed: " + error : "");
	}

	private void run() {
		while (!this.closed) {
			if (!this.fillRequested) {
				LockSupport.parkNanos(this, untilMaintenance());
			}
			if (this.closed) {
				return;
			}
			boolean requested = this.fillRequested;
			this.fillRequested = false;
			try {
				maintainIfDue(true);
				if (requested || this.scheduleNanos > 0) {
					fill(true);
				}
				this.lastError = null;
			}
			catch (WorkerLeaseLostException ex) {
				stop(ex, true);
				return;
			}
			catch (LayoutExhaustedException ex) {
				stop(ex, false);
				return;
			}
			catch (RuntimeException | Error ex) {
				onFillError(ex);
			}
		}
	}

	private void onFillError(Throwable ex) {
		if (this.lastError == null) {
			logger.warn("uid ring fill failed, retrying", ex);
		}
		this.lastError = ex;
		this.fillErrors.incrementAndGet();
		this.fillRequested = true;
		LockSupport.parkNanos(this, RETRY_PARK_NANOS);
	}

	/** {@link #fill(boolean, boolean)}, waiting for the mark of each new unit. */
	void fill(boolean mayWait) {
		fill(mayWait, false);
	}

	/**
	 * Puts IDs until the ring is full or no further unit may be used yet.
	 * @param mayWait whether to wait for the clock when the next unit lies too far ahead of it
	 * @param coveredOnly whether to stop at a unit whose mark is not recorded yet instead of waiting for it
	 */
	private void fill(boolean mayWait, boolean coveredOnly) {
		while (!this.closed && this.failure == null) {
			maintainIfDue(!coveredOnly);
			if (!advance(mayWait, coveredOnly)) {
				return;
			}
			long first = (this.fillUnit << this.timeShift) | this.shiftedWorkerId | this.nextSequence;
			int count = (int) Math.min(this.maxSequence - this.nextSequence + 1, Integer.MAX_VALUE);
			long publishedBefore = this.ring.publishedCount();
			try {
				this.ring.putRange(first, count);
			}
			finally {
				// Count from the ring itself, so a put handler that throws cannot make the next fill repeat IDs.
				if (!this.ring.isSealed()) {
					this.nextSequence += this.ring.publishedCount() - publishedBefore;
				}
			}
			if (this.ring.isSealed()) {
				return;
			}
			if (this.nextSequence <= this.maxSequence) {
				return;
			}
		}
	}

	/**
	 * Moves the position on when the unit is used up or the clock is ahead of it; waits while that would run
	 * further ahead of the clock than allowed; records the mark for a new unit before it is used.
	 * @return whether IDs may be put at the position now
	 */
	private boolean advance(boolean mayWait, boolean coveredOnly) {
		readClock();
		long unit = this.fillUnit;
		long sequence = this.nextSequence;
		if (sequence > this.maxSequence) {
			unit++;
			sequence = 0;
		}
		if (this.highestClockUnit > unit) {
			unit = this.highestClockUnit;
			sequence = 0;
		}
		if (unit == this.fillUnit) {
			return true;
		}
		if (unit > this.layout.getMaxTime()) {
			stop(new LayoutExhaustedException(this.layout.getExpiry()), false);
			return false;
		}
		while (unit > this.highestClockUnit + this.maxAheadUnits) {
			if (this.closed || !mayWait) {
				return false;
			}
			long clockNeeded = this.layout.startMillis(unit - this.maxAheadUnits);
			long waitMillis = clockNeeded - this.clock.currentTimeMillis();
			LockSupport.parkNanos(this, TimeUnit.MILLISECONDS.toNanos(Math.max(1, Math.min(waitMillis, 100))));
			readClock();
			// Demand beyond the layout's rate keeps the filler here for as long as it lasts; runs still age.
			maintainIfDue(false);
		}
		if (coveredOnly && !this.session.isCovered(unit)) {
			return false;
		}
		this.session.cover(unit);
		this.fillUnit = unit;
		this.nextSequence = sequence;
		this.latestUnit = unit;
		return true;
	}

	private void readClock() {
		long now = this.layout.toUnit(this.clock.currentTimeMillis());
		if (now < this.lastClockUnit) {
			this.clockBackwardsCount.incrementAndGet();
		}
		this.lastClockUnit = now;
		if (now > this.highestClockUnit) {
			this.highestClockUnit = now;
		}
	}

	/** How long the filler may sleep before its next maintenance is due. */
	private long untilMaintenance() {
		if (this.maintenanceNanos == 0) {
			return IDLE_PARK_NANOS;
		}
		long left = this.maintainedNanos + this.maintenanceNanos - System.nanoTime();
		return Math.max(left, RETRY_PARK_NANOS / 10);
	}

	/**
	 * Once a maintenance interval, whether the filler woke for demand or on its schedule: replaces the ring's IDs when
	 * the oldest of them is more than one schedule interval behind the clock, so callers get current times after a
	 * quiet spell, and makes threads drop runs that still hold IDs that old, which would otherwise keep them for as
	 * long as their threads sit idle. An ID the ring held at one maintenance and a thread hands out before the next
	 * is then at most a schedule interval and one maintenance interval old.
	 * @param mayReplace whether a fill may start from here (not while one waits halfway); when not, a stale ring
	 * stays due for the next call
	 */
	private void maintainIfDue(boolean mayReplace) {
		if (this.maintenanceNanos == 0 || System.nanoTime() - this.maintainedNanos < this.maintenanceNanos) {
			return;
		}
		readClock();
		// The smallest ID of the oldest unit still current: every ID below it is stale, whatever its worker and sequence.
		long staleBelow = (this.highestClockUnit - this.staleUnits) << this.timeShift;
		long oldest = this.ring.peek();
		boolean staleRing = oldest != RingBuffer.EMPTY && oldest < staleBelow;
		if (staleRing && !mayReplace) {
			this.ring.expireRunsBelow(staleBelow);
			return;
		}
		this.maintainedNanos = System.nanoTime();
		if (staleRing) {
			replaceStale();
		}
		this.ring.expireRunsBelow(staleBelow);
	}

	/**
	 * Puts current IDs behind the stale ones first and only then drops the stale ones, so that no taker finds the
	 * ring empty meanwhile: a take rejected means the ring was empty, not that it was being refreshed. When the
	 * current unit still needs its high-water mark recorded (a store round trip, or a wait while the store is out of
	 * reach), the stale IDs are dropped at once instead and takers wait for the mark, as they would for any fill.
	 */
	private void replaceStale() {
		if (!this.session.isCovered(this.highestClockUnit)) {
			this.ring.discardAll();
			return;
		}
		this.ring.startReplacement();
		try {
			fill(false, true);
		}
		finally {
			this.ring.completeReplacement();
		}
	}

	/**
	 * Stops for good. IDs left in the ring are still valid when the layout ran out, but are withdrawn when the
	 * lease was lost, and the ring sealed, so issue stops at once, even if a fill is under way. The first reason stays:
	 * a lost lease is told by the generator (with what it does about it) before the keeper records the loss that a
	 * fill waiting for the mark then throws with the assigner's words alone.
	 */
	private void stop(UidException reason, boolean withdraw) {
		if (this.failure == null) {
			this.failure = reason;
		}
		if (withdraw) {
			this.ring.seal();
		}
	}

	/** The lease was lost: stop at once, from the keeper's thread. */
	void leaseLost(UidException reason) {
		stop(reason, true);
		LockSupport.unpark(this.thread);
	}

	/**
	 * Stops the filler thread and withdraws the IDs left in the ring.
	 * @param workerId the worker, for the message callers get afterwards
	 * @return the latest unit put into the ring
	 */
	long close(long workerId) {
		this.closed = true;
		if (this.failure == null) {
			this.failure = new UidUnavailableException("The generator of worker " + workerId + " is closed");
		}
		LockSupport.unpark(this.thread);
		try {
			this.thread.join(TimeUnit.SECONDS.toMillis(5));
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		this.ring.seal();
		return this.latestUnit;
	}

	long latestUnit() {
		return this.latestUnit;
	}

	long clockBackwardsCount() {
		return this.clockBackwardsCount.get();
	}

	long fillErrors() {
		return this.fillErrors.get();
	}

	boolean isAlive() {
		return this.thread.isAlive();
	}

}
