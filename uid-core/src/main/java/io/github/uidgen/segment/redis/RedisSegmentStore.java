package io.github.uidgen.segment.redis;

import java.util.Optional;
import java.util.regex.Pattern;

import io.github.uidgen.InvalidSettingException;
import io.github.uidgen.redis.DirectRedisConnection;
import io.github.uidgen.redis.RedisReachability;
import io.github.uidgen.redis.StandaloneRedis;
import io.github.uidgen.segment.SegmentRange;
import io.github.uidgen.segment.SegmentStore;
import io.github.uidgen.segment.SegmentStoreException;
import io.github.uidgen.segment.SegmentStoreUnavailableException;
import io.github.uidgen.segment.StoredKeys;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Claims segments from Redis, through the application's Spring Data Redis connection factory (standalone, Sentinel
 * or Cluster alike): one string key per segment key, {@code <keyPrefix>:<key>}, advanced by {@code INCRBY}, which
 * is atomic and creates a missing key at 0.
 *
 * <p><strong>Redis must keep its data.</strong> A counter that Redis loses (a restart without persistence, a flush,
 * a failover to a replica that missed the latest writes, {@code appendfsync everysec} losing its last second) starts
 * again below numbers already handed out, and instances that start afresh would repeat them. So the first claim
 * (or {@link #checkPersistence()}, earlier) reads what the Redis keeps ({@code INFO persistence}, {@code CONFIG GET save} and {@code appendfsync}; of a
 * cluster, every master): a Redis that keeps nothing across a restart is refused
 * ({@link RedisKeepsNothingException}) unless {@link Builder#requirePersistence(boolean) requirePersistence(false)}
 * accepts it with one warning; one that may evict keys without an expiry ({@code maxmemory-policy allkeys-*}) is
 * refused unless {@link Builder#allowEvictingPolicy(boolean) allowEvictingPolicy(true)}; one that keeps snapshots only, or an append-only file not synced on every write, is
 * noted once at INFO. Generators that were running refuse a range below one they claimed
 * ({@link io.github.uidgen.segment.SegmentStoreRewoundException}), but cannot undo the loss: run Redis with
 * {@code appendonly yes} and {@code appendfsync always} for segment keys, or use the database store.
 *
 * <p>{@link #readKeys(int)} lists the counters for operators with {@code SCAN}, never {@code KEYS}.
 *
 * <p>With {@link Builder#firstClaimOver(StandaloneRedis)}, the first claim (and the read of what the Redis keeps) goes
 * over a plain socket of uid's own instead, so that an application starting does not wait for its client library's
 * first connection.
 */
public final class RedisSegmentStore implements SegmentStore {

	/** Default key prefix. */
	public static final String DEFAULT_KEY_PREFIX = "uid:segment";

	private static final Logger logger = LoggerFactory.getLogger(RedisSegmentStore.class);

	private static final Pattern KEY_PREFIX = Pattern.compile("\\S{1,200}");

	private final StringRedisTemplate redis;

	private final String keyPrefix;

	private final boolean requirePersistence;

	private final boolean allowEvictingPolicy;

	/** Set once the Redis was found to keep its data, or accepted although it does not. */
	private volatile boolean durabilityChecked;

	/** uid's own socket for the first claim; {@code null} once that is made, or when there is none. */
	private volatile DirectRedisConnection firstClaimConnection;

	private RedisSegmentStore(Builder builder) {
		this.redis = new StringRedisTemplate(builder.connectionFactory);
		this.keyPrefix = builder.keyPrefix;
		this.requirePersistence = builder.requirePersistence;
		this.allowEvictingPolicy = builder.allowEvictingPolicy;
		this.firstClaimConnection = (builder.firstClaimRedis != null)
				? new DirectRedisConnection(builder.firstClaimRedis) : null;
	}

	/**
	 * Starts building a store on a connection factory.
	 * @param connectionFactory the application's Redis connection factory
	 * @return a builder
	 */
	public static Builder builder(RedisConnectionFactory connectionFactory) {
		return new Builder(connectionFactory);
	}

	@Override
	public SegmentRange claim(String key, long size) {
		SegmentRange first = (this.firstClaimConnection != null) ? claimOverOwnSocket(key, size) : null;
		if (first != null) {
			return first;
		}
		checkPersistence();
		String redisKey = redisKey(key);
		Long last;
		try {
			last = this.redis.opsForValue().increment(redisKey, size);
		}
		catch (DataAccessException ex) {
			throw translate(redisKey, ex);
		}
		if (last == null) {
			throw new SegmentStoreException("INCRBY " + redisKey + " answered nothing; the segment store cannot run "
					+ "inside a Redis pipeline or transaction");
		}
		return new SegmentRange(last - size + 1, last);
	}

	/**
	 * Makes the claim over uid's own socket while the first is not made yet: reads what the Redis keeps, then
	 * {@code INCRBY}; the socket is closed once it answers. The socket failing is not final: the claim is then made
	 * through the connection factory, which says what is wrong, as every later claim is.
	 * @return the range, or {@code null} for a claim to make through the connection factory
	 */
	private synchronized SegmentRange claimOverOwnSocket(String key, long size) {
		DirectRedisConnection direct = this.firstClaimConnection;
		if (direct == null) {
			return null;
		}
		try {
			if (!this.durabilityChecked) {
				judge(RedisDurability.of(direct));
			}
			Object last = direct.call("INCRBY", redisKey(key), Long.toString(size));
			if (last instanceof Long number) {
				return new SegmentRange(number - size + 1, number);
			}
			return null;
		}
		catch (DataAccessException ex) {
			logger.info("uid's own connection for the first segment claim ({}) failed ({}); the claim goes through "
					+ "the application's connection factory", direct, ex.getMessage());
			return null;
		}
		finally {
			this.firstClaimConnection = null;
			direct.close();
		}
	}

	/**
	 * Reads now what the Redis keeps across a restart, which the first claim does otherwise: for an application that
	 * claims no segment while it starts, so that a Redis that keeps nothing is refused (or its warning logged) at
	 * start all the same. Reads it once: after it succeeds, later calls and claims do not read it again; after it
	 * fails, the next call or claim reads it again.
	 * @throws RedisKeepsNothingException when the Redis keeps nothing and persistence is required
	 * @throws SegmentStoreException when the Redis cannot be reached or cannot be read
	 */
	public void checkPersistence() {
		if (!this.durabilityChecked) {
			judge(readDurability());
		}
	}

	private RedisDurability readDurability() {
		try {
			return this.redis.execute(RedisDurability::of, true);
		}
		catch (DataAccessException ex) {
			if (RedisReachability.isUnreachable(ex)) {
				throw translate(null, ex);
			}
			throw new SegmentStoreException("Cannot read what the Redis that hands out uid segments keeps across a "
					+ "restart (INFO persistence failed: " + ex.getMessage() + ")", ex);
		}
	}

	/**
	 * Judges once what the Redis keeps across a restart: refuses one that keeps nothing (every claim, until it keeps
	 * its data or the check is switched off), warns once when that is accepted, notes weaker persistence once.
	 */
	private synchronized void judge(RedisDurability durability) {
		if (this.durabilityChecked) {
			return;
		}
		if (!durability.evicting().isEmpty()) {
			String servers = String.join(", ", durability.evicting());
			if (!this.allowEvictingPolicy) {
				throw new SegmentStoreException(servers + " may evict keys that have no expiry, and segment counters "
						+ "have none: an evicted counter starts again at 1, and numbers handed out before would be "
						+ "handed out again. Set maxmemory-policy to noeviction (or a volatile-* policy) on every Redis "
						+ "node that holds segment keys, or accept the risk with "
						+ "uid.segment.redis.allow-evicting-policy=true (builder: allowEvictingPolicy(true)).");
			}
			logger.warn("{} may evict keys that have no expiry, and an evicted segment counter starts again at 1, "
					+ "repeating numbers; accepted because allow-evicting-policy is on", servers);
		}
		switch (durability.level()) {
			case NOTHING -> {
				if (this.requirePersistence) {
					throw new RedisKeepsNothingException(durability.server(), durability.settings());
				}
				logger.warn("{} keeps nothing across a restart ({}): after it restarts, every segment key starts "
						+ "again at 1 and numbers handed out before will be handed out again. Accepted because "
						+ "requirePersistence is off; turn on appendonly yes with appendfsync always wherever numbers "
						+ "must never repeat.", durability.server(), durability.settings());
			}
			case UNKNOWN -> logger.info("Cannot tell whether {} keeps uid segment counters across a restart ({}); "
					+ "segment numbers repeat after a restart that loses them. Make sure it runs with appendonly yes "
					+ "and appendfsync always.", durability.server(), durability.settings());
			case SNAPSHOTS -> logger.info("{} keeps uid segment counters in RDB snapshots only ({}): a crash loses the "
					+ "claims since the latest snapshot, and instances started afterwards would repeat their numbers. "
					+ "Run it with appendonly yes and appendfsync always where numbers must never repeat.",
					durability.server(), durability.settings());
			case APPEND_ONLY_FILE_NOT_SYNCED -> logger.info("{} keeps uid segment counters in an append-only file "
					+ "not synced on every write ({}): a crash of its host loses the latest claims, and instances "
					+ "started afterwards would repeat their numbers. Set appendfsync always where numbers must never "
					+ "repeat.", durability.server(), durability.settings());
			case APPEND_ONLY_FILE_SYNCED -> logger.debug("{} keeps uid segment counters ({})", durability.server(),
					durability.settings());
		}
		this.durabilityChecked = true;
	}

	/**
	 * Returns the Redis key that holds the counter of a segment key.
	 * @param key the segment key
	 * @return {@code <keyPrefix>:<key>}
	 */
	public String redisKey(String key) {
		return this.keyPrefix + ":" + key;
	}

	/**
	 * Reads every counter under the key prefix ({@code SCAN} of the server, or of every Cluster master), with no step
	 * (the generators choose theirs) and no last claim ({@code INCRBY} records none). Bounded by each command's
	 * timeout ({@code spring.data.redis.timeout}) and by {@value RedisKeyScan#SCAN_COUNT} keys a call, ten seconds in
	 * all.
	 */
	@Override
	public Optional<StoredKeys> readKeys(int maxKeys) {
		try {
			return Optional.of(new RedisKeyScan(this.redis, this.keyPrefix).read(name(), maxKeys));
		}
		catch (DataAccessException ex) {
			if (RedisReachability.isUnreachable(ex)) {
				throw translate(null, ex);
			}
			throw new SegmentStoreException("Cannot read the uid segment keys under " + this.keyPrefix + ": "
					+ ex.getMostSpecificCause().getMessage(), ex);
		}
	}

	@Override
	public String name() {
		return "redis";
	}

	private static SegmentStoreException translate(String redisKey, DataAccessException ex) {
		if (RedisReachability.isUnreachable(ex)) {
			return new SegmentStoreUnavailableException("Cannot reach the Redis that hands out uid segments ("
					+ RedisReachability.reason(ex) + "); check that it runs, that it has loaded its data, and that "
					+ "spring.data.redis.* points at it.", ex);
		}
		// Spring's message is generic ("Error in execution"); Redis's own reply says what is wrong, and only a key
		// that holds something else than an integer is the key's fault.
		String reply = ex.getMostSpecificCause().getMessage();
		String fix = (reply != null && reply.contains("not an integer"))
				? " (it must hold an integer, as INCRBY leaves it)" : "";
		return new SegmentStoreException("The Redis key " + redisKey + " could not be advanced: " + reply + fix, ex);
	}

	@Override
	public String toString() {
		return "RedisSegmentStore[keyPrefix=" + this.keyPrefix + "]";
	}

	/**
	 * Settings of a Redis segment store.
	 */
	public static final class Builder {

		private final RedisConnectionFactory connectionFactory;

		private String keyPrefix = DEFAULT_KEY_PREFIX;

		private boolean requirePersistence = true;

		private boolean allowEvictingPolicy;

		private StandaloneRedis firstClaimRedis;

		private Builder(RedisConnectionFactory connectionFactory) {
			if (connectionFactory == null) {
				throw new InvalidSettingException("connectionFactory", null,
						"pass the application's RedisConnectionFactory");
			}
			this.connectionFactory = connectionFactory;
		}

		/**
		 * Sets the prefix of every key; {@code uid:segment} when not set.
		 * @param keyPrefix 1 to 200 characters, no white space
		 * @return this builder
		 */
		public Builder keyPrefix(String keyPrefix) {
			if (keyPrefix == null || !KEY_PREFIX.matcher(keyPrefix).matches()) {
				throw new InvalidSettingException("keyPrefix", keyPrefix,
						"use 1 to 200 characters without white space, such as " + DEFAULT_KEY_PREFIX);
			}
			this.keyPrefix = keyPrefix;
			return this;
		}

		/**
		 * Sets whether to refuse a Redis that keeps nothing across a restart (no append-only file and no RDB save
		 * points), on which segment numbers repeat once it restarts; {@code true} when not set. {@code false} accepts
		 * such a Redis with one warning at the first claim: for tests and throwaway environments.
		 * @param requirePersistence whether a Redis that keeps nothing is refused
		 * @return this builder
		 */
		public Builder requirePersistence(boolean requirePersistence) {
			this.requirePersistence = requirePersistence;
			return this;
		}

		/**
		 * Sets whether to accept a Redis whose {@code maxmemory-policy} is {@code allkeys-*}: it may evict segment
		 * counters (they have no expiry), and an evicted counter starts again at 1; refused by default, accepted with
		 * a warning at the first claim when set.
		 * @param allowEvictingPolicy whether a Redis that may evict the counters is accepted
		 * @return this builder
		 */
		public Builder allowEvictingPolicy(boolean allowEvictingPolicy) {
			this.allowEvictingPolicy = allowEvictingPolicy;
			return this;
		}

		/**
		 * Makes the first claim over a plain socket of uid's own to this standalone Redis, the one the connection
		 * factory reaches, and every later claim through the factory: on a JVM that has just started, a client
		 * library's first connection takes a second or more (Lettuce loading and connecting), where the socket takes
		 * milliseconds, and an application that claims its first segment while it starts waits for it. If the socket
		 * fails (no answer, refused credentials), the claim goes through the factory all the same.
		 * @param redis the server the connection factory reaches, or {@code null} for none (the default)
		 * @return this builder
		 */
		public Builder firstClaimOver(StandaloneRedis redis) {
			this.firstClaimRedis = redis;
			return this;
		}

		/**
		 * Builds the store; it touches Redis at its first claim, which first reads what the Redis keeps.
		 * @return the store
		 */
		public RedisSegmentStore build() {
			return new RedisSegmentStore(this);
		}

	}

}
