package io.github.uidgen.segment.redis;

import java.util.regex.Pattern;

import io.github.uidgen.InvalidSettingException;
import io.github.uidgen.segment.SegmentRange;
import io.github.uidgen.segment.SegmentStore;
import io.github.uidgen.segment.SegmentStoreException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.dao.DataAccessException;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Claims segments from Redis, through the application's Spring Data Redis connection factory (standalone, Sentinel
 * or Cluster alike): one string key per segment key, {@code <keyPrefix>:<key>}, advanced by {@code INCRBY}, which
 * is atomic and creates a missing key at 0.
 *
 * <p><strong>Redis must keep its data.</strong> A counter that Redis loses (a restart without persistence, a flush,
 * a failover to a replica that missed the latest writes, {@code appendfsync everysec} losing its last second) starts
 * again below numbers already handed out, and instances that start afresh would repeat them. Generators that were
 * running refuse such a range ({@link io.github.uidgen.segment.SegmentStoreRewoundException}), and a claim that
 * finds its key missing logs a warning, but neither can undo the loss: run Redis with {@code appendonly yes} and
 * {@code appendfsync always} for segment keys, or use the database store.
 */
public final class RedisSegmentStore implements SegmentStore {

	/** Default key prefix. */
	public static final String DEFAULT_KEY_PREFIX = "uid:segment";

	private static final Logger logger = LoggerFactory.getLogger(RedisSegmentStore.class);

	private static final Pattern KEY_PREFIX = Pattern.compile("\\S{1,200}");

	private final StringRedisTemplate redis;

	private final String keyPrefix;

	private RedisSegmentStore(Builder builder) {
		this.redis = new StringRedisTemplate(builder.connectionFactory);
		this.keyPrefix = builder.keyPrefix;
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
		if (last == size) {
			logger.warn("Redis key {} did not exist (or was 0) and starts at 1 now. Fine for a new key; if the key "
					+ "existed before, Redis lost it and numbers handed out before will repeat.", redisKey);
		}
		return new SegmentRange(last - size + 1, last);
	}

	/**
	 * Returns the Redis key that holds the counter of a segment key.
	 * @param key the segment key
	 * @return {@code <keyPrefix>:<key>}
	 */
	public String redisKey(String key) {
		return this.keyPrefix + ":" + key;
	}

	@Override
	public String name() {
		return "redis";
	}

	private static SegmentStoreException translate(String redisKey, DataAccessException ex) {
		if (ex instanceof DataAccessResourceFailureException || ex instanceof QueryTimeoutException) {
			return new SegmentStoreException("Cannot reach the Redis that hands out uid segments (" + ex.getMessage()
					+ "); check that it runs and that spring.data.redis.* points at it.", ex);
		}
		return new SegmentStoreException("The Redis key " + redisKey + " could not be advanced: " + ex.getMessage()
				+ " (it must hold an integer, as INCRBY leaves it)", ex);
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
		 * Builds the store; it touches Redis at its first claim.
		 * @return the store
		 */
		public RedisSegmentStore build() {
			return new RedisSegmentStore(this);
		}

	}

}
