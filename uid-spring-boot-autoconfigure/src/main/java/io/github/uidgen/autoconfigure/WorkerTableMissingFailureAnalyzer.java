package io.github.uidgen.autoconfigure;

import io.github.uidgen.worker.WorkerTableMissingException;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.env.Environment;

/**
 * Explains a db worker-ID assigner whose table does not exist, with the DDL that creates it.
 */
class WorkerTableMissingFailureAnalyzer extends UidFailureAnalyzer<WorkerTableMissingException> {

	private final Environment environment;

	WorkerTableMissingFailureAnalyzer(Environment environment) {
		this.environment = environment;
	}

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, WorkerTableMissingException cause) {
		String mode = (this.environment != null) ? this.environment.getProperty("uid.worker.db.mode", "lease") : "lease";
		String property = "disposable".equalsIgnoreCase(mode.strip()) ? "uid.worker.db.worker-node-table"
				: "uid.worker.db.lease-table";
		String description = describe("The table " + cause.getTable()
				+ " that hands out uid worker IDs does not exist in the application's database.", property,
				cause.getTable());
		String action = "Create the table with:\n\n" + cause.getDdl() + "\n\nor set uid.worker.db.initialize-schema=true "
				+ "to have it created at start, or point " + property + " at the existing table.";
		return new FailureAnalysis(description, action, cause);
	}

}
