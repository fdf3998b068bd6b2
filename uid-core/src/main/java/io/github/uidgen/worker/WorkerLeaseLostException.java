package io.github.uidgen.worker;

import io.github.uidgen.UidException;

/**
 * Thrown when this instance no longer holds its worker ID's lease; the generator stops issuing IDs.
 */
public class WorkerLeaseLostException extends UidException {

	private static final long serialVersionUID = 1L;

	private final long workerId;

	public WorkerLeaseLostException(long workerId, String detail) {
		super("Lost the lease on worker ID " + workerId + " (" + detail + "); no more IDs are issued with it. "
				+ "Restart the instance to claim a worker ID again.");
		this.workerId = workerId;
	}

	public long getWorkerId() {
		return this.workerId;
	}

}
