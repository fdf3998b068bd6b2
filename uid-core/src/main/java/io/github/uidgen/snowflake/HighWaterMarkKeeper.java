package io.github.uidgen.snowflake;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

import io.github.uidgen.UidClock;
import io.github.uidgen.UidException;
import io.github.uidgen.UidLayout;
import io.github.uidgen.UidUnavailableException;
import io.github.uidgen.worker.WorkerIdAssigner;
import io.github.uidgen.worker.WorkerLeaseLostException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the worker's stored high-water mark ahead of every ID the generator issues, from a background thread.
 *
 * <p>The generator may issue IDs up to {@link #reservedUntil()} (a time unit) and asks for more before it gets
 * there, so the mark is recorded <em>before</em> issue and a crash never loses it. Each reservation reaches a
 * span past the unit asked for, so the store is written once per span, not per ID. The same thread renews the
 * assigner's lease; a lost lease revokes the reservation and the generator stops.
 *
 * <p>Whatever a renewal throws, {@link Error}s included, is recorded as the failure and retried, so the thread never
 * dies silently. A store call that does not come back is reported too: once it has been outstanding for a whole
 * reservation span, or as soon as issue had to give up waiting for it, {@link #failure()} says since when the mark
 * has not been recorded and for how long the call has been outstanding.
 */
final class HighWaterMarkKeeper {

	private static final Logger logger = LoggerFactory.getLogger(HighWaterMarkKeeper.class);

	private static final long REVOKED = Long.MIN_VALUE;

	private static final long RETRY_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

	/** A renewal older than this many intervals means the process was paused or the store is out of reach. */
	private static final int OVERDUE_INTERVALS = 2;

	private final MarkRecorder recorder;

	private final long workerId;

	private final UidLayout layout;

	private final UidClock clock;

	private final long spanUnits;

	private final long spanNanos;

	private final long renewIntervalNanos;

	private final long awaitTimeoutNanos;

	private final Consumer<WorkerLeaseLostException> onRevoked;

	private final Thread thread;

	private volatile long reservedUntil;

	/** The last unit reserved before the lease was lost or the keeper closed: nothing was issued past it. */
	private volatile long lastReserved = Long.MIN_VALUE;

	private volatile long refreshAt;

	private final AtomicLong wanted = new AtomicLong();

	private volatile boolean requested;

	private volatile boolean closed;

	/** Set once the generator issues on another worker: the mark stays as it is and the lease is kept until then. */
	private volatile boolean retired;

	/** Set when issue gave up waiting for the mark, so health reports it at once; cleared by a renewal. */
	private volatile UidException issueStalled;

	/** {@link System#nanoTime()} of the last successful renewal. */
	private volatile long lastRenewNanos;

	/** How many renewals have been started; each one's number, so a waiter can tell one begun after it asked. */
	private volatile long renewalsStarted;

	/** The number of the last renewal that succeeded. */
	private volatile long lastRenewalSucceeded;

	/**
	 * Records the first reservation on the calling thread (so start-up fails fast when the store is down), then
	 * starts the keeper thread.
	 */
	HighWaterMarkKeeper(WorkerIdAssigner assigner, long workerId, UidLayout layout, UidClock clock, long firstUnit,
			Duration span, Duration awaitTimeout, Consumer<WorkerLeaseLostException> onRevoked) {
		this.recorder = new MarkRecorder(assigner, workerId, layout, clock);
		this.workerId = workerId;
		this.layout = layout;
		this.clock = clock;
		this.spanUnits = Math.max(1, span.toMillis() / layout.getTimeUnit().toMillis());
		this.spanNanos = span.toNanos();
		Duration renew = assigner.renewInterval();
		long halfSpanNanos = TimeUnit.MILLISECONDS.toNanos(Math.max(1, span.toMillis() / 2));
		this.renewIntervalNanos = (renew.isZero() || renew.isNegative()) ? halfSpanNanos
				: Math.min(renew.toNanos(), halfSpanNanos);
		this.awaitTimeoutNanos = awaitTimeout.toNanos();
		this.onRevoked = onRevoked;
		this.reservedUntil = firstUnit - 1;
		this.refreshAt = firstUnit - 1;
		this.wanted.set(firstUnit);
		extend();
		UidException initialFailure = this.recorder.failure();
		if (initialFailure != null) {
			throw initialFailure;
		}
		this.thread = new Thread(this::run, "uid-mark-keeper-worker-" + workerId);
		this.thread.setDaemon(true);
		this.thread.start();
	}

	/**
	 * Returns the highest time unit the generator may issue IDs in.
	 * @return the reserved unit, {@link Long#MIN_VALUE} once revoked or closed
	 */
	long reservedUntil() {
		return this.reservedUntil;
	}

	/**
	 * Returns the highest unit the generator may have issued IDs in: the reservation, or the one it had when the lease
	 * was lost.
	 * @return a unit, {@link Long#MIN_VALUE} when nothing was ever reserved
	 */
	long lastReserved() {
		long reserved = this.reservedUntil;
		return (reserved != REVOKED) ? reserved : this.lastReserved;
	}

	/**
	 * Returns the unit beyond which the generator should ask for a longer reservation.
	 * @return a unit at most {@link #reservedUntil()}
	 */
	long refreshAt() {
		return this.refreshAt;
	}

	/**
	 * Returns why the mark cannot be kept ahead of issue, if that is so: the lease was lost, issue gave up waiting for
	 * the mark, a store call has been outstanding for longer than a reservation span, or renewals fail and less than
	 * a quarter of the reservation is left. A renewal that failed while most of the reservation is left costs issue
	 * nothing (a store restarting, a Cluster slot moving): it is retried and counted, and not reported, so that a
	 * health check, and a load balancer reading it, only see what stops issue.
	 * @return the failure, or {@code null}
	 */
	UidException failure() {
		UidException current = this.recorder.failure();
		if (current instanceof WorkerLeaseLostException) {
			return current;
		}
		UidException stalled = this.issueStalled;
		if (stalled != null) {
			return stalled;
		}
		if (this.recorder.isCallOutstandingLongerThan(this.spanNanos)) {
			return new UidUnavailableException("The high-water mark of worker " + this.workerId + " is not being "
					+ "recorded: " + this.recorder.status(), current);
		}
		return (current != null && isReservationRunningOut()) ? current : null;
	}

	/** Whether the clock, or what the generator asked for, has come within a quarter span of the reservation's end. */
	private boolean isReservationRunningOut() {
		long reserved = this.reservedUntil;
		if (reserved == REVOKED) {
			return true;
		}
		long soon = Math.max(this.layout.toUnit(this.clock.currentTimeMillis()), this.wanted.get()) + this.spanUnits / 4;
		return soon > reserved;
	}

	/**
	 * Makes sure a unit is reserved: asks the keeper thread for it, and waits for it when it lies beyond the
	 * current reservation. Called off the hot path, once a time unit at most.
	 * @param unit the unit about to be issued
	 * @throws UidException when the lease was lost, the generator closed, the mark could not be recorded in time, or
	 * the caller was interrupted (its interrupt flag stays set)
	 */
	void cover(long unit) {
		if (unit <= this.refreshAt) {
			// Well inside the reservation: nothing to ask for (waking the keeper costs a system call).
			return;
		}
		if (this.retired) {
			// The generator moved its state to another worker before retiring this one, so the caller's
			// compare-and-set fails and it tries again on the other worker.
			return;
		}
		request(unit);
		if (unit <= this.reservedUntil) {
			return;
		}
		long deadline = System.nanoTime() + this.awaitTimeoutNanos;
		while (unit > this.reservedUntil) {
			UidException current = this.recorder.failure();
			if (this.closed || (current instanceof WorkerLeaseLostException)) {
				throw (current != null) ? current : closedException();
			}
			if (this.retired) {
				return;
			}
			long left = deadline - System.nanoTime();
			if (left <= 0) {
				UidUnavailableException stalled = new UidUnavailableException("Could not record the high-water mark "
						+ "of worker " + this.workerId + " within " + TimeUnit.NANOSECONDS.toMillis(this.awaitTimeoutNanos)
						+ " ms: " + this.recorder.status(), current);
				this.issueStalled = stalled;
				throw stalled;
			}
			awaitBriefly(left);
			request(unit);
		}
	}

	/**
	 * Returns whether the last successful renewal is older than a couple of renewal intervals: the process was
	 * paused (a stopped or frozen JVM, a long GC) or the store has been out of reach, so the lease may have been
	 * lost without this process knowing yet.
	 * @return whether the lease should be confirmed before more IDs are handed out
	 */
	boolean isRenewalOverdue() {
		return System.nanoTime() - this.lastRenewNanos > OVERDUE_INTERVALS * this.renewIntervalNanos;
	}

	/**
	 * Asks for a renewal and waits until one that started after this call succeeds, so a resumed process learns
	 * whether it still holds its worker ID before it hands out more IDs.
	 * @throws UidException when the lease was lost, the generator closed, no renewal succeeded within the mark
	 * timeout, or the caller was interrupted
	 */
	void confirmLease() {
		long after = this.renewalsStarted;
		long deadline = System.nanoTime() + this.awaitTimeoutNanos;
		this.requested = true;
		LockSupport.unpark(this.thread);
		// A renewal already under way started before this call and proves nothing: wait for a later one.
		while (this.lastRenewalSucceeded <= after) {
			UidException current = this.recorder.failure();
			if (this.closed || (current instanceof WorkerLeaseLostException)) {
				throw (current != null) ? current : closedException();
			}
			long left = deadline - System.nanoTime();
			if (left <= 0) {
				throw new UidUnavailableException("Could not confirm the lease of worker " + this.workerId + " within "
						+ TimeUnit.NANOSECONDS.toMillis(this.awaitTimeoutNanos) + " ms after a pause: "
						+ this.recorder.status(), current);
			}
			awaitBriefly(left);
			if (!this.requested) {
				this.requested = true;
				LockSupport.unpark(this.thread);
			}
		}
	}

	private void awaitBriefly(long leftNanos) {
		if (Thread.currentThread().isInterrupted()) {
			throw new UidUnavailableException("Interrupted while waiting for the high-water mark of worker "
					+ this.workerId + " to be recorded");
		}
		LockSupport.parkNanos(Math.min(leftNanos, TimeUnit.MILLISECONDS.toNanos(1)));
	}

	private void request(long unit) {
		if (unit > this.wanted.get()) {
			this.wanted.accumulateAndGet(unit, Math::max);
		}
		if (!this.requested) {
			this.requested = true;
			LockSupport.unpark(this.thread);
		}
	}

	private void run() {
		while (!this.closed) {
			try {
				if (!this.requested) {
					LockSupport.parkNanos(this, this.renewIntervalNanos);
				}
				if (this.closed) {
					return;
				}
				if (this.retired && this.layout.toUnit(this.clock.currentTimeMillis()) > this.reservedUntil) {
					releaseRetired();
					return;
				}
				boolean due = System.nanoTime() - this.lastRenewNanos >= this.renewIntervalNanos;
				if (due || this.requested) {
					this.requested = false;
					extend();
					if (this.recorder.failure() != null && !this.closed && !isRevoked()) {
						LockSupport.parkNanos(this, RETRY_NANOS);
					}
				}
				if (isRevoked()) {
					return;
				}
			}
			catch (Throwable ex) {
				// extend() records every failure itself; this only keeps the thread alive whatever happens.
				this.recorder.recordFailure(ex);
				LockSupport.parkNanos(this, RETRY_NANOS);
			}
		}
	}

	/** Records a mark a span past the unit wanted (or the clock, when that is later). */
	private void extend() {
		long nowUnit = this.layout.toUnit(this.clock.currentTimeMillis());
		long base = Math.max(this.wanted.get(), nowUnit);
		// A retired worker only keeps its lease: its mark must stay put for the clock to pass it.
		long mark = this.retired ? this.reservedUntil
				: Math.max(this.reservedUntil, Math.min(base + this.spanUnits, this.layout.getMaxTime()));
		long renewal = this.renewalsStarted + 1;
		this.renewalsStarted = renewal;
		try {
			this.recorder.renew(mark);
		}
		catch (WorkerLeaseLostException ex) {
			if (this.retired) {
				// Nothing is issued on it any more, and whoever took it starts after its mark.
				logger.warn("uid worker {}, kept until the clock passes its mark, lost its lease: {}", this.workerId,
						ex.getMessage());
				this.recorder.leaseLost(ex);
				return;
			}
			logger.error("uid worker {} stops issuing IDs: {}", this.workerId, ex.getMessage());
			this.lastReserved = this.reservedUntil;
			this.reservedUntil = REVOKED;
			this.refreshAt = REVOKED;
			// The generator stops first (the cached one seals its ring), so that whoever sees the failure also sees
			// issue stopped.
			this.onRevoked.accept(ex);
			this.recorder.leaseLost(ex);
			return;
		}
		catch (Throwable ex) {
			this.recorder.recordFailure(ex);
			return;
		}
		this.lastRenewNanos = System.nanoTime();
		if (this.closed) {
			return;
		}
		this.reservedUntil = mark;
		this.refreshAt = mark - this.spanUnits / 2;
		this.recorder.clearFailure();
		this.issueStalled = null;
		this.lastRenewalSucceeded = renewal;
	}

	/**
	 * Returns how many times recording the mark failed and was retried.
	 * @return the count
	 */
	long failedRenewals() {
		return this.recorder.failedRenewals();
	}

	/**
	 * Returns whether the lease was lost.
	 * @return whether the reservation was revoked
	 */
	boolean isRevoked() {
		return this.recorder.failure() instanceof WorkerLeaseLostException;
	}

	/**
	 * Keeps the lease but no longer moves the mark, and releases the worker ID from the keeper thread once the clock
	 * has passed the mark: the generator issues on another worker now. Call it only after the generator's state has
	 * moved to that worker, so whoever still asks this keeper to cover a unit fails its compare-and-set.
	 */
	void retire() {
		this.retired = true;
		LockSupport.unpark(this.thread);
	}

	/**
	 * Returns whether the worker was retired.
	 * @return whether {@link #retire()} was called
	 */
	boolean isRetired() {
		return this.retired;
	}

	/** Releases a retired worker from the keeper thread itself, with the mark it kept. */
	private void releaseRetired() {
		long mark = this.reservedUntil;
		stopReserving();
		if (isRevoked()) {
			return;
		}
		if (this.recorder.release(mark)) {
			logger.info("uid worker {} released: the clock has passed its mark", this.workerId);
		}
	}

	/** Stops for good: nothing is reserved from now on, and the last reservation is kept for the final mark. */
	private void stopReserving() {
		this.closed = true;
		if (this.reservedUntil != REVOKED) {
			this.lastReserved = this.reservedUntil;
		}
		this.reservedUntil = REVOKED;
		this.refreshAt = REVOKED;
	}

	/**
	 * Returns whether the keeper has stopped: closed, halted, or a retired worker released.
	 * @return whether it no longer keeps anything
	 */
	boolean isClosed() {
		return this.closed;
	}

	/**
	 * Stops the keeper thread and releases the worker ID with its final mark.
	 * @param finalUnit the highest unit the generator issued in
	 */
	void close(long finalUnit) {
		if (this.closed) {
			return;
		}
		halt();
		if (!isRevoked()) {
			this.recorder.release(finalUnit);
		}
	}

	/**
	 * Stops the keeper thread without releasing the worker ID or recording anything more: the first half of
	 * {@link #close(long)}, and on its own what a killed process does (for crash tests).
	 */
	void halt() {
		stopReserving();
		LockSupport.unpark(this.thread);
		try {
			this.thread.join(TimeUnit.SECONDS.toMillis(5));
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private UidUnavailableException closedException() {
		return new UidUnavailableException("The generator of worker " + this.workerId + " is closed");
	}

}
