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
 * @param checkInterval how often holders renew: the heartbeat, at most {@link #MAX_CHECK_INTERVAL}
 * @param probation how long a trusted claim waits before its worker ID is handed to the generator: the holders'
 * renewal interval, a second for a renewal that comes late, and a round trip (3 s with the defaults, 1.2 s with a
 * 100 ms heartbeat)
 */
record RegistryNamespace(String hashTag, RegistryScripts scripts, HeldLeases leases, LeaseSettings lease,
		Duration registryLossMargin, RegistryTrust registryTrust, boolean allowEvictingPolicy, Duration checkInterval,
		Duration probation) {

	/**
	 * Holders renew at least this often, whatever their heartbeat and mark reservation, so that a claim on probation
	 * hears from them within its probation.
	 */
	static final Duration MAX_CHECK_INTERVAL = Duration.ofMillis(1_500);

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
		Duration checkInterval = (lease.heartbeatInterval().compareTo(MAX_CHECK_INTERVAL) < 0)
				? lease.heartbeatInterval() : MAX_CHECK_INTERVAL;
		Duration allowance = checkInterval.dividedBy(2);
		if (allowance.compareTo(MAX_ROUND_TRIP_ALLOWANCE) > 0) {
			allowance = MAX_ROUND_TRIP_ALLOWANCE;
		}
		if (allowance.compareTo(MIN_ROUND_TRIP_ALLOWANCE) < 0) {
			allowance = MIN_ROUND_TRIP_ALLOWANCE;
		}
		Duration probation = checkInterval.plus(LATE_RENEWAL_ALLOWANCE).plus(allowance);
		return new RegistryNamespace(hashTag, new RegistryScripts(transport, hashTag), new HeldLeases(), lease,
				registryLossMargin, registryTrust, allowEvictingPolicy, checkInterval, probation);
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
