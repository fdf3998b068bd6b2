package io.github.uidgen.autoconfigure;

import io.github.uidgen.worker.BackupWorkerIdOutOfRangeException;
import io.github.uidgen.worker.WorkerIdOutOfRangeException;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.env.Environment;

/**
 * Explains a worker ID that does not fit the layout's worker bits; the fix depends on where the ID came from.
 */
class WorkerIdOutOfRangeFailureAnalyzer extends UidFailureAnalyzer<WorkerIdOutOfRangeException> {

	private final Environment environment;

	WorkerIdOutOfRangeFailureAnalyzer(Environment environment) {
		this.environment = environment;
	}

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, WorkerIdOutOfRangeException cause) {
		long max = cause.getMaxWorkerId();
		String range = "0 to " + max;
		String assigner = assigner(this.environment);
		if (cause instanceof BackupWorkerIdOutOfRangeException) {
			String backupIds = (this.environment != null)
					? this.environment.getProperty("uid.worker.static.backup-ids") : null;
			return new FailureAnalysis(
					describe("Backup worker ID " + cause.getWorkerId() + " does not fit the layout, whose "
							+ "uid.worker-bits hold worker IDs " + range + ".", "uid.worker.static.backup-ids",
							(backupIds != null) ? backupIds : String.valueOf(cause.getWorkerId())),
					"Set uid.worker.static.backup-ids to worker IDs from " + range + ", used by no other instance, "
							+ "or raise uid.worker-bits (taking the bits from uid.seq-bits or uid.time-bits).",
					cause);
		}
		if ("static".equals(assigner)) {
			return new FailureAnalysis(
					describe("uid.worker.id " + cause.getWorkerId() + " does not fit the layout, whose uid.worker-bits "
							+ "hold worker IDs " + range + ".", "uid.worker.id", String.valueOf(cause.getWorkerId())),
					"Set uid.worker.id to a worker ID from " + range + ", or raise uid.worker-bits (taking the bits "
							+ "from uid.seq-bits or uid.time-bits).",
					cause);
		}
		// The assigner's own message says why: every worker ID leased, or a disposable table used up.
		String description = describe("The " + ((assigner != null) ? assigner + " " : "")
				+ "worker-ID assigner found no worker ID from " + range + " for this instance: " + cause.getMessage(),
				"uid.worker-bits",
				(this.environment != null) ? this.environment.getProperty("uid.worker-bits", "10") : null);
		String action;
		if ("db".equals(assigner) && isDisposable()) {
			action = "Set uid.worker.db.mode to lease, which reuses the worker IDs of stopped instances, or raise "
					+ "uid.worker-bits.";
		}
		else {
			action = "Raise uid.worker-bits (taking the bits from uid.seq-bits or uid.time-bits), or run fewer "
					+ "instances at once: every worker ID the layout holds is in use.";
		}
		return new FailureAnalysis(description, action, cause);
	}

	private boolean isDisposable() {
		String mode = (this.environment != null) ? this.environment.getProperty("uid.worker.db.mode", "lease")
				: "lease";
		return "disposable".equalsIgnoreCase(mode.strip());
	}

}
