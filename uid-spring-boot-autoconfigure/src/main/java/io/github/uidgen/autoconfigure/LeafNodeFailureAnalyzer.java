package io.github.uidgen.autoconfigure;

import io.github.uidgen.worker.zookeeper.LeafNodeException;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.env.Environment;

/**
 * Explains a Leaf snowflake node that uid could not continue at start-up; the exception names the node and what to
 * do, and the analysis adds the property that chose the node.
 */
class LeafNodeFailureAnalyzer extends UidFailureAnalyzer<LeafNodeException> {

	private static final String PREFIX = "uid.worker.zookeeper.leaf.";

	private final Environment environment;

	LeafNodeFailureAnalyzer(Environment environment) {
		this.environment = environment;
	}

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, LeafNodeException cause) {
		String property;
		Object value;
		if ("port".equals(cause.getSetting())) {
			property = PREFIX + "port";
			value = cause.getValue();
		}
		else if ("ip".equals(cause.getSetting())) {
			property = PREFIX + "ip";
			value = cause.getValue();
		}
		else {
			property = PREFIX + "name";
			value = (cause.getValue() != null) ? cause.getValue()
					: (this.environment != null) ? this.environment.getProperty(PREFIX + "name") : null;
		}
		String action = "leafName".equals(cause.getSetting())
				? "Set " + PREFIX + "name to the leaf.name of the Leaf servers (and uid.worker.zookeeper.connect-string "
						+ "to their ZooKeeper), or set uid.worker.zookeeper.mode to lease."
				: "Fix the Leaf node " + cause.getPath() + " as the message says, or run this instance with the "
						+ "ip:port (" + PREFIX + "ip, " + PREFIX + "port) of the Leaf server it replaces.";
		return new FailureAnalysis(describe(cause.getMessage(), property, (value != null) ? value.toString() : null),
				action, cause);
	}

}
