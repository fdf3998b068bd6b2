package io.github.uidgen.segment.redis;

import java.nio.file.Path;

import io.github.uidgen.InvalidSettingException;
import io.github.uidgen.segment.SegmentRange;
import io.github.uidgen.segment.SegmentStoreException;
import io.github.uidgen.segment.SegmentStoreUnavailableException;
import io.github.uidgen.testsupport.ServerProcess;
import io.github.uidgen.testsupport.TestRedis;
import io.github.uidgen.testsupport.ThrowawayRedis;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The Redis store: one integer key per segment key under the prefix, and clear failures when the key or the server
 * cannot be used.
 */
class RedisSegmentStoreTests {

	private final LettuceConnectionFactory factory = TestRedis.connectionFactory();

	private final StringRedisTemplate redis = new StringRedisTemplate(this.factory);

	private final String prefix = "uid-test-" + TestRedis.uniqueNamespace("segstore");

	@AfterEach
	void removeKeys() {
		this.redis.delete(this.redis.keys(this.prefix + ":*"));
		this.factory.destroy();
	}

	@Test
	void eachKeyIsOneIntegerUnderThePrefix() {
		RedisSegmentStore store = RedisSegmentStore.builder(this.factory)
			.keyPrefix(this.prefix)
			.requirePersistence(false)
			.build();
		assertThat(store.claim("orders", 1000)).isEqualTo(new SegmentRange(1, 1000));
		assertThat(store.claim("orders", 500)).isEqualTo(new SegmentRange(1001, 1500));
		assertThat(store.redisKey("orders")).isEqualTo(this.prefix + ":orders");
		assertThat(this.redis.opsForValue().get(this.prefix + ":orders")).isEqualTo("1500");
	}

	@Test
	void aKeyThatHoldsNoIntegerFailsClearly() {
		RedisSegmentStore store = RedisSegmentStore.builder(this.factory)
			.keyPrefix(this.prefix)
			.requirePersistence(false)
			.build();
		this.redis.opsForValue().set(this.prefix + ":orders", "not a number");
		assertThatExceptionOfType(SegmentStoreException.class).isThrownBy(() -> store.claim("orders", 10))
			.withMessageContaining("The Redis key " + this.prefix + ":orders could not be advanced")
			.withMessageContaining("value is not an integer")
			.withMessageContaining("must hold an integer");
	}

	@Test
	void aRedisThatRefusesWritesSaysWhyAndDoesNotBlameTheKey(@TempDir Path dir) {
		try (ThrowawayRedis full = ThrowawayRedis.start(dir)) {
			LettuceConnectionFactory factory = full.connectionFactory();
			try {
				RedisSegmentStore store = RedisSegmentStore.builder(factory).requirePersistence(false).build();
				assertThat(store.claim("orders", 10)).isEqualTo(new SegmentRange(1, 10));
				// Out of memory under the default noeviction policy: Redis refuses every write.
				assertThat(full.cli("CONFIG", "SET", "maxmemory", "1")).isEqualTo("OK");
				assertThatExceptionOfType(SegmentStoreException.class).isThrownBy(() -> store.claim("orders", 10))
					.withMessageContaining("uid:segment:orders")
					.withMessageContaining("OOM command not allowed")
					.withMessageNotContaining("must hold an integer");
			}
			finally {
				factory.destroy();
			}
		}
	}

	@Test
	void anUnreachableRedisFailsWithAClearMessage() {
		LettuceConnectionFactory nowhere = TestRedis.connectionFactory(ServerProcess.freePort());
		try {
			RedisSegmentStore store = RedisSegmentStore.builder(nowhere).build();
			assertThatExceptionOfType(SegmentStoreUnavailableException.class).isThrownBy(() -> store.claim("orders", 10))
				.withMessageStartingWith("Cannot reach the Redis that hands out uid segments");
		}
		finally {
			nowhere.destroy();
		}
	}

	@Test
	void keyPrefixesWithWhiteSpaceAreRefused() {
		assertThatExceptionOfType(InvalidSettingException.class)
			.isThrownBy(() -> RedisSegmentStore.builder(this.factory).keyPrefix("uid segment"))
			.satisfies((ex) -> assertThat(ex.getSetting()).isEqualTo("keyPrefix"));
	}

}
