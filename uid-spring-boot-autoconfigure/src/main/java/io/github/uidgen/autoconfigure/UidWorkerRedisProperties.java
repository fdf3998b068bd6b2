package io.github.uidgen.autoconfigure;

import java.time.Duration;

/**
 * Settings of the redis assigner, under {@code uid.worker.redis.*}.
 */
public class UidWorkerRedisProperties {

	/**
	 * Prefix of every Redis key the assigner uses.
	 */
	private String keyPrefix = "uid";

	/**
	 * Name of the group of instances that share one worker-ID space; separate applications use separate
	 * namespaces.
	 */
	private String namespace = "default";

	/**
	 * How long a worker ID stays claimed without a heartbeat.
	 */
	private Duration leaseDuration = Duration.ofSeconds(30);

	/**
	 * Interval of the lease heartbeat: how often a holder renews. Defaults to 1.5 s (a third of the lease duration if
	 * shorter). A claim waits the longest heartbeat in the namespace, a second for a late renewal and a round trip
	 * before it issues (3 s by default): a fleet of a thousand or more may renew less often (3s halves the renewals
	 * Redis serves) at the price of longer waits at start.
	 */
	private Duration heartbeatInterval;

	/**
	 * How long claims wait after the registry is found wiped (Redis lost its data) or written by another Redis
	 * process (a restart or failover, perhaps from older data), so that no worker ID is reused while IDs issued
	 * before may still lie ahead: counted from the event, or from the start of a Redis process that was restarted
	 * (a namespace used for the first time on a Redis that has run this long already waits nothing). Must cover
	 * uid.cached.max-ahead plus uid.mark.reservation plus uid.worker.max-clock-skew. It also bounds how long an
	 * instance issues on its lease while Redis does not answer: with the default, as long as the lease.
	 */
	private Duration registryLossMargin = Duration.ofSeconds(30);

	/**
	 * When a claim may trust the worker registry it finds: 'same-server' trusts a registry that the same Redis
	 * process wrote last, after the claim's probation (3 s by default), in which holders whose claims the
	 * registry's keys written back into the running Redis undid (a RESTORE of an older dump, a key-copying
	 * migration) stop and raise their worker's mark, and waits the registry-loss margin otherwise; 'none'
	 * makes every claim wait the margin, which also covers such a holder cut off from Redis meanwhile, at the
	 * cost of that wait at every start.
	 */
	private RegistryTrust registryTrust = RegistryTrust.SAME_SERVER;

	/**
	 * Whether to claim worker IDs on a Redis whose maxmemory-policy is allkeys-*, which may evict the
	 * registry's keys (none expires) and so let two instances issue with one worker ID; false refuses to start
	 * on it, naming the policy; true accepts it with a warning at each claim.
	 */
	private boolean allowEvictingPolicy;

	/**
	 * The longest the application's Lettuce client waits between attempts to reconnect to Redis, so that renewals
	 * reach Redis again within a second of its return (Lettuce's own back-off grows to 30 s). Applies to the client
	 * Spring Boot builds from spring.data.redis.*; 0 keeps Lettuce's back-off.
	 */
	private Duration maxReconnectDelay = Duration.ofMillis(500);

	/**
	 * Whether to claim the worker ID, probation included, over a plain socket of uid's own as soon as the
	 * application's environment is ready, while the application context is built, instead of once the context
	 * creates the generator. Applies to a standalone Redis configured through spring.data.redis.* (not Sentinel,
	 * Cluster, SSL or Jedis); the generator takes the claim, renews it over that socket until the application is
	 * ready and through the context's connection factory from then on, only when that factory points to the same
	 * Redis and database and the uid.worker.* settings are the same, and gives it back otherwise.
	 */
	private boolean earlyClaim = true;

	public boolean isEarlyClaim() {
		return this.earlyClaim;
	}

	public void setEarlyClaim(boolean earlyClaim) {
		this.earlyClaim = earlyClaim;
	}

	public Duration getMaxReconnectDelay() {
		return this.maxReconnectDelay;
	}

	public void setMaxReconnectDelay(Duration maxReconnectDelay) {
		this.maxReconnectDelay = maxReconnectDelay;
	}

	public String getKeyPrefix() {
		return this.keyPrefix;
	}

	public void setKeyPrefix(String keyPrefix) {
		this.keyPrefix = keyPrefix;
	}

	public String getNamespace() {
		return this.namespace;
	}

	public void setNamespace(String namespace) {
		this.namespace = namespace;
	}

	public Duration getLeaseDuration() {
		return this.leaseDuration;
	}

	public void setLeaseDuration(Duration leaseDuration) {
		this.leaseDuration = leaseDuration;
	}

	public Duration getHeartbeatInterval() {
		return this.heartbeatInterval;
	}

	public void setHeartbeatInterval(Duration heartbeatInterval) {
		this.heartbeatInterval = heartbeatInterval;
	}

	public Duration getRegistryLossMargin() {
		return this.registryLossMargin;
	}

	public void setRegistryLossMargin(Duration registryLossMargin) {
		this.registryLossMargin = registryLossMargin;
	}

	public RegistryTrust getRegistryTrust() {
		return this.registryTrust;
	}

	public void setRegistryTrust(RegistryTrust registryTrust) {
		this.registryTrust = registryTrust;
	}

	public boolean isAllowEvictingPolicy() {
		return this.allowEvictingPolicy;
	}

	public void setAllowEvictingPolicy(boolean allowEvictingPolicy) {
		this.allowEvictingPolicy = allowEvictingPolicy;
	}

	/**
	 * When a claim may trust the worker registry it finds in Redis.
	 */
	public enum RegistryTrust {

		/**
		 * Trust a registry the same Redis process wrote last; wait the margin otherwise.
		 */
		SAME_SERVER,

		/**
		 * Trust no registry: every claim waits the margin, which also covers the registry's keys written back
		 * into the running Redis.
		 */
		NONE

	}

}
