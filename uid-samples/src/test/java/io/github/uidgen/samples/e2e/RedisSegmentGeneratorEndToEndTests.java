package io.github.uidgen.samples.e2e;

import java.util.List;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;

/**
 * The {@code redis} profile with {@code --uid.generator=segment}: segments claimed with {@code INCRBY} from Redis on
 * 127.0.0.1:6379.
 */
class RedisSegmentGeneratorEndToEndTests extends SegmentGeneratorEndToEndTests {

	RedisSegmentGeneratorEndToEndTests() {
		super("redis");
	}

	@Override
	List<String> storeArguments(String runId) {
		// The shared Redis of the tests keeps nothing across a restart; the instances are killed, not Redis. The
		// sample's 2 s Redis timeout also bounds Lettuce's first handshake, which a cold JVM outlasted on a slow
		// machine under the suite's load; a first segment that cannot be claimed is now tried again within
		// uid.segment.store-wait-at-start, but these tests are about the numbers handed out, not about timeouts.
		return List.of("--uid.segment.redis.key-prefix=" + keyPrefix(runId),
				"--uid.segment.redis.require-persistence=false", "--spring.data.redis.timeout=10s",
				"--spring.data.redis.connect-timeout=10s");
	}

	@Override
	void removeStore(String runId) {
		RedisClient redis = RedisClient.create("redis://127.0.0.1:6379");
		try (StatefulRedisConnection<String, String> connection = redis.connect()) {
			RedisCommands<String, String> commands = connection.sync();
			List<String> keys = commands.keys(keyPrefix(runId) + ":*");
			if (!keys.isEmpty()) {
				commands.del(keys.toArray(String[]::new));
			}
		}
		finally {
			redis.shutdown();
		}
	}

	private static String keyPrefix(String runId) {
		return "uid-e2e-segment-" + runId;
	}

}
