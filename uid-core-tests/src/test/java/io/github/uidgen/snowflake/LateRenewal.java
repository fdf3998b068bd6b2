package io.github.uidgen.snowflake;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import io.github.uidgen.worker.WorkerAssignment;
import io.github.uidgen.worker.WorkerIdAssigner;

/**
 * A holder's assigner whose next renewal, once {@link #arm(Duration) armed}, reaches the store late although the holder
 * runs (as after a GC pause, a TCP retransmission, or a connection queued behind a large reply): it waits for a
 * newcomer's claim to show in the store, then until the given time past when the renewal was due (one renewal
 * interval after the previous one returned), and only then goes ahead. It notes how late the renewal really
 * returned, so a test can tell a run the machine delayed further apart from one that stayed within what it tests.
 */
final class LateRenewal implements WorkerIdAssigner {

	private static final Duration BOUND = Duration.ofSeconds(10);

	private final WorkerIdAssigner delegate;

	private final BooleanSupplier newcomerClaimed;

	private volatile long lastReturnedNanos;

	private volatile long lateNanos = -1;

	private volatile long returnedLateNanos = -1;

	LateRenewal(WorkerIdAssigner delegate, BooleanSupplier newcomerClaimed) {
		this.delegate = delegate;
		this.newcomerClaimed = newcomerClaimed;
	}

	/** The next renewal waits for the newcomer's claim, then until it is this late. */
	void arm(Duration late) {
		this.lateNanos = late.toNanos();
	}

	/** How late the armed renewal returned past when it was due; negative while it has not. */
	Duration returnedLate() {
		return Duration.ofNanos(this.returnedLateNanos);
	}

	@Override
	public void renew(long workerId, long highWaterMarkMillis) {
		long late = this.lateNanos;
		long due = this.lastReturnedNanos + this.delegate.renewInterval().toNanos();
		if (late >= 0) {
			this.lateNanos = -1;
			long deadline = System.nanoTime() + BOUND.toNanos();
			while (!this.newcomerClaimed.getAsBoolean() && System.nanoTime() - deadline < 0) {
				sleep(1);
			}
			long left;
			while ((left = due + late - System.nanoTime()) > 0) {
				sleep(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
			}
		}
		try {
			this.delegate.renew(workerId, highWaterMarkMillis);
		}
		finally {
			long returned = System.nanoTime();
			if (late >= 0) {
				this.returnedLateNanos = returned - due;
			}
			this.lastReturnedNanos = returned;
		}
	}

	private static void sleep(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	@Override
	public WorkerAssignment assign(long maxWorkerId) {
		return this.delegate.assign(maxWorkerId);
	}

	@Override
	public WorkerAssignment assign(long maxWorkerId, Duration maxMarkLead) {
		return this.delegate.assign(maxWorkerId, maxMarkLead);
	}

	@Override
	public Optional<WorkerAssignment> assignBehind(long maxWorkerId, long latestMarkMillis) {
		return this.delegate.assignBehind(maxWorkerId, latestMarkMillis);
	}

	@Override
	public void release(long workerId, long highWaterMarkMillis) {
		this.delegate.release(workerId, highWaterMarkMillis);
	}

	@Override
	public Duration renewInterval() {
		return this.delegate.renewInterval();
	}

	@Override
	public Duration leaseHold() {
		return this.delegate.leaseHold();
	}

	@Override
	public String name() {
		return this.delegate.name();
	}

}
