package io.github.uidgen.worker.redis;

import java.nio.charset.StandardCharsets;
import java.util.List;

import io.github.uidgen.redis.RedisReachability;
import io.github.uidgen.worker.WorkerAssignmentException;
import io.github.uidgen.worker.WorkerStoreUnavailableException;

import org.springframework.core.io.ClassPathResource;
import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.DefaultRedisScript;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * The Redis side of {@link RedisWorkerIdAssigner}: the keys of one namespace under their hash tag, the Lua script
 * ({@code registry.lua}) that claims, renews and releases on them, the one ({@code fleet.lua}) that reads them for
 * operators and the one ({@code layout.lua}) that records the layout, with Redis failures turned into the assigner's
 * exceptions.
 */
final class RegistryScripts {

	private static final DefaultRedisScript<List> REGISTRY = script("registry.lua");

	private static final DefaultRedisScript<List> FLEET = script("fleet.lua");

	private static final DefaultRedisScript<List> LAYOUT = script("layout.lua");

	private final Transport transport;

	private final String hashTag;

	private final List<String> keys;

	private final List<String> fleetKeys;

	RegistryScripts(Transport transport, String hashTag) {
		this.transport = transport;
		this.hashTag = hashTag;
		this.keys = List.of(key("leases"), key("tokens"), key("holders"), key("instances"), key("marks"),
				key("generation"), key("server"), key("claims"), key("heartbeats"));
		this.fleetKeys = List.of(key("leases"), key("tokens"), key("holders"), key("marks"), key("claims"));
	}

	/**
	 * Scripts through a connection factory, as Spring Data runs them ({@code EVALSHA}, then {@code EVAL}).
	 * @param connectionFactory the application's connection factory
	 * @return the way there
	 */
	@SuppressWarnings("unchecked")
	static Transport templateOn(RedisConnectionFactory connectionFactory) {
		StringRedisTemplate redis = new StringRedisTemplate(connectionFactory);
		return (script, keys, args) -> redis.execute((RedisScript<List<Object>>) script, keys, (Object[]) args);
	}

	private static DefaultRedisScript<List> script(String name) {
		DefaultRedisScript<List> script = new DefaultRedisScript<>();
		script.setLocation(new ClassPathResource(name, RedisWorkerIdAssigner.class));
		script.setResultType(List.class);
		return script;
	}

	/** Claims; the reply starts with {@code ok}, {@code full} or {@code wait}. */
	List<String> claim(String... args) {
		return call("claim", args);
	}

	/** Renews; the reply starts with {@code ok}, {@code wiped}, {@code rewound}, {@code released} or {@code taken}. */
	List<String> renew(String... args) {
		return call("renew", args);
	}

	/** Releases; the reply is {@code released}, or {@code not held} when the claim no longer held the lease. */
	List<String> release(String... args) {
		return call("release", args);
	}

	/** Reads one page of the fleet, from a worker ID on; the reply starts with {@code fleet}. */
	List<String> readFleet(long fromWorkerId, long knownBelow, int maxWorkers) {
		return call(FLEET, this.fleetKeys, "read", Long.toString(fromWorkerId), Long.toString(knownBelow),
				Integer.toString(maxWorkers));
	}

	/** Reads one page of a worker ID's claims, newest first, from a claim's number on; starts with {@code claims}. */
	List<String> readHistory(long workerId, String fromClaim) {
		return call(FLEET, this.fleetKeys, "history", Long.toString(workerId), fromClaim);
	}

	/**
	 * Records the layout where the key holds none; the reply is {@code recorded}, or {@code found} and the recorded
	 * one.
	 */
	List<String> recordLayout(String key, String layout) {
		return call(LAYOUT, List.of(key), "record", layout);
	}

	private List<String> call(String operation, String... args) {
		return call(REGISTRY, this.keys, operation, args);
	}

	private List<String> call(DefaultRedisScript<List> script, List<String> keys, String operation, String... args) {
		String[] argv = new String[args.length + 1];
		argv[0] = operation;
		System.arraycopy(args, 0, argv, 1, args.length);
		List<Object> reply;
		try {
			reply = this.transport.eval(script, keys, argv);
		}
		catch (DataAccessException ex) {
			if (RedisReachability.isUnreachable(ex)) {
				throw new WorkerStoreUnavailableException("Cannot reach Redis, which hands out uid worker IDs ("
						+ RedisReachability.reason(ex) + "); check that it runs, that it has loaded its "
						+ "data, and that the connection settings are right.", ex);
			}
			// Spring's message is generic ("Error in execution"); Redis's own reply says what is wrong.
			throw new WorkerAssignmentException("Redis refused the uid worker registry script (" + operation
					+ ") under " + this.hashTag + ": " + ex.getMostSpecificCause().getMessage(), ex);
		}
		if (reply == null || reply.isEmpty()) {
			throw new WorkerAssignmentException("Empty reply from the uid worker registry script (" + operation + "): "
					+ reply);
		}
		return reply.stream().map(RegistryScripts::text).toList();
	}

	private static String text(Object value) {
		return (value instanceof byte[] bytes) ? new String(bytes, StandardCharsets.UTF_8)
				: String.valueOf(value);
	}

	private String key(String name) {
		return this.hashTag + ":" + name;
	}

	/** How a script reaches Redis; failures are Spring's {@link DataAccessException}s. */
	@FunctionalInterface
	interface Transport {

		/**
		 * Runs a script.
		 * @param script the script
		 * @param keys its keys
		 * @param args its arguments
		 * @return its reply, a list
		 */
		List<Object> eval(RedisScript<?> script, List<String> keys, String[] args);

	}

}
