package io.github.uidgen.autoconfigure;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.github.uidgen.autoconfigure.UidWorkerStaticProperties.OrdinalSource;
import io.github.uidgen.worker.support.HostEnvironment;
import org.springframework.core.env.Environment;
import org.springframework.util.StringUtils;

/**
 * Decides the static assigner's worker ID: {@code uid.worker.id}, or the ordinal a Kubernetes StatefulSet gives
 * its pod (from the host name {@code ids-3}, or from an environment variable) plus
 * {@code uid.worker.static.ordinal-offset}, checked against the layout before anything is claimed.
 */
final class StaticWorkerIdResolver {

	private static final String WORKER_ID = "uid.worker.id";

	private static final String ORDINAL_FROM = "uid.worker.static.ordinal-from";

	private static final String ORDINAL_ENV = "uid.worker.static.ordinal-env";

	private static final String ORDINAL_OFFSET = "uid.worker.static.ordinal-offset";

	/** A StatefulSet pod is named {@code <set>-<ordinal>}; its host name is that, its FQDN starts with it. */
	private static final Pattern POD_NAME = Pattern.compile(".+-(\\d{1,18})");

	private final UidProperties properties;

	private final Environment environment;

	StaticWorkerIdResolver(UidProperties properties, Environment environment) {
		this.properties = properties;
		this.environment = environment;
	}

	/**
	 * Returns the worker ID of this instance.
	 * @return the worker ID, within the layout when it comes from an ordinal
	 * @throws UidPropertyException naming the property at fault
	 */
	long workerId() {
		UidWorkerProperties worker = this.properties.getWorker();
		OrdinalSource source = worker.getStatic().getOrdinalFrom();
		if (source == null) {
			return configuredWorkerId(worker.getId());
		}
		if (worker.getId() != null) {
			throw new UidPropertyException(WORKER_ID, worker.getId(),
					"uid.worker.id and " + ORDINAL_FROM + " are both set, so the worker ID is ambiguous.",
					"Remove uid.worker.id to take the worker ID from the pod's ordinal, or remove " + ORDINAL_FROM + ".");
		}
		long offset = worker.getStatic().getOrdinalOffset();
		if (offset < 0) {
			throw new UidPropertyException(ORDINAL_OFFSET, offset, "A worker ID offset cannot be negative.",
					"Set " + ORDINAL_OFFSET + " to 0 or more.");
		}
		Ordinal ordinal = (source == OrdinalSource.HOSTNAME) ? fromHostName() : fromEnvironment();
		long maxWorkerId = maxWorkerId();
		if (ordinal.value() > maxWorkerId - offset) {
			throw new UidPropertyException(ORDINAL_OFFSET, offset,
					"The worker ID from the pod's ordinal, " + ordinal.value() + " (" + ordinal.origin() + ") + " + offset
							+ " (" + ORDINAL_OFFSET + "), does not fit the layout, whose " + workerBitsName()
							+ " hold worker IDs 0 to " + maxWorkerId + ".",
					"Lower " + ORDINAL_OFFSET + ", run fewer replicas, or raise uid.worker-bits (taking the bits from "
							+ "uid.seq-bits or uid.time-bits).");
		}
		return ordinal.value() + offset;
	}

	private long configuredWorkerId(Long workerId) {
		if (workerId == null) {
			throw new UidPropertyException(WORKER_ID, null,
					"The static worker-ID assigner is chosen but uid.worker.id is not set.",
					"Set uid.worker.id to a worker ID unique to this instance"
							+ ((this.properties.getDatacenterBits() > 0) ? " in its data center" : "") + ", from 0 to "
							+ workerIdRange() + ", or set " + ORDINAL_FROM + " to hostname to take it from a "
							+ "StatefulSet pod's ordinal, or set uid.worker.assigner to db, redis or zookeeper to have "
							+ "worker IDs handed out.");
		}
		if (workerId < 0) {
			throw new UidPropertyException(WORKER_ID, workerId, "A worker ID cannot be negative.",
					"Set uid.worker.id to a worker ID from 0 to " + workerIdRange() + ".");
		}
		return workerId;
	}

	/** The largest worker ID and the properties that make it, or the rule when the bits are not valid yet. */
	private String workerIdRange() {
		long max = maxWorkerId();
		return (max != Long.MAX_VALUE) ? max + " (the " + workerBitsName() + " hold)"
				: "2^(" + workerBitsName().replace(" less ", " - ") + ") - 1";
	}

	private Ordinal fromHostName() {
		// HOSTNAME first: Kubernetes sets it to the pod name, and Spring's environment lets a test set it too.
		String hostName = this.environment.getProperty("HOSTNAME");
		if (!StringUtils.hasText(hostName)) {
			hostName = HostEnvironment.current().hostName();
		}
		hostName = hostName.strip();
		int dot = hostName.indexOf('.');
		String podName = (dot > 0) ? hostName.substring(0, dot) : hostName;
		Matcher matcher = POD_NAME.matcher(podName);
		if (!matcher.matches()) {
			throw new UidPropertyException(ORDINAL_FROM, "hostname",
					"The host name '" + hostName + "' does not end in a StatefulSet ordinal (-0, -1, ...), so it "
							+ "gives no worker ID.",
					"Run the instance as a pod of a StatefulSet, or set " + ORDINAL_FROM + " to env with "
							+ ORDINAL_ENV + " naming a variable that holds the ordinal, or set uid.worker.id instead.");
		}
		return new Ordinal(Long.parseLong(matcher.group(1)), "ordinal of host name '" + hostName + "'");
	}

	private Ordinal fromEnvironment() {
		String variable = this.properties.getWorker().getStatic().getOrdinalEnv();
		if (!StringUtils.hasText(variable)) {
			throw new UidPropertyException(ORDINAL_ENV, variable,
					ORDINAL_FROM + " is env, but no environment variable is named to read the ordinal from.",
					"Set " + ORDINAL_ENV + " to the variable that holds the pod's ordinal, for example POD_INDEX "
							+ "filled from the pod label apps.kubernetes.io/pod-index through the downward API.");
		}
		String value = this.environment.getProperty(variable.strip());
		if (!StringUtils.hasText(value)) {
			throw new UidPropertyException(ORDINAL_ENV, variable,
					"The environment variable " + variable + " that should hold the pod's ordinal is not set.",
					"Set " + variable + " in the pod (for example from the label apps.kubernetes.io/pod-index "
							+ "through the downward API), or point " + ORDINAL_ENV + " at the variable that is set.");
		}
		if (!value.strip().matches("\\d{1,18}")) {
			throw new UidPropertyException(ORDINAL_ENV, variable,
					"The environment variable " + variable + " is '" + value + "', not an ordinal (0 or more).",
					"Fill " + variable + " with the pod's ordinal, or point " + ORDINAL_ENV
							+ " at the variable that holds it.");
		}
		return new Ordinal(Long.parseLong(value.strip()), "environment variable " + variable);
	}

	/** The properties whose bits hold the worker ID: the worker bits, less the data center's when it has some. */
	private String workerBitsName() {
		return (this.properties.getDatacenterBits() > 0) ? "uid.worker-bits less uid.datacenter-bits"
				: "uid.worker-bits";
	}

	private long maxWorkerId() {
		// The data center takes the top worker bits; the worker ID gets the rest.
		int bits = this.properties.getWorkerBits() - Math.max(0, this.properties.getDatacenterBits());
		// Bits outside 1..62 fail with the layout's own message later; do not fail here first.
		return (bits >= 1 && bits <= 62) ? (1L << bits) - 1 : Long.MAX_VALUE;
	}

	private record Ordinal(long value, String origin) {
	}

}
