package io.github.uidgen.worker;

/**
 * A worker ID given in code, with its high-water mark kept in memory only.
 *
 * <p>Suits tests and programs that build a generator once per process and never reuse the worker ID after a
 * restart in less time than the generator borrowed. Anything that restarts on the same worker ID should use
 * {@link StaticWorkerIdAssigner} (mark in a local file) or a lease assigner instead.
 */
public class FixedWorkerIdAssigner implements WorkerIdAssigner {

	private final long workerId;

	private volatile long highWaterMarkMillis = WorkerAssignment.NO_MARK;

	public FixedWorkerIdAssigner(long workerId) {
		if (workerId < 0) {
			throw new WorkerIdOutOfRangeException(workerId, Long.MAX_VALUE, "use a worker ID of 0 or more");
		}
		this.workerId = workerId;
	}

	@Override
	public WorkerAssignment assign(long maxWorkerId) {
		if (this.workerId > maxWorkerId) {
			throw new WorkerIdOutOfRangeException(this.workerId, maxWorkerId,
					"give the layout more worker bits or use a smaller worker ID");
		}
		return new WorkerAssignment(this.workerId, this.highWaterMarkMillis);
	}

	@Override
	public void renew(long workerId, long highWaterMarkMillis) {
		this.highWaterMarkMillis = Math.max(this.highWaterMarkMillis, highWaterMarkMillis);
	}

	@Override
	public void release(long workerId, long highWaterMarkMillis) {
		this.highWaterMarkMillis = highWaterMarkMillis;
	}

	/**
	 * Returns the mark last recorded.
	 * @return wall-clock milliseconds, or {@link WorkerAssignment#NO_MARK}
	 */
	public long highWaterMarkMillis() {
		return this.highWaterMarkMillis;
	}

	@Override
	public String name() {
		return "fixed";
	}

}
