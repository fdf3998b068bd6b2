package io.github.uidgen.segment.redis;

import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.function.Function;

import io.github.uidgen.redis.DirectRedisConnection;
import io.github.uidgen.redis.RedisReachability;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.connection.RedisClusterConnection;
import org.springframework.data.redis.connection.RedisClusterNode;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.convert.Converters;

/**
 * What a Redis server keeps of its data, read from {@code INFO persistence}, {@code INFO memory} and
 * {@code CONFIG GET save} / {@code appendfsync}: segment counters are only as safe as that. Of a cluster, every master
 * is read, and the weakest one counts, since each holds some of the keys.
 *
 * @param level how much the weakest server keeps across a restart
 * @param server which server that is, for messages ({@code Redis on port 6379}, {@code Redis node 10.0.0.5:7001})
 * @param settings the settings that say so ({@code appendonly no, save ""})
 * @param evicting the servers that may evict keys without an expiry, as counters are, each with its
 * {@code maxmemory-policy} ({@code Redis on port 6379 (maxmemory-policy allkeys-lru)}); empty when none may
 */
record RedisDurability(Level level, String server, String settings, List<String> evicting) {

	/** How much of its data a Redis server keeps across a restart, from least to most. */
	enum Level {

		/** No append-only file and no RDB save points: a restart empties it. */
		NOTHING,

		/** No append-only file, and CONFIG (which names the save points) is not allowed: cannot tell. */
		UNKNOWN,

		/** RDB snapshots only: a crash loses the writes since the latest snapshot. */
		SNAPSHOTS,

		/** An append-only file not synced on every write: a crash of the host loses the latest writes. */
		APPEND_ONLY_FILE_NOT_SYNCED,

		/** An append-only file synced on every write ({@code appendfsync always}). */
		APPEND_ONLY_FILE_SYNCED

	}

	/**
	 * Reads what the server (or each cluster master) behind a connection keeps.
	 * @param connection an open connection
	 * @return what the weakest server keeps
	 * @throws DataAccessException when the server cannot be reached
	 */
	static RedisDurability of(RedisConnection connection) {
		if (connection instanceof RedisClusterConnection cluster) {
			List<RedisDurability> nodes = new ArrayList<>();
			for (RedisClusterNode node : cluster.clusterCommands().clusterGetNodes()) {
				if (node.isMaster()) {
					nodes.add(read("Redis node " + node.asString(),
							(section) -> cluster.serverCommands().info(node, section),
							(parameter) -> cluster.serverCommands().getConfig(node, parameter)));
				}
			}
			List<String> evicting = nodes.stream().flatMap((node) -> node.evicting.stream()).toList();
			return nodes.stream()
				.min((a, b) -> a.level.compareTo(b.level))
				.map((weakest) -> new RedisDurability(weakest.level, weakest.server, weakest.settings, evicting))
				.orElseGet(() -> new RedisDurability(Level.UNKNOWN, "Redis Cluster", "no master listed", List.of()));
		}
		return standalone((section) -> connection.serverCommands().info(section),
				(parameter) -> connection.serverCommands().getConfig(parameter));
	}

	/**
	 * Reads what the standalone server at the other end of uid's own socket keeps.
	 * @param direct the socket
	 * @return what the server keeps
	 * @throws DataAccessException when the server cannot be reached, or refuses {@code INFO}
	 */
	static RedisDurability of(DirectRedisConnection direct) {
		return standalone((section) -> Converters.toProperties((String) direct.call("INFO", section)),
				(parameter) -> Converters.toProperties(names(direct.call("CONFIG", "GET", parameter))));
	}

	/** What one standalone server keeps, named by its port. */
	private static RedisDurability standalone(Function<String, Properties> info, Function<String, Properties> config) {
		Properties server = info.apply("server");
		String port = (server != null) ? server.getProperty("tcp_port") : null;
		return read((port != null) ? "Redis on port " + port : "Redis", info, config);
	}

	/** {@code CONFIG GET}'s reply: names and values, one after the other. */
	@SuppressWarnings("unchecked")
	private static List<String> names(Object reply) {
		return (reply instanceof List<?> list) ? (List<String>) list : List.of();
	}

	private static RedisDurability read(String server, Function<String, Properties> info,
			Function<String, Properties> config) {
		// INFO rather than CONFIG GET maxmemory-policy: INFO answers where CONFIG is renamed or disabled.
		Properties memory = info.apply("memory");
		String policy = (memory != null) ? memory.getProperty("maxmemory_policy", "") : "";
		List<String> evicting = policy.startsWith("allkeys-")
				? List.of(server + " (maxmemory-policy " + policy + ")") : List.of();
		Properties persistence = info.apply("persistence");
		boolean appendOnly = "1".equals((persistence != null) ? persistence.getProperty("aof_enabled") : null);
		if (appendOnly) {
			String fsync = configValue(config, "appendfsync");
			Level level = "always".equals(fsync) ? Level.APPEND_ONLY_FILE_SYNCED
					: Level.APPEND_ONLY_FILE_NOT_SYNCED;
			return new RedisDurability(level, server,
					"appendonly yes, appendfsync " + ((fsync != null) ? fsync : "unknown"), evicting);
		}
		String save = configValue(config, "save");
		if (save == null) {
			return new RedisDurability(Level.UNKNOWN, server, "appendonly no, CONFIG GET save not allowed", evicting);
		}
		return save.isBlank() ? new RedisDurability(Level.NOTHING, server, "appendonly no, save \"\"", evicting)
				: new RedisDurability(Level.SNAPSHOTS, server, "appendonly no, save \"" + save + "\"", evicting);
	}

	/** Returns a configuration value, or {@code null} where CONFIG is not allowed (as on many hosted Redis). */
	private static String configValue(Function<String, Properties> config, String parameter) {
		try {
			Properties values = config.apply(parameter);
			return (values != null) ? values.getProperty(parameter) : null;
		}
		catch (DataAccessException ex) {
			if (RedisReachability.isUnreachable(ex)) {
				throw ex;
			}
			return null;
		}
	}

}
