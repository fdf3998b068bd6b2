package io.github.uidgen.autoconfigure;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.uidgen.worker.WorkerAssignment;
import io.github.uidgen.worker.WorkerIdAssigner;
import io.github.uidgen.worker.WorkerLeaseLostException;

/**
 * A worker-ID assigner for tests of what follows a lost lease: it leases worker 1, then 2, 3, … one per claim, renews
 * every 20 ms, and once told, the renewal of worker 1 finds its lease gone.
 */
public final class LeaseLosingAssigner implements WorkerIdAssigner {

	private final AtomicInteger claims = new AtomicInteger();

	private volatile boolean losing;

	/** From now on, the next renewal of worker 1 finds its lease taken. */
	public void loseWorkerOne() {
		this.losing = true;
	}

	/**
	 * Returns how many worker IDs were claimed.
	 * @return the count
	 */
	public int claims() {
		return this.claims.get();
	}

	/** Starts over: the next claim is worker 1 again, and its lease is kept. */
	public void reset() {
		this.claims.set(0);
		this.losing = false;
	}

	@Override
	public WorkerAssignment assign(long maxWorkerId) {
		return WorkerAssignment.fresh(this.claims.incrementAndGet());
	}

	@Override
	public void renew(long workerId, long highWaterMarkMillis) {
		if (this.losing && workerId == 1) {
			throw new WorkerLeaseLostException(workerId, "taken in the test");
		}
	}

	@Override
	public void release(long workerId, long highWaterMarkMillis) {
	}

	@Override
	public Duration renewInterval() {
		return Duration.ofMillis(20);
	}

	@Override
	public String name() {
		return "losing-once";
	}

}
