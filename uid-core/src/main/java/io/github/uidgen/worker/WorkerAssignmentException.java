package io.github.uidgen.worker;

import io.github.uidgen.UidException;

/**
 * Thrown when an assigner cannot claim a worker ID or read or write its state (store unreachable, table
 * missing, state file unreadable); the message says what to fix.
 */
public class WorkerAssignmentException extends UidException {

	private static final long serialVersionUID = 1L;

	public WorkerAssignmentException(String message) {
		super(message);
	}

	public WorkerAssignmentException(String message, Throwable cause) {
		super(message, cause);
	}

}
