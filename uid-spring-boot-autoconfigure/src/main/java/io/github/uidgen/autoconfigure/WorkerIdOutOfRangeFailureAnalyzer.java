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
		boolean datacenters = hasDatacenterBits();
		String workerBits = datacenters ? "uid.worker-bits less uid.datacenter-bits" : "uid.worker-bits";
		String moreBits = "raise uid.worker-bits (taking the bits from uid.seq-bits or uid.time-bits)"
				+ (datacenters ? ", keeping uid.datacenter-bits as it is" : "");
		if (cause instanceof BackupWorkerIdOutOfRangeException) {
			String backupIds = (this.environment != null)
					? this.environment.getProperty("uid.worker.static.backup-ids") : null;
			return new FailureAnalysis(
					describe("Backup worker ID " + cause.getWorkerId() + " does not fit the layout, whose "
							+ workerBits + " hold worker IDs " + range + ".", "uid.worker.static.backup-ids",
							(backupIds != null) ? backupIds : String.valueOf(cause.getWorkerId())),
					"Set uid.worker.static.backup-ids to worker IDs from " + range + ", used by no other instance, "
							+ "or " + moreBits + ".",
					cause);
		}
		if ("static".equals(assigner)) {
			return new FailureAnalysis(
					describe("uid.worker.id " + cause.getWorkerId() + " does not fit the layout, whose " + workerBits
							+ " hold worker IDs " + range + ".", "uid.worker.id", String.valueOf(cause.getWorkerId())),
					"Set uid.worker.id to a worker ID from " + range + ", or " + moreBits + ".", cause);
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
			action = Character.toUpperCase(moreBits.charAt(0)) + moreBits.substring(1) + ", or run fewer instances at "
					+ "once: every worker ID the layout holds " + (datacenters ? "for a data center " : "")
					+ "is in use.";
		}
		return new FailureAnalysis(description, action, cause);
	}

	private boolean hasDatacenterBits() {
		String bits = (this.environment != null) ? this.environment.getProperty("uid.datacenter-bits", "0") : "0";
		return !"0".equals(bits.strip());
	}

	private boolean isDisposable() {
		String mode = (this.environment != null) ? this.environment.getProperty("uid.worker.db.mode", "lease")
				: "lease";
		return "disposable".equalsIgnoreCase(mode.strip());
	}

}
