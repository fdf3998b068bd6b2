package io.github.uidgen.worker;

/**
 * Thrown when the store behind an assigner (database, Redis) cannot be reached; the instance cannot prove which
 * worker ID is free, so it does not guess.
 */
public class WorkerStoreUnavailableException extends WorkerAssignmentException {

	private static final long serialVersionUID = 1L;

	public WorkerStoreUnavailableException(String message, Throwable cause) {
		super(message, cause);
	}

}
