package io.github.uidgen.worker;

import java.time.Duration;

import io.github.uidgen.InvalidSettingException;
import io.github.uidgen.worker.support.HostEnvironment;
import io.github.uidgen.worker.support.LeaseSettings;

/**
 * The settings every lease assigner's builder shares: lease duration, heartbeat interval, instance ID, port and
 * how many claims the store keeps per worker ID, with their checks and defaults. Settings left unset (or set to {@code null}) keep their defaults.
 *
 * @param <B> the concrete builder, returned by every setter so calls chain
 */
public abstract class AbstractLeaseBuilder<B extends AbstractLeaseBuilder<B>> {

	private final int maxInstanceIdLength;

	private final int heartbeatsPerLease;

	private Duration leaseDuration = LeaseSettings.DEFAULT_LEASE_DURATION;

	private boolean leaseDurationSet;

	private Duration heartbeatInterval;

	private String instanceId;

	private String port;

	private int claimHistory = LeaseSettings.DEFAULT_CLAIM_HISTORY;

	/**
	 * Creates a builder whose store keeps instance IDs of up to the given length.
	 * @param maxInstanceIdLength the longest instance ID the store keeps, {@link Integer#MAX_VALUE} for no limit
	 */
	protected AbstractLeaseBuilder(int maxInstanceIdLength) {
		this(maxInstanceIdLength, 3);
	}

	/**
	 * Creates a builder whose store keeps instance IDs of up to the given length and whose heartbeat is, unless set,
	 * the given fraction of the lease.
	 * @param maxInstanceIdLength the longest instance ID the store keeps, {@link Integer#MAX_VALUE} for no limit
	 * @param heartbeatsPerLease how many heartbeats fit in a lease by default, at least 2
	 */
	protected AbstractLeaseBuilder(int maxInstanceIdLength, int heartbeatsPerLease) {
		this.maxInstanceIdLength = maxInstanceIdLength;
		this.heartbeatsPerLease = Math.max(2, heartbeatsPerLease);
	}

	/**
	 * Sets how long a lease lasts without a heartbeat; 30 s by default. A crashed instance's worker ID becomes
	 * free this long after its last heartbeat.
	 * @param leaseDuration at least 1 ms
	 * @return this builder
	 */
	public B leaseDuration(Duration leaseDuration) {
		if (leaseDuration != null) {
			if (leaseDuration.isNegative() || leaseDuration.toMillis() < 1) {
				throw new InvalidSettingException("leaseDuration", leaseDuration,
						"use a duration of at least 1 ms, for example 30s");
			}
			this.leaseDuration = leaseDuration;
			this.leaseDurationSet = true;
		}
		return self();
	}

	/**
	 * Sets how often the lease is renewed; by default a fraction of the lease duration that each store states (a
	 * third for Redis, at most 1.5 s, a sixth for a database and ZooKeeper). Checked against the lease duration when
	 * that is set already, else when the assigner is built.
	 * @param heartbeatInterval a positive duration shorter than the lease duration
	 * @return this builder
	 */
	public B heartbeatInterval(Duration heartbeatInterval) {
		if (heartbeatInterval != null) {
			requireHeartbeatWithinLease(heartbeatInterval, this.leaseDurationSet);
		}
		this.heartbeatInterval = heartbeatInterval;
		return self();
	}

	private void requireHeartbeatWithinLease(Duration heartbeat, boolean againstLease) {
		if (heartbeat.isNegative() || heartbeat.isZero()
				|| (againstLease && heartbeat.compareTo(this.leaseDuration) >= 0)) {
			throw new InvalidSettingException("heartbeatInterval", heartbeat,
					"use a positive duration shorter than the lease duration (" + this.leaseDuration
							+ "), for example a third of it");
		}
	}

	/**
	 * Sets the identity under which this instance claims, so a restart gets its previous worker ID back;
	 * {@code host:port} (or {@code host:pid<n>} without a port) by default.
	 * @param instanceId a non-blank instance ID (up to 255 characters for the database assigner)
	 * @return this builder
	 */
	public B instanceId(String instanceId) {
		if (instanceId != null && (instanceId.isBlank() || instanceId.length() > this.maxInstanceIdLength)) {
			throw new InvalidSettingException("instanceId", instanceId, "use a non-blank instance ID"
					+ ((this.maxInstanceIdLength < Integer.MAX_VALUE)
							? " of at most " + this.maxInstanceIdLength + " characters" : ""));
		}
		this.instanceId = instanceId;
		return self();
	}

	/**
	 * Sets the port the application serves on, used in the default instance ID (and recorded with the worker ID
	 * by the database assigner).
	 * @param port the port the application serves on
	 * @return this builder
	 */
	public B port(String port) {
		this.port = (port == null || port.isBlank()) ? null : port.trim();
		return self();
	}

	/**
	 * Sets how many claims of each worker ID the store keeps (instance, host, from, to and the mark each found), so an
	 * operator can tell which instance issued an ID; {@value LeaseSettings#DEFAULT_CLAIM_HISTORY} by default. Each
	 * claim prunes the oldest beyond this in the same atomic step that writes it.
	 * @param claimHistory from 1 to {@value LeaseSettings#MAX_CLAIM_HISTORY}
	 * @return this builder
	 */
	public B claimHistory(int claimHistory) {
		if (claimHistory < 1 || claimHistory > LeaseSettings.MAX_CLAIM_HISTORY) {
			throw new InvalidSettingException("claimHistory", claimHistory, "keep from 1 to "
					+ LeaseSettings.MAX_CLAIM_HISTORY + " claims per worker ID, for example "
					+ LeaseSettings.DEFAULT_CLAIM_HISTORY);
		}
		this.claimHistory = claimHistory;
		return self();
	}

	/**
	 * Checks the settings against each other and resolves the defaults; for {@code build()}.
	 * @return the settings
	 * @throws InvalidSettingException when the heartbeat is not shorter than the lease
	 */
	protected LeaseSettings leaseSettings() {
		if (this.heartbeatInterval != null) {
			requireHeartbeatWithinLease(this.heartbeatInterval, true);
		}
		Duration heartbeat = (this.heartbeatInterval != null) ? this.heartbeatInterval
				: defaultHeartbeatInterval(this.leaseDuration);
		String id = (this.instanceId != null) ? this.instanceId
				: HostEnvironment.current().defaultInstanceId(this.port);
		if (id.length() > this.maxInstanceIdLength) {
			id = id.substring(0, this.maxInstanceIdLength);
		}
		return new LeaseSettings(this.leaseDuration, heartbeat, id, this.port, this.claimHistory);
	}

	/**
	 * Returns the heartbeat interval used when none is set: the fraction of the lease this builder was created with.
	 * A store whose claims rest on how often holders renew bounds it further.
	 * @param leaseDuration the lease duration
	 * @return the default heartbeat interval, shorter than the lease duration
	 */
	protected Duration defaultHeartbeatInterval(Duration leaseDuration) {
		return leaseDuration.dividedBy(this.heartbeatsPerLease);
	}

	@SuppressWarnings("unchecked")
	private B self() {
		return (B) this;
	}

}
