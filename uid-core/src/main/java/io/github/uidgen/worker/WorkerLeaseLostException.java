package io.github.uidgen.worker;

import io.github.uidgen.UidException;

/**
 * Thrown when this instance no longer holds its worker ID's lease; the generator stops issuing IDs with it. Unless told
 * otherwise, a generator then claims a worker ID again by itself and says so in the exception it throws meanwhile.
 */
public class WorkerLeaseLostException extends UidException {

	private static final long serialVersionUID = 1L;

	private final long workerId;

	private final String detail;

	/**
	 * Creates the exception an assigner throws when a renewal finds the lease gone.
	 * @param workerId the worker ID whose lease was lost
	 * @param detail what happened to it
	 */
	public WorkerLeaseLostException(long workerId, String detail) {
		super("Lost the lease on worker ID " + workerId + " (" + detail + "); no more IDs are issued with it.");
		this.workerId = workerId;
		this.detail = detail;
	}

	/**
	 * Creates the exception a generator throws after a lost lease: what happened, and what the generator does about
	 * it.
	 * @param lost what the assigner reported
	 * @param next what happens next, for example that a worker ID is being claimed again
	 */
	public WorkerLeaseLostException(WorkerLeaseLostException lost, String next) {
		super(lost.getMessage() + " " + next, lost);
		this.workerId = lost.workerId;
		this.detail = lost.detail;
	}

	public long getWorkerId() {
		return this.workerId;
	}

	/**
	 * Returns what happened to the lease, as the assigner said.
	 * @return the detail
	 */
	public String getDetail() {
		return this.detail;
	}

}
