package io.github.uidgen.snowflake;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import io.github.uidgen.worker.FixedWorkerIdAssigner;
import io.github.uidgen.worker.WorkerAssignment;
import io.github.uidgen.worker.WorkerIdAssigner;

/**
 * A fixed worker ID that remembers what the generator recorded: the highest mark, when the last renewal reached it
 * (the keeper read its clock no later, before sending), how many renewals came and the final mark.
 */
final class RecordingAssigner implements WorkerIdAssigner {

	private final FixedWorkerIdAssigner delegate;

	private final Duration leaseHold;

	private final Duration renewInterval;

	final AtomicLong recorded = new AtomicLong(Long.MIN_VALUE);

	final AtomicLong leaseSentMillis = new AtomicLong(Long.MIN_VALUE);

	final AtomicLong renewals = new AtomicLong();

	final AtomicLong released = new AtomicLong(Long.MIN_VALUE);

	/** Without a lease: the generator issues only within the recorded mark. */
	RecordingAssigner(long workerId) {
		this(workerId, Duration.ZERO, Duration.ZERO);
	}

	/** With a lease the generator may issue on, renewed at the given interval. */
	RecordingAssigner(long workerId, Duration leaseHold, Duration renewInterval) {
		this.delegate = new FixedWorkerIdAssigner(workerId);
		this.leaseHold = leaseHold;
		this.renewInterval = renewInterval;
	}

	@Override
	public WorkerAssignment assign(long maxWorkerId) {
		return this.delegate.assign(maxWorkerId);
	}

	@Override
	public void renew(long workerId, long highWaterMarkMillis) {
		long now = System.currentTimeMillis();
		this.delegate.renew(workerId, highWaterMarkMillis);
		this.recorded.accumulateAndGet(highWaterMarkMillis, Math::max);
		this.leaseSentMillis.accumulateAndGet(now, Math::max);
		this.renewals.incrementAndGet();
	}

	@Override
	public void release(long workerId, long highWaterMarkMillis) {
		this.released.set(highWaterMarkMillis);
	}

	@Override
	public Duration renewInterval() {
		return this.renewInterval;
	}

	@Override
	public Duration leaseHold() {
		return this.leaseHold;
	}

	@Override
	public String name() {
		return "recording";
	}

}
