package io.github.uidgen.testsupport;

import java.util.List;
import java.util.Set;
import java.util.UUID;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.DefaultRedisScript;

/**
 * Connections to the Redis server on 127.0.0.1:6379 and key helpers. Tests use namespaces of their own.
 */
public final class TestRedis {

	private TestRedis() {
	}

	/**
	 * Opens a started connection factory; call {@code destroy()} when done.
	 * @return the factory
	 */
	public static LettuceConnectionFactory connectionFactory() {
		return connectionFactory(6379);
	}

	/**
	 * Opens a started connection factory on a port of 127.0.0.1.
	 * @param port the port
	 * @return the factory
	 */
	public static LettuceConnectionFactory connectionFactory(int port) {
		LettuceConnectionFactory factory = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration("127.0.0.1", port));
		factory.afterPropertiesSet();
		factory.start();
		return factory;
	}

	/**
	 * Returns a namespace no other test uses.
	 * @param prefix a readable prefix
	 * @return the namespace
	 */
	public static String uniqueNamespace(String prefix) {
		return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
	}

	/**
	 * Deletes every key starting with a hash tag, as a Redis that lost its data would look.
	 * @param factory the connection
	 * @param hashTag for example {@code {uid:default}}
	 * @return the keys deleted
	 */
	public static Set<String> wipe(LettuceConnectionFactory factory, String hashTag) {
		StringRedisTemplate redis = new StringRedisTemplate(factory);
		Set<String> keys = redis.keys(hashTag + "*");
		if (keys != null && !keys.isEmpty()) {
			redis.delete(keys);
		}
		return keys;
	}

	/**
	 * The documented way to mark a brand-new namespace as known to be empty: the generation key, and the server key
	 * naming the Redis process it was written on, which the registry trusts only while that process runs.
	 */
	private static final String MARK_NEW = "redis.call('SET', KEYS[1], 0) "
			+ "return redis.call('SET', KEYS[2], string.match(redis.call('INFO', 'server'), 'run_id:(%w+)'))";

	/**
	 * Marks a brand-new namespace as known to be empty, so claims need not wait out the registry loss margin.
	 * @param factory the connection
	 * @param hashTag the namespace's hash tag
	 */
	public static void markNewRegistry(LettuceConnectionFactory factory, String hashTag) {
		new StringRedisTemplate(factory).execute(new DefaultRedisScript<>(MARK_NEW, String.class),
				List.of(hashTag + ":generation", hashTag + ":server"));
	}

	/**
	 * Returns the {@code redis-cli} arguments that mark a brand-new namespace, as the documentation gives them.
	 * @param hashTag the namespace's hash tag
	 * @return the arguments
	 */
	public static String[] markNewRegistryCommand(String hashTag) {
		return new String[] { "EVAL", MARK_NEW, "2", hashTag + ":generation", hashTag + ":server" };
	}

}
