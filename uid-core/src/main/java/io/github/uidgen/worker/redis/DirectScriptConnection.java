package io.github.uidgen.worker.redis;

import java.util.List;

import io.github.uidgen.redis.DirectRedisConnection;
import io.github.uidgen.redis.StandaloneRedis;

import org.springframework.data.redis.RedisSystemException;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * Runs the registry's scripts over one plain socket to a {@link StandaloneRedis} ({@link DirectRedisConnection}): by
 * their SHA-1 ({@code EVALSHA}), and by their text ({@code EVAL}) where Redis does not have them yet. Failures come
 * out as Spring Data's exceptions, as the connection factory's would, so {@link RegistryScripts} treats both alike.
 */
final class DirectScriptConnection implements RegistryScripts.Transport {

	private final StandaloneRedis redis;

	private final DirectRedisConnection connection;

	DirectScriptConnection(StandaloneRedis redis) {
		this.redis = redis;
		this.connection = new DirectRedisConnection(redis);
	}

	@Override
	public List<Object> eval(RedisScript<?> script, List<String> keys, String[] args) {
		try {
			return asList(this.connection.call(command("EVALSHA", script.getSha1(), keys, args)));
		}
		catch (RedisSystemException ex) {
			if (ex.getMessage() == null || !ex.getMessage().startsWith("NOSCRIPT")) {
				throw ex;
			}
			return asList(this.connection.call(command("EVAL", script.getScriptAsString(), keys, args)));
		}
	}

	private static String[] command(String name, String script, List<String> keys, String[] args) {
		String[] command = new String[3 + keys.size() + args.length];
		command[0] = name;
		command[1] = script;
		command[2] = Integer.toString(keys.size());
		for (int i = 0; i < keys.size(); i++) {
			command[3 + i] = keys.get(i);
		}
		System.arraycopy(args, 0, command, 3 + keys.size(), args.length);
		return command;
	}

	@SuppressWarnings("unchecked")
	private static List<Object> asList(Object reply) {
		return (reply instanceof List<?> list) ? (List<Object>) list : (reply != null) ? List.of(reply) : null;
	}

	/** Closes the socket; the next script connects again. */
	void close() {
		this.connection.close();
	}

	@Override
	public String toString() {
		return "DirectScriptConnection[" + this.redis + "]";
	}

}
