package io.github.uidgen.worker;

import java.time.Instant;

/**
 * A claimed worker ID and the latest time it may already have issued IDs for.
 *
 * @param workerId the worker ID
 * @param highWaterMarkMillis the high-water mark in wall-clock milliseconds, {@link #NO_MARK} for a worker ID
 * that never issued anything
 */
public record WorkerAssignment(long workerId, long highWaterMarkMillis) {

	/** The mark of a worker ID that has never issued an ID. */
	public static final long NO_MARK = Long.MIN_VALUE;

	/**
	 * Creates an assignment for a worker ID that has never issued an ID.
	 * @param workerId the worker ID
	 * @return the assignment
	 */
	public static WorkerAssignment fresh(long workerId) {
		return new WorkerAssignment(workerId, NO_MARK);
	}

	/**
	 * Returns whether the worker ID issued IDs before.
	 * @return whether there is a mark
	 */
	public boolean hasMark() {
		return this.highWaterMarkMillis != NO_MARK;
	}

	@Override
	public String toString() {
		return "worker " + this.workerId + (hasMark() ? ", mark " + Instant.ofEpochMilli(this.highWaterMarkMillis)
				: ", no mark");
	}

}
