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

	/**
	 * How many heartbeats fit in a lease by default for a store that renews at its heartbeat and lets the generator
	 * issue on the lease between renewals (a database, ZooKeeper): each renewal is a write the store logs, and issue
	 * rides through an outage of the lease less the clock skew less one heartbeat (23 s at the default 30 s lease).
	 */
	public static final int HEARTBEATS_PER_LEASE = 6;

	/** How many claims of each worker ID a store keeps by default: a few hundred. */
	public static final int DEFAULT_CLAIM_HISTORY = 256;

	/** The most claims of each worker ID a store may be asked to keep. */
	public static final int MAX_CLAIM_HISTORY = 10_000;

	private final Duration leaseDuration;

	private final Duration heartbeatInterval;

	private final String instanceId;

	private final String port;

	private final int claimHistory;

	public LeaseSettings(Duration leaseDuration, Duration heartbeatInterval, String instanceId, String port) {
		this(leaseDuration, heartbeatInterval, instanceId, port, DEFAULT_CLAIM_HISTORY);
	}

	public LeaseSettings(Duration leaseDuration, Duration heartbeatInterval, String instanceId, String port,
			int claimHistory) {
		this.leaseDuration = leaseDuration;
		this.heartbeatInterval = heartbeatInterval;
		this.instanceId = instanceId;
		this.port = port;
		this.claimHistory = claimHistory;
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
	 * Returns how many claims of each worker ID the store keeps.
	 * @return from 1 to {@link #MAX_CLAIM_HISTORY}
	 */
	public int claimHistory() {
		return this.claimHistory;
	}

	/**
	 * Returns the host name recorded with each claim.
	 * @return the host (or pod) name
	 */
	public String hostName() {
		return HostEnvironment.current().hostName();
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
