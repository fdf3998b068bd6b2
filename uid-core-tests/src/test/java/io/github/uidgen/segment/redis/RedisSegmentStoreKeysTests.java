package io.github.uidgen.segment.redis;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

import io.github.uidgen.segment.StoredKey;
import io.github.uidgen.segment.StoredKeys;
import io.github.uidgen.testsupport.TestRedis;
import io.github.uidgen.testsupport.ThrowawayRedisCluster;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the Redis store reads back beyond the shared contract: only its own prefix (taken literally, not as a
 * pattern), only keys that hold a counter, and every master of a Cluster.
 */
class RedisSegmentStoreKeysTests {

	private final LettuceConnectionFactory factory = TestRedis.connectionFactory();

	private final StringRedisTemplate redis = new StringRedisTemplate(this.factory);

	private final String base = "uid-test-" + TestRedis.uniqueNamespace("segkeys");

	@AfterEach
	void removeKeys() {
		this.redis.delete(this.redis.keys(this.base + "*"));
		this.factory.destroy();
	}

	@Test
	void aPrefixWithPatternCharactersIsTakenLiterally() {
		RedisSegmentStore starred = store(this.base + "*");
		RedisSegmentStore plain = store(this.base + "x");
		plain.claim("orders", 10);
		starred.claim("invoices", 7);
		assertThat(starred.readKeys(10)).hasValue(new StoredKeys("redis", this.base + "*", 1,
				List.of(new StoredKey("invoices", 7, null, null))));
		assertThat(plain.readKeys(10)).hasValue(new StoredKeys("redis", this.base + "x", 1,
				List.of(new StoredKey("orders", 10, null, null))));
	}

	@Test
	void aKeyUnderThePrefixThatHoldsNoCounterIsLeftOut() {
		RedisSegmentStore store = store(this.base);
		store.claim("orders", 10);
		this.redis.opsForValue().set(this.base + ":notes", "not a number");
		this.redis.opsForList().rightPush(this.base + ":queue", "1");
		assertThat(store.readKeys(10)).hasValue(new StoredKeys("redis", this.base, 1,
				List.of(new StoredKey("orders", 10, null, null))));
	}

	@Test
	void ofAClusterEveryMasterIsRead(@TempDir Path dir) {
		try (ThrowawayRedisCluster cluster = ThrowawayRedisCluster.start(dir)) {
			LettuceConnectionFactory clusterFactory = cluster.connectionFactory();
			try {
				RedisSegmentStore store = RedisSegmentStore.builder(clusterFactory).requirePersistence(false).build();
				List<String> keys = new ArrayList<>(IntStream.range(10, 40).mapToObj((i) -> "key" + i).toList());
				for (String key : keys) {
					store.claim(key, Math.floorMod(key.hashCode(), 1000) + 1);
				}
				assertThat(keys.stream().map(store::redisKey).map(cluster::portOfKey).distinct())
					.as("the keys lie on every master")
					.hasSize(cluster.ports().size());
				StoredKeys stored = store.readKeys(5).orElseThrow();
				assertThat(stored.count()).isEqualTo(keys.size());
				assertThat(stored.keys()).extracting(StoredKey::key).containsExactlyElementsOf(keys.subList(0, 5));
				assertThat(stored.keys()).allSatisfy(
						(key) -> assertThat(key.maxId()).isEqualTo(Math.floorMod(key.key().hashCode(), 1000) + 1));
			}
			finally {
				clusterFactory.destroy();
			}
		}
	}

	private RedisSegmentStore store(String keyPrefix) {
		return RedisSegmentStore.builder(this.factory).keyPrefix(keyPrefix).requirePersistence(false).build();
	}

}
