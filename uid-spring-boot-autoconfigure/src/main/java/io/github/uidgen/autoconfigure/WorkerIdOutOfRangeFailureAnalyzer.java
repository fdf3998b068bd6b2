package io.github.uidgen.autoconfigure;

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
		if ("static".equals(assigner)) {
			return new FailureAnalysis(
					describe("uid.worker.id " + cause.getWorkerId() + " does not fit the layout, whose uid.worker-bits "
							+ "hold worker IDs " + range + ".", "uid.worker.id", String.valueOf(cause.getWorkerId())),
					"Set uid.worker.id to a worker ID from " + range + ", or raise uid.worker-bits (taking the bits "
							+ "from uid.seq-bits or uid.time-bits).",
					cause);
		}
		String description = describe("The " + ((assigner != null) ? assigner : "configured")
				+ " worker-ID assigner handed out worker ID " + cause.getWorkerId()
				+ ", which does not fit the layout: uid.worker-bits hold worker IDs " + range + ".", "uid.worker-bits",
				(this.environment != null) ? this.environment.getProperty("uid.worker-bits", "10") : null);
		String action = "db".equals(assigner)
				? "Set uid.worker.db.mode to lease, which reuses the worker IDs of stopped instances, or raise "
						+ "uid.worker-bits."
				: "Raise uid.worker-bits, or free worker IDs in the assigner's store.";
		return new FailureAnalysis(description, action, cause);
	}

}
