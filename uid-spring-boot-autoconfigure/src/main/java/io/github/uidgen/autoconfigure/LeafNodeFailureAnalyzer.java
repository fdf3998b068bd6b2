package io.github.uidgen.autoconfigure;

import io.github.uidgen.worker.zookeeper.LeafNodeException;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.env.Environment;

/**
 * Explains a Leaf snowflake node that uid could not continue at start-up; the exception names the node and what to
 * do, and the analysis adds the property that chose the node, or, for a node further ahead of the clock than a start
 * waits, the property that bounds that wait.
 */
class LeafNodeFailureAnalyzer extends UidFailureAnalyzer<LeafNodeException> {

	private static final String PREFIX = "uid.worker.zookeeper.leaf.";

	private static final String MAX_STARTUP_WAIT = "uid.mark.max-startup-wait";

	private final Environment environment;

	LeafNodeFailureAnalyzer(Environment environment) {
		this.environment = environment;
	}

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, LeafNodeException cause) {
		if ("maxStartupWait".equals(cause.getSetting())) {
			return aheadOfTheClock(cause);
		}
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

	/**
	 * A node whose timestamp lies further ahead of the clock than a start waits for a mark: the node is Leaf's and
	 * sound, and what refused it is the generator's wait, plus how far the cached generator issues ahead.
	 */
	private FailureAnalysis aheadOfTheClock(LeafNodeException cause) {
		boolean cached = "cached".equalsIgnoreCase(property("uid.generator"));
		String action = "Start again once this host's clock has passed the timestamp of " + cause.getPath()
				+ ", or fix the clock that is wrong; or raise " + MAX_STARTUP_WAIT + " to have a start wait for the "
				+ "clock that long (it waits up to " + MAX_STARTUP_WAIT + (cached ? " plus uid.cached.max-ahead" : "")
				+ ").";
		return new FailureAnalysis(describe(cause.getMessage(), MAX_STARTUP_WAIT, property(MAX_STARTUP_WAIT)), action,
				cause);
	}

	private String property(String name) {
		return (this.environment != null) ? this.environment.getProperty(name) : null;
	}

}
