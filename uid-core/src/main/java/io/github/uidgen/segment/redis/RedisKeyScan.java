package io.github.uidgen.segment.redis;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

import io.github.uidgen.segment.SegmentStoreException;
import io.github.uidgen.segment.StoredKey;
import io.github.uidgen.segment.StoredKeys;

import org.springframework.data.redis.connection.RedisClusterConnection;
import org.springframework.data.redis.connection.RedisClusterNode;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.core.Cursor;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.ScanOptions;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Reads the counters under a key prefix for operators. {@code SCAN} with {@code MATCH <prefix>:*} and a bounded
 * {@code COUNT}, never {@code KEYS}, so Redis serves claims between the calls; of a Cluster, every master. Only the
 * first keys in key order are kept while every key is counted, and only those are read, with {@code MGET}. The whole
 * reading is bounded by {@link #LIMIT} besides each command's own timeout: a keyspace too large to scan in that time
 * fails the reading rather than holding its caller.
 */
final class RedisKeyScan {

	/** How many keys one {@code SCAN} call looks at, at most: Redis's own pause between calls stays short. */
	static final int SCAN_COUNT = 1000;

	/** How long a whole reading may take. */
	static final Duration LIMIT = Duration.ofSeconds(10);

	private final StringRedisTemplate redis;

	private final String keyPrefix;

	RedisKeyScan(StringRedisTemplate redis, String keyPrefix) {
		this.redis = redis;
		this.keyPrefix = keyPrefix;
	}

	/**
	 * Reads the counters. A key that disappears between the scan and the read, or holds no integer, is no counter:
	 * it is left out of the list and the count.
	 * @param store the store's name
	 * @param maxKeys how many keys to list at most; none when not positive
	 * @return the keys, with no step (the generators choose theirs) and no last claim ({@code INCRBY} records none)
	 * @throws org.springframework.dao.DataAccessException when Redis cannot answer
	 * @throws SegmentStoreException when the reading takes longer than {@link #LIMIT}
	 */
	StoredKeys read(String store, int maxKeys) {
		Scanned scanned = this.redis.execute((RedisCallback<Scanned>) (connection) -> scan(connection, maxKeys));
		List<String> names = new ArrayList<>(scanned.first);
		List<String> values = names.isEmpty() ? List.of()
				: this.redis.opsForValue().multiGet(names.stream().map(this::redisKey).toList());
		List<StoredKey> keys = new ArrayList<>(names.size());
		long count = scanned.count;
		for (int i = 0; i < names.size(); i++) {
			Long counter = parse((values != null && i < values.size()) ? values.get(i) : null);
			if (counter != null) {
				keys.add(new StoredKey(names.get(i), counter, null, null));
			}
			else {
				count--;
			}
		}
		return new StoredKeys(store, this.keyPrefix, count, keys);
	}

	private Scanned scan(RedisConnection connection, int maxKeys) {
		ScanOptions options = ScanOptions.scanOptions().match(escape(this.keyPrefix) + ":*").count(SCAN_COUNT).build();
		Scanned scanned = new Scanned(System.nanoTime() + LIMIT.toNanos(), maxKeys);
		if (connection instanceof RedisClusterConnection cluster) {
			for (RedisClusterNode node : cluster.clusterGetNodes()) {
				if (node.isMaster()) {
					scanned.add(cluster.scan(node, options));
				}
			}
		}
		else {
			scanned.add(connection.keyCommands().scan(options));
		}
		return scanned;
	}

	private String redisKey(String key) {
		return this.keyPrefix + ":" + key;
	}

	private static Long parse(String value) {
		try {
			return (value != null) ? Long.parseLong(value) : null;
		}
		catch (NumberFormatException ex) {
			return null;
		}
	}

	/** Escapes what {@code MATCH} reads as a pattern, so a prefix matches only itself. */
	static String escape(String prefix) {
		StringBuilder escaped = new StringBuilder(prefix.length() + 8);
		for (char c : prefix.toCharArray()) {
			if (c == '*' || c == '?' || c == '[' || c == ']' || c == '\\') {
				escaped.append('\\');
			}
			escaped.append(c);
		}
		return escaped.toString();
	}

	/** What the scan found: every key counted, the first ones in key order kept. */
	private final class Scanned {

		private final long deadline;

		private final int maxKeys;

		private final TreeSet<String> first = new TreeSet<>();

		private long count;

		Scanned(long deadline, int maxKeys) {
			this.deadline = deadline;
			this.maxKeys = Math.max(0, maxKeys);
		}

		void add(Cursor<byte[]> cursor) {
			int start = RedisKeyScan.this.keyPrefix.length() + 1;
			try (cursor) {
				while (cursor.hasNext()) {
					String key = new String(cursor.next(), StandardCharsets.UTF_8).substring(start);
					this.count++;
					this.first.add(key);
					if (this.first.size() > this.maxKeys) {
						this.first.pollLast();
					}
					if (System.nanoTime() - this.deadline > 0) {
						throw new SegmentStoreException("Reading the segment keys under " + RedisKeyScan.this.keyPrefix
								+ " took longer than " + LIMIT.toSeconds() + " s (" + this.count + " keys so far); "
								+ "the Redis holds too many keys to scan them in that time.");
					}
				}
			}
		}

	}

}
