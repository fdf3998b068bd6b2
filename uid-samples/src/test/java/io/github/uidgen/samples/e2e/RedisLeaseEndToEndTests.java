package io.github.uidgen.samples.e2e;

import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

import io.github.uidgen.testsupport.TestRedis;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * The {@code redis} profile: worker IDs leased from Redis on 127.0.0.1:6379.
 */
class RedisLeaseEndToEndTests extends LeaseAssignerEndToEndTests {

	RedisLeaseEndToEndTests() {
		super("redis");
	}

	@Override
	List<String> storeArguments(String runId, Duration lease) {
		return List.of("--uid.worker.redis.key-prefix=" + keyPrefix(runId),
				"--uid.worker.redis.lease-duration=" + lease.toSeconds() + "s");
	}

	/**
	 * Marks the run's namespace as brand new, as the assigner's documentation advises: without its generation and
	 * server keys a registry could also be one that Redis lost, and the first claim would wait out the loss margin.
	 */
	@Override
	void prepareStore(String runId) {
		LettuceConnectionFactory factory = TestRedis.connectionFactory();
		try {
			TestRedis.markNewRegistry(factory, hashTag(runId));
		}
		finally {
			factory.destroy();
		}
	}

	@Override
	String expectedAssigner() {
		return "redis";
	}

	@Override
	void removeStore(String runId) {
		redis((commands) -> {
			List<String> keys = commands.keys(hashTag(runId) + ":*");
			if (!keys.isEmpty()) {
				commands.del(keys.toArray(String[]::new));
			}
		});
	}

	private static void redis(Consumer<RedisCommands<String, String>> action) {
		RedisClient redis = RedisClient.create("redis://127.0.0.1:6379");
		try (StatefulRedisConnection<String, String> connection = redis.connect()) {
			action.accept(connection.sync());
		}
		finally {
			redis.shutdown();
		}
	}

	private static String keyPrefix(String runId) {
		return "uid-e2e-" + runId;
	}

	/** The hash tag all keys of the run's namespace (the default one) start with. */
	private static String hashTag(String runId) {
		return "{" + keyPrefix(runId) + ":default}";
	}

}
