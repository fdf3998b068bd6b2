package io.github.uidgen.worker;

import io.github.uidgen.UidException;

/**
 * Thrown when a worker ID does not fit the layout's worker bits.
 */
public class WorkerIdOutOfRangeException extends UidException {

	private static final long serialVersionUID = 1L;

	private final long workerId;

	private final long maxWorkerId;

	public WorkerIdOutOfRangeException(long workerId, long maxWorkerId, String fix) {
		super("Worker ID " + workerId + " does not fit the layout, which holds worker IDs 0 to " + maxWorkerId + " ("
				+ (maxWorkerId + 1) + " workers); " + fix);
		this.workerId = workerId;
		this.maxWorkerId = maxWorkerId;
	}

	/**
	 * Creates the exception with a message of a subclass's own.
	 * @param message the whole message
	 * @param workerId the worker ID that does not fit
	 * @param maxWorkerId the layout's largest worker ID
	 */
	protected WorkerIdOutOfRangeException(String message, long workerId, long maxWorkerId) {
		super(message);
		this.workerId = workerId;
		this.maxWorkerId = maxWorkerId;
	}

	public long getWorkerId() {
		return this.workerId;
	}

	public long getMaxWorkerId() {
		return this.maxWorkerId;
	}

}
