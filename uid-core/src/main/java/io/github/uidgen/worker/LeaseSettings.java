package io.github.uidgen.worker;

import java.time.Duration;

/**
 * The lease settings a lease assigner runs with, defaults resolved: how long a lease lasts, how often it is
 * renewed and under which instance ID it is claimed. Built by {@link AbstractLeaseBuilder}.
 */
public final class LeaseSettings {

	/** Default lease duration. */
	public static final Duration DEFAULT_LEASE_DURATION = Duration.ofSeconds(30);

	private final Duration leaseDuration;

	private final Duration heartbeatInterval;

	private final String instanceId;

	private final String port;

	LeaseSettings(Duration leaseDuration, Duration heartbeatInterval, String instanceId, String port) {
		this.leaseDuration = leaseDuration;
		this.heartbeatInterval = heartbeatInterval;
		this.instanceId = instanceId;
		this.port = port;
	}

	/**
	 * Returns how long a lease lasts without a heartbeat.
	 * @return the lease duration
	 */
	public Duration leaseDuration() {
		return this.leaseDuration;
	}

	/**
	 * Returns how often the lease is renewed.
	 * @return the heartbeat interval, shorter than the lease duration
	 */
	public Duration heartbeatInterval() {
		return this.heartbeatInterval;
	}

	/**
	 * Returns the identity under which this instance claims.
	 * @return the instance ID
	 */
	public String instanceId() {
		return this.instanceId;
	}

	/**
	 * Returns the port the application serves on.
	 * @return the port, or {@code null} when none was given
	 */
	public String port() {
		return this.port;
	}

	/**
	 * Returns the failure of a claim that found every worker ID leased, saying when leases of stopped instances
	 * free up.
	 * @param maxWorkerId the layout's largest worker ID
	 * @param liveLeases how many leases are live, and where, for example {@code "3 live leases in T"}
	 * @return the exception to throw
	 */
	public WorkerIdOutOfRangeException allTaken(long maxWorkerId, String liveLeases) {
		return new WorkerIdOutOfRangeException(maxWorkerId + 1, maxWorkerId, "all " + (maxWorkerId + 1)
				+ " worker IDs are taken (" + liveLeases + "). Give the layout more worker bits, or run fewer "
				+ "instances; leases of stopped instances free up " + this.leaseDuration.toSeconds()
				+ " s after their last heartbeat.");
	}

}
