package io.github.uidgen.snowflake;

import java.time.Duration;
import java.util.Optional;
import java.util.function.BooleanSupplier;

import io.github.uidgen.UidLayout;
import io.github.uidgen.worker.WorkerAssignment;
import io.github.uidgen.worker.WorkerIdAssigner;

/**
 * A holder's assigner whose renewals, once {@link #arm() armed}, wait (within a bound) until a newcomer's claim shows
 * in the store: forces "the newcomer claims before the holder's next renewal" instead of hoping a loaded machine
 * schedules it so. A renewal that finds the claim there already goes ahead at once, on the holder's own schedule.
 */
final class RenewalAfterClaim implements WorkerIdAssigner {

	private static final Duration BOUND = Duration.ofSeconds(5);

	private final WorkerIdAssigner delegate;

	private final BooleanSupplier newcomerClaimed;

	private volatile boolean armed;

	RenewalAfterClaim(WorkerIdAssigner delegate, BooleanSupplier newcomerClaimed) {
		this.delegate = delegate;
		this.newcomerClaimed = newcomerClaimed;
	}

	/** From now on, renewals wait for the newcomer's claim. */
	void arm() {
		this.armed = true;
	}

	@Override
	public void renew(long workerId, long highWaterMarkMillis) {
		if (this.armed) {
			long deadline = System.nanoTime() + BOUND.toNanos();
			while (!this.newcomerClaimed.getAsBoolean() && System.nanoTime() - deadline < 0) {
				try {
					Thread.sleep(1);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
					break;
				}
			}
		}
		this.delegate.renew(workerId, highWaterMarkMillis);
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
	public void recordLayout(UidLayout layout) {
		this.delegate.recordLayout(layout);
	}

	@Override
	public String name() {
		return this.delegate.name();
	}

}
