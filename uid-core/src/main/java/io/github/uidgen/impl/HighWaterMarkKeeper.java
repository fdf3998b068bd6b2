package io.github.uidgen.impl;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

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
 */
final class HighWaterMarkKeeper {

	private static final Logger logger = LoggerFactory.getLogger(HighWaterMarkKeeper.class);

	private static final long REVOKED = Long.MIN_VALUE;

	private static final long RETRY_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

	private final WorkerIdAssigner assigner;

	private final long workerId;

	private final UidLayout layout;

	private final UidClock clock;

	private final long spanUnits;

	private final long renewIntervalNanos;

	private final long awaitTimeoutNanos;

	private final Runnable onRevoked;

	private final Thread thread;

	private volatile long reservedUntil;

	private volatile long refreshAt;

	private final AtomicLong wanted = new AtomicLong();

	private volatile boolean requested;

	private volatile boolean closed;

	private volatile UidException failure;

	private long lastRenewNanos;

	/**
	 * Records the first reservation on the calling thread (so start-up fails fast when the store is down), then
	 * starts the keeper thread.
	 */
	HighWaterMarkKeeper(WorkerIdAssigner assigner, long workerId, UidLayout layout, UidClock clock, long firstUnit,
			Duration span, Duration awaitTimeout, Runnable onRevoked) {
		this.assigner = assigner;
		this.workerId = workerId;
		this.layout = layout;
		this.clock = clock;
		this.spanUnits = Math.max(1, span.toMillis() / layout.getTimeUnit().toMillis());
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
		UidException initialFailure = this.failure;
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
	 * Returns the unit beyond which the generator should ask for a longer reservation.
	 * @return a unit at most {@link #reservedUntil()}
	 */
	long refreshAt() {
		return this.refreshAt;
	}

	/**
	 * Returns why no reservation can be had, if that is so.
	 * @return the failure, or {@code null}
	 */
	UidException failure() {
		return this.failure;
	}

	/**
	 * Makes sure a unit is reserved: asks the keeper thread for it, and waits for it when it lies beyond the
	 * current reservation. Called off the hot path, once a time unit at most.
	 * @param unit the unit about to be issued
	 * @throws UidException when the lease was lost, the generator closed, or the mark could not be recorded in
	 * time
	 */
	void cover(long unit) {
		if (unit <= this.refreshAt) {
			// Well inside the reservation: nothing to ask for (waking the keeper costs a system call).
			return;
		}
		request(unit);
		if (unit <= this.reservedUntil) {
			return;
		}
		long deadline = System.nanoTime() + this.awaitTimeoutNanos;
		while (unit > this.reservedUntil) {
			UidException current = this.failure;
			if (this.closed || (current instanceof WorkerLeaseLostException)) {
				throw (current != null) ? current : closedException();
			}
			long left = deadline - System.nanoTime();
			if (left <= 0) {
				throw new UidUnavailableException("Could not record the high-water mark of worker " + this.workerId
						+ " within " + TimeUnit.NANOSECONDS.toMillis(this.awaitTimeoutNanos) + " ms"
						+ ((current != null) ? ": " + current.getMessage() : ""), current);
			}
			LockSupport.parkNanos(Math.min(left, TimeUnit.MILLISECONDS.toNanos(1)));
			request(unit);
		}
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
		this.lastRenewNanos = System.nanoTime();
		while (!this.closed) {
			if (!this.requested) {
				LockSupport.parkNanos(this, this.renewIntervalNanos);
			}
			if (this.closed) {
				return;
			}
			boolean due = System.nanoTime() - this.lastRenewNanos >= this.renewIntervalNanos;
			if (due || this.requested) {
				this.requested = false;
				extend();
				if (this.failure != null && !this.closed && !(this.failure instanceof WorkerLeaseLostException)) {
					LockSupport.parkNanos(this, RETRY_NANOS);
				}
			}
			if (this.failure instanceof WorkerLeaseLostException) {
				return;
			}
		}
	}

	/** Records a mark a span past the unit wanted (or the clock, when that is later). */
	private void extend() {
		long nowUnit = this.layout.toUnit(this.clock.currentTimeMillis());
		long base = Math.max(this.wanted.get(), nowUnit);
		long mark = Math.max(this.reservedUntil, Math.min(base + this.spanUnits, this.layout.getMaxTime()));
		try {
			this.assigner.renew(this.workerId, this.layout.startMillis(mark));
			this.lastRenewNanos = System.nanoTime();
			if (this.closed) {
				return;
			}
			this.reservedUntil = mark;
			this.refreshAt = mark - this.spanUnits / 2;
			this.failure = null;
		}
		catch (WorkerLeaseLostException ex) {
			logger.error("uid worker {} stops issuing IDs: {}", this.workerId, ex.getMessage());
			this.failure = ex;
			this.reservedUntil = REVOKED;
			this.refreshAt = REVOKED;
			this.onRevoked.run();
		}
		catch (RuntimeException ex) {
			if (this.failure == null) {
				logger.warn("uid worker {} could not record its high-water mark, retrying: {}", this.workerId,
						ex.toString());
			}
			this.failure = (ex instanceof UidException uidException) ? uidException
					: new UidUnavailableException("Recording the high-water mark failed: " + ex, ex);
		}
	}

	/**
	 * Returns whether the lease was lost.
	 * @return whether the reservation was revoked
	 */
	boolean isRevoked() {
		return this.failure instanceof WorkerLeaseLostException;
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
			try {
				this.assigner.release(this.workerId, this.layout.startMillis(finalUnit));
			}
			catch (RuntimeException ex) {
				logger.warn("uid worker {} could not release its worker ID: {}", this.workerId, ex.toString());
			}
		}
	}

	/**
	 * Stops the keeper thread without releasing the worker ID or recording anything more: the first half of
	 * {@link #close(long)}, and on its own what a killed process does (for crash tests).
	 */
	void halt() {
		this.closed = true;
		this.reservedUntil = REVOKED;
		this.refreshAt = REVOKED;
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
