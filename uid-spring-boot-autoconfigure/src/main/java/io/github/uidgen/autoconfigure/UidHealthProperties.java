package io.github.uidgen.autoconfigure;

import java.time.Duration;

/**
 * Settings of the uid health indicator, under {@code uid.health.*}.
 */
public class UidHealthProperties {

	/**
	 * How long before the layout runs out the health details start warning about it.
	 */
	private Duration expiryWarning = Duration.ofDays(365);

	/**
	 * Whether the uid health component joins the readiness group of Spring Boot's availability probes (on
	 * Kubernetes, or with management.endpoint.health.probes.enabled), so that an instance that cannot issue IDs
	 * leaves the load balancer until it can again. Never part of the liveness group: a store outage must not
	 * restart the instance. A readiness group configured explicitly (its include property set) is left as it is.
	 */
	private boolean readiness = true;

	public Duration getExpiryWarning() {
		return this.expiryWarning;
	}

	public void setExpiryWarning(Duration expiryWarning) {
		this.expiryWarning = expiryWarning;
	}

	public boolean isReadiness() {
		return this.readiness;
	}

	public void setReadiness(boolean readiness) {
		this.readiness = readiness;
	}

}
