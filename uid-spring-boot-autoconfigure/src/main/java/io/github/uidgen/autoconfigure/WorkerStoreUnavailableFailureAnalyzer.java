package io.github.uidgen.autoconfigure;

import io.github.uidgen.worker.WorkerStoreUnavailableException;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.core.env.Environment;

/**
 * Explains a worker-ID store (database, Redis or ZooKeeper) that could not be reached at start-up.
 */
class WorkerStoreUnavailableFailureAnalyzer extends UidFailureAnalyzer<WorkerStoreUnavailableException> {

	private final Environment environment;

	WorkerStoreUnavailableFailureAnalyzer(Environment environment) {
		this.environment = environment;
	}

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, WorkerStoreUnavailableException cause) {
		String assigner = assigner(this.environment);
		Throwable root = NestedExceptionUtils.getMostSpecificCause(cause);
		String problem = cause.getMessage() + ((root != cause) ? "\n\nCause: " + root : "");
		if ("zookeeper".equals(assigner)) {
			String connectString = (this.environment != null)
					? this.environment.getProperty("uid.worker.zookeeper.connect-string", "localhost:2181")
					: "localhost:2181";
			return new FailureAnalysis(describe(problem, "uid.worker.zookeeper.connect-string", connectString),
					"Check that ZooKeeper is running and reachable at uid.worker.zookeeper.connect-string (or at the "
							+ "connect string of the application's own CuratorFramework bean), or raise "
							+ "uid.worker.zookeeper.connection-timeout, or choose another uid.worker.assigner.",
					cause);
		}
		String description = describe(problem, "uid.worker.assigner", assigner);
		String action;
		if ("redis".equals(assigner)) {
			action = "Check that Redis is running and reachable with spring.data.redis.host and port (or "
					+ "spring.data.redis.url) and the credentials set there, or choose another uid.worker.assigner.";
		}
		else {
			action = "Check that the database is running and reachable with spring.datasource.url, username and "
					+ "password, or choose another uid.worker.assigner.";
		}
		return new FailureAnalysis(description, action, cause);
	}

}
