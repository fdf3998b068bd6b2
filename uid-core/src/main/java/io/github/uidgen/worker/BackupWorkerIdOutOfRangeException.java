package io.github.uidgen.worker;

/**
 * Thrown when one of the static assigner's backup worker IDs does not fit the layout's worker bits, so that the
 * report names the backup IDs rather than the worker ID.
 */
public class BackupWorkerIdOutOfRangeException extends WorkerIdOutOfRangeException {

	private static final long serialVersionUID = 1L;

	/**
	 * Creates the exception.
	 * @param backupId the backup worker ID that does not fit
	 * @param maxWorkerId the layout's largest worker ID
	 */
	public BackupWorkerIdOutOfRangeException(long backupId, long maxWorkerId) {
		super("Backup worker ID " + backupId + " does not fit the layout, which holds worker IDs 0 to " + maxWorkerId
				+ " (" + (maxWorkerId + 1) + " workers); configure backup worker IDs from 0 to " + maxWorkerId
				+ ", or give the layout more worker bits", backupId, maxWorkerId);
	}

}
