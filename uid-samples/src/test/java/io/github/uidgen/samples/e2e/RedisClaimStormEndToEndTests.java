package io.github.uidgen.samples.e2e;

import java.util.List;

import io.github.uidgen.testsupport.TestRedis;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * The claim storm on the {@code redis} profile: Redis on 127.0.0.1:6379, a key prefix of the run's own.
 */
class RedisClaimStormEndToEndTests extends ClaimStormEndToEndTests {

	RedisClaimStormEndToEndTests() {
		super("redis");
	}

	@Override
	List<String> storeArguments(String namespace) {
		return List.of("--uid.worker.redis.key-prefix=" + namespace);
	}

	/** Marks the namespace as brand new, as the documentation advises, so the claims need not wait the margin. */
	@Override
	void prepareNamespace(String namespace) {
		LettuceConnectionFactory factory = TestRedis.connectionFactory();
		try {
			TestRedis.markNewRegistry(factory, hashTag(namespace));
		}
		finally {
			factory.destroy();
		}
	}

	@Override
	void removeNamespace(String namespace) {
		LettuceConnectionFactory factory = TestRedis.connectionFactory();
		try {
			TestRedis.wipe(factory, hashTag(namespace));
		}
		finally {
			factory.destroy();
		}
	}

	private static String hashTag(String namespace) {
		return "{" + namespace + ":default}";
	}

}
