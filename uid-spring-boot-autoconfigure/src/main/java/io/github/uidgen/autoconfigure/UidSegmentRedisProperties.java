package io.github.uidgen.autoconfigure;

/**
 * Settings of the redis segment store, under {@code uid.segment.redis.*}.
 */
public class UidSegmentRedisProperties {

	/**
	 * Prefix of the Redis keys, one per segment key: {key-prefix}:{key}.
	 */
	private String keyPrefix = "uid:segment";

	/**
	 * Whether to refuse to start on a Redis that keeps nothing across a restart (no append-only file and
	 * no RDB save points), after whose restart segment numbers would repeat; false accepts it with a
	 * warning at start (tests, throwaway environments).
	 */
	private boolean requirePersistence = true;

	/**
	 * Whether to accept a Redis whose maxmemory-policy is allkeys-*, which may evict segment counters (they have
	 * no expiry), after which numbers repeat; false refuses to start on it, naming the policy; true accepts it
	 * with a warning at start.
	 */
	private boolean allowEvictingPolicy;

	public String getKeyPrefix() {
		return this.keyPrefix;
	}

	public void setKeyPrefix(String keyPrefix) {
		this.keyPrefix = keyPrefix;
	}

	public boolean isRequirePersistence() {
		return this.requirePersistence;
	}

	public void setRequirePersistence(boolean requirePersistence) {
		this.requirePersistence = requirePersistence;
	}

	public boolean isAllowEvictingPolicy() {
		return this.allowEvictingPolicy;
	}

	public void setAllowEvictingPolicy(boolean allowEvictingPolicy) {
		this.allowEvictingPolicy = allowEvictingPolicy;
	}

}
