package io.github.uidgen.autoconfigure;

import io.github.uidgen.InvalidSettingException;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.env.Environment;

/**
 * Explains an {@link InvalidSettingException} of a generator or assigner builder by the {@code uid.*} property
 * that set it.
 */
class InvalidSettingFailureAnalyzer extends UidFailureAnalyzer<InvalidSettingException> {

	private final Environment environment;

	InvalidSettingFailureAnalyzer(Environment environment) {
		this.environment = environment;
	}

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, InvalidSettingException cause) {
		String property = property(cause.getSetting());
		String description = describe("The uid setting " + property + " is refused: " + cause.getMessage(), property,
				cause.getValue());
		return new FailureAnalysis(description, "Change " + property + ": " + cause.getFix() + ".", cause);
	}

	/** Maps a builder setting name to the property that sets it. */
	String property(String setting) {
		return switch (setting) {
			case "boostPower" -> "uid.cached.boost-power";
			case "paddingFactor" -> "uid.cached.padding-factor";
			case "scheduleInterval" -> "uid.cached.schedule-interval";
			case "maxAhead" -> "uid.cached.max-ahead";
			case "takeTimeout" -> "uid.cached.take-timeout";
			case "markReservation" -> "uid.mark.reservation";
			case "markTimeout" -> "uid.mark.timeout";
			case "maxStartupWait" -> "uid.mark.max-startup-wait";
			case "clockBackwardsTolerance" -> "uid.clock-backwards-tolerance";
			case "backupIds" -> "uid.worker.static.backup-ids";
			case "rejectedPutHandler" -> "uid.cached.put-policy";
			case "rejectedTakeHandler" -> "uid.cached.take-policy";
			case "leaseDuration" -> assignerPrefix() + "lease-duration";
			case "heartbeatInterval" -> assignerPrefix() + "heartbeat-interval";
			case "leaseTable" -> "uid.worker.db.lease-table";
			case "workerNodeTable" -> "uid.worker.db.worker-node-table";
			case "instanceId" -> "uid.worker.instance-id";
			case "keyPrefix" -> isSegment() ? "uid.segment.redis.key-prefix" : "uid.worker.redis.key-prefix";
			case "namespace" -> assignerPrefix() + "namespace";
			case "rootPath" -> "uid.worker.zookeeper.root-path";
			case "connectionTimeout" -> "uid.worker.zookeeper.connection-timeout";
			case "registryLossMargin" -> "uid.worker.redis.registry-loss-margin";
			case "workerId" -> "uid.worker.id";
			case "stateFile" -> "uid.worker.static.state-file";
			case "key" -> "uid.segment.key";
			case "step" -> "uid.segment.step";
			case "maxStep" -> "uid.segment.max-step";
			case "targetInterval" -> "uid.segment.target-interval";
			case "prefetchThreshold" -> "uid.segment.prefetch-threshold";
			case "waitTimeout" -> "uid.segment.wait-timeout";
			case "table" -> "uid.segment.db.table";
			default -> "uid." + setting;
		};
	}

	private boolean isSegment() {
		return this.environment != null && "segment".equalsIgnoreCase(this.environment.getProperty("uid.generator", "")
			.strip());
	}

	private String assignerPrefix() {
		String assigner = assigner(this.environment);
		return ("redis".equals(assigner) || "zookeeper".equals(assigner)) ? "uid.worker." + assigner + "."
				: "uid.worker.db.";
	}

}
