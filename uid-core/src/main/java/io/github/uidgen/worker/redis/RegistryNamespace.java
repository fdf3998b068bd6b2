package io.github.uidgen.worker.redis;

import java.time.Duration;

import io.github.uidgen.worker.support.LeaseSettings;

/**
 * One namespace of the Redis worker registry as the assigner's parts share it: its hash tag and scripts, the leases
 * held in it, the settings, and the renewal interval and probation that follow from them. Kept in one place so the
 * claim, the probation and the renewal read the same numbers.
 *
 * @param hashTag {@code {<keyPrefix>:<namespace>}}, which every key starts with
 * @param scripts the registry's Lua scripts
 * @param leases the leases this assigner holds
 * @param lease the lease settings
 * @param registryLossMargin how long claims wait after the registry was found lost or rewound
 * @param registryTrust when a claim may trust the registry it finds
 * @param allowEvictingPolicy whether to claim on a Redis that may evict the registry's keys
 * @param checkInterval how often this instance renews: its heartbeat
 * @param probation how long a trusted claim waits before its worker ID is handed to the generator when no holder in
 * the namespace renews less often than this instance: the renewal interval, a second for a renewal that comes late,
 * and a round trip (3 s with the defaults, 1.2 s with a 100 ms heartbeat); see {@link #probationFor(long)}
 */
record RegistryNamespace(String hashTag, RegistryScripts scripts, HeldLeases leases, LeaseSettings lease,
		Duration registryLossMargin, RegistryTrust registryTrust, boolean allowEvictingPolicy, Duration checkInterval,
		Duration probation) {

	/**
	 * The heartbeat when none is set, whatever the lease: a claim's probation lasts one renewal interval of the holders
	 * and a little more, and this keeps it at 3 s. A fleet that wants fewer renewals sets a longer heartbeat, and
	 * its claims stand longer probations.
	 */
	static final Duration DEFAULT_HEARTBEAT = Duration.ofMillis(1_500);

	/**
	 * What a probation adds to the holders' renewal interval, for the renewal's round trip and scheduling delays: half
	 * the interval, within these bounds.
	 */
	static final Duration MAX_ROUND_TRIP_ALLOWANCE = Duration.ofMillis(500);

	static final Duration MIN_ROUND_TRIP_ALLOWANCE = Duration.ofMillis(100);

	/**
	 * What a probation adds for a renewal that reaches Redis late although its holder runs (a GC pause, a TCP
	 * retransmission, a connection queued behind a large reply): it must still be heard within the probation.
	 */
	static final Duration LATE_RENEWAL_ALLOWANCE = Duration.ofSeconds(1);

	/**
	 * Opens a namespace of the registry; nothing is sent to Redis yet.
	 * @param transport how the scripts reach Redis
	 * @param hashTag the namespace's hash tag
	 * @param lease the lease settings
	 * @param registryLossMargin the registry-loss margin
	 * @param registryTrust the registry trust
	 * @param allowEvictingPolicy whether an evicting {@code maxmemory-policy} is accepted
	 * @return the namespace
	 */
	static RegistryNamespace open(RegistryScripts.Transport transport, String hashTag, LeaseSettings lease,
			Duration registryLossMargin, RegistryTrust registryTrust, boolean allowEvictingPolicy) {
		Duration checkInterval = lease.heartbeatInterval();
		Duration probation = probationOf(checkInterval);
		return new RegistryNamespace(hashTag, new RegistryScripts(transport, hashTag), new HeldLeases(), lease,
				registryLossMargin, registryTrust, allowEvictingPolicy, checkInterval, probation);
	}

	/**
	 * Returns how long a claim stands on probation in a namespace whose holders renew at most every given interval:
	 * the longer of that and this instance's own renewal interval, a second for a renewal that comes late, and half
	 * the interval for the round trip (at least 100 ms, at most 500 ms).
	 * @param longestHeartbeatMillis the longest heartbeat the namespace's claims declared, 0 when none did
	 * @return the probation
	 */
	Duration probationFor(long longestHeartbeatMillis) {
		return (longestHeartbeatMillis > this.checkInterval.toMillis())
				? probationOf(Duration.ofMillis(longestHeartbeatMillis)) : this.probation;
	}

	private static Duration probationOf(Duration renewalInterval) {
		Duration allowance = renewalInterval.dividedBy(2);
		if (allowance.compareTo(MAX_ROUND_TRIP_ALLOWANCE) > 0) {
			allowance = MAX_ROUND_TRIP_ALLOWANCE;
		}
		if (allowance.compareTo(MIN_ROUND_TRIP_ALLOWANCE) < 0) {
			allowance = MIN_ROUND_TRIP_ALLOWANCE;
		}
		return renewalInterval.plus(LATE_RENEWAL_ALLOWANCE).plus(allowance);
	}

	/**
	 * Returns what a claim leases its worker ID for: the lease, and the probation a trusted claim waits before issue
	 * (the claim script adds the margin itself to a claim that waits it).
	 */
	Duration claimLease() {
		return waitsEveryClaim() ? this.lease.leaseDuration() : this.lease.leaseDuration().plus(this.probation);
	}

	/** This instance's heartbeat, in milliseconds, as the claim script records it for the namespace. */
	String heartbeatArg() {
		return Long.toString(this.checkInterval.toMillis());
	}

	/** Whether every claim waits the registry-loss margin ({@link RegistryTrust#NONE}) instead of a probation. */
	boolean waitsEveryClaim() {
		return this.registryTrust == RegistryTrust.NONE;
	}

	/** The margin, in milliseconds, as the scripts take it. */
	String marginArg() {
		return Long.toString(this.registryLossMargin.toMillis());
	}

	/** The flag that lets the claim script go ahead on a Redis whose {@code maxmemory-policy} may evict the keys. */
	String evictingArg() {
		return this.allowEvictingPolicy ? "allow-evicting" : "";
	}

}
