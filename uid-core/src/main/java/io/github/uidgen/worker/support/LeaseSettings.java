package io.github.uidgen.worker.support;

import java.time.Duration;
import java.util.List;

import io.github.uidgen.worker.AllWorkerIdsLeasedException;

/**
 * The lease settings a lease assigner runs with, defaults resolved: how long a lease lasts, how often it is
 * renewed and under which instance ID it is claimed. Built by
 * {@link io.github.uidgen.worker.AbstractLeaseBuilder}.
 */
public final class LeaseSettings {

	/** Default lease duration. */
	public static final Duration DEFAULT_LEASE_DURATION = Duration.ofSeconds(30);

	/**
	 * How far ahead of the store's clock a free worker ID's mark may lie for a plain {@code assign(maxWorkerId)} to
	 * prefer it: the generators' default start-up wait plus the cached generator's default lead over the clock.
	 */
	public static final Duration DEFAULT_MAX_MARK_LEAD = Duration.ofSeconds(20);

	private final Duration leaseDuration;

	private final Duration heartbeatInterval;

	private final String instanceId;

	private final String port;

	public LeaseSettings(Duration leaseDuration, Duration heartbeatInterval, String instanceId, String port) {
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
	 * Returns the failure of a claim that found every worker ID leased.
	 * @param maxWorkerId the layout's largest worker ID
	 * @param liveLeases how many leases are live
	 * @param holders instance IDs of (some of) the live holders
	 * @param store where the leases are kept, for the message
	 * @return the exception to throw
	 */
	public AllWorkerIdsLeasedException allTaken(long maxWorkerId, long liveLeases, List<String> holders, String store) {
		return new AllWorkerIdsLeasedException(maxWorkerId, liveLeases, holders, store, this.leaseDuration);
	}

}
