package io.github.uidgen.segment.redis;

import java.nio.file.Path;
import java.util.List;

import ch.qos.logback.classic.Level;
import io.github.uidgen.CapturedLog;
import io.github.uidgen.segment.SegmentRange;
import io.github.uidgen.segment.SegmentStoreException;
import io.github.uidgen.testsupport.ThrowawayRedis;
import io.github.uidgen.testsupport.ThrowawayRedisCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * What the Redis store says about the Redis it runs on, on throwaway servers with and without persistence: a Redis
 * that keeps nothing across a restart (no AOF, no RDB save points) is refused at the first claim, or accepted with
 * one warning when the application says so; a Redis that keeps its data starts without a word; a key that is simply
 * new is never warned about.
 */
class RedisPersistenceCheckTests {

	@RegisterExtension
	final CapturedLog storeLog = CapturedLog.of(RedisSegmentStore.class, Level.INFO);

	@Test
	void aRedisThatKeepsNothingIsRefusedAtTheFirstClaimAndNoCounterMoves(@TempDir Path dir) {
		try (OnRedis onRedis = OnRedis.start(dir)) {
			RedisSegmentStore store = onRedis.store().build();
			for (int attempt = 0; attempt < 2; attempt++) {
				assertThatExceptionOfType(SegmentStoreException.class).isThrownBy(() -> store.claim("orders", 10))
					.withMessageContaining("keeps nothing across a restart")
					.withMessageContaining("appendonly no")
					.withMessageContaining("numbers handed out before would be handed out again")
					.withMessageContaining("appendonly yes");
			}
			assertThat(onRedis.redis().cli("EXISTS", "uid:segment:orders")).as("no counter moved").isEqualTo("0");
		}
	}

	@Test
	void aRedisThatKeepsNothingIsAcceptedWithOneWarningWhenPersistenceIsNotRequired(@TempDir Path dir) {
		try (OnRedis onRedis = OnRedis.start(dir)) {
			RedisSegmentStore store = onRedis.store().requirePersistence(false).build();
			assertThat(store.claim("orders", 10)).isEqualTo(new SegmentRange(1, 10));
			assertThat(store.claim("orders", 10)).isEqualTo(new SegmentRange(11, 20));
			assertThat(store.claim("invoices", 10)).as("a new key").isEqualTo(new SegmentRange(1, 10));
			assertThat(store.claim("tickets", 10)).as("another new key").isEqualTo(new SegmentRange(1, 10));
			assertThat(this.storeLog.messages(Level.INFO)).as("one warning for the store, none per key")
				.singleElement()
				.asString()
				.contains("Redis on port " + onRedis.redis().port() + " keeps nothing across a restart")
				.contains("numbers handed out before will be handed out again")
				.contains("requirePersistence is off");
			assertThat(this.storeLog.messages(Level.WARN)).hasSize(1);
		}
	}

	@Test
	void ofAClusterEveryMasterMustKeepItsData(@TempDir Path dir) {
		try (ThrowawayRedisCluster cluster = ThrowawayRedisCluster.start(dir)) {
			LettuceConnectionFactory factory = cluster.connectionFactory();
			try {
				RedisSegmentStore store = RedisSegmentStore.builder(factory).build();
				List<Integer> ports = cluster.ports();
				for (int port : ports.subList(0, ports.size() - 1)) {
					assertThat(cluster.cli(port, "CONFIG", "SET", "appendonly", "yes")).isEqualTo("OK");
					assertThat(cluster.cli(port, "CONFIG", "SET", "appendfsync", "always")).isEqualTo("OK");
				}
				int last = ports.get(ports.size() - 1);
				assertThatExceptionOfType(RedisKeepsNothingException.class).isThrownBy(() -> store.claim("orders", 10))
					.satisfies((ex) -> assertThat(ex.getServer()).isEqualTo("Redis node 127.0.0.1:" + last))
					.satisfies((ex) -> assertThat(ex.getSettings()).isEqualTo("appendonly no, save \"\""));
				assertThat(cluster.cli(last, "CONFIG", "SET", "appendonly", "yes")).isEqualTo("OK");
				assertThat(cluster.cli(last, "CONFIG", "SET", "appendfsync", "always")).isEqualTo("OK");
				assertThat(store.claim("orders", 10)).isEqualTo(new SegmentRange(1, 10));
				assertThat(this.storeLog.messages(Level.INFO)).isEmpty();
			}
			finally {
				factory.destroy();
			}
		}
	}

	@Test
	void aRedisWithAnAppendOnlyFileStartsWithoutAWordAndNewKeysAreNotWarnedAbout(@TempDir Path dir) {
		try (OnRedis onRedis = OnRedis.start(dir, "--appendonly", "yes", "--appendfsync", "always")) {
			RedisSegmentStore store = onRedis.store().build();
			assertThat(store.claim("orders", 10)).isEqualTo(new SegmentRange(1, 10));
			assertThat(store.claim("invoices", 10)).isEqualTo(new SegmentRange(1, 10));
			assertThat(store.claim("tickets", 10)).isEqualTo(new SegmentRange(1, 10));
			assertThat(this.storeLog.messages(Level.INFO)).as("nothing said at INFO or above").isEmpty();
		}
	}

	@Test
	void aRedisWithSnapshotsOnlyStartsWithOneNoteOfWhatACrashLosesAndNewKeysAreNotWarnedAbout(@TempDir Path dir) {
		try (OnRedis onRedis = OnRedis.start(dir, "--save", "3600 1")) {
			RedisSegmentStore store = onRedis.store().build();
			assertThat(store.claim("orders", 10)).isEqualTo(new SegmentRange(1, 10));
			assertThat(store.claim("invoices", 10)).isEqualTo(new SegmentRange(1, 10));
			assertThat(this.storeLog.messages(Level.WARN)).as("no warning").isEmpty();
			assertThat(this.storeLog.messages(Level.INFO)).singleElement()
				.asString()
				.contains("Redis on port " + onRedis.redis().port())
				.contains("RDB snapshots")
				.contains("appendonly yes");
		}
	}

	/**
	 * A Redis that may evict keys without an expiry ({@code allkeys-*}) may drop a counter, which starts again at 1: it
	 * is refused at the first claim, naming the policy and the fix, whatever it keeps on disk; accepted with a warning
	 * when the application says so; a {@code volatile-*} policy evicts only keys with an expiry, which counters do not
	 * have, and is accepted without a word.
	 */
	@Test
	void aRedisThatMayEvictKeysWithoutAnExpiryIsRefusedUnlessAllowedAndVolatilePoliciesAreAccepted(@TempDir Path dir) {
		try (OnRedis onRedis = OnRedis.start(dir, "--appendonly", "yes", "--appendfsync", "always", "--maxmemory-policy",
				"allkeys-lru")) {
			RedisSegmentStore store = onRedis.store().build();
			assertThatExceptionOfType(SegmentStoreException.class).isThrownBy(() -> store.claim("orders", 10))
				.withMessageContaining("Redis on port " + onRedis.redis().port() + " (maxmemory-policy allkeys-lru)")
				.withMessageContaining("may evict keys that have no expiry")
				.withMessageContaining("noeviction")
				.withMessageContaining("uid.segment.redis.allow-evicting-policy=true");
			assertThat(onRedis.redis().cli("EXISTS", "uid:segment:orders")).as("no counter moved").isEqualTo("0");

			RedisSegmentStore allowing = onRedis.store().allowEvictingPolicy(true).build();
			assertThat(allowing.claim("orders", 10)).isEqualTo(new SegmentRange(1, 10));
			assertThat(this.storeLog.messages(Level.WARN)).singleElement()
				.asString()
				.contains("maxmemory-policy allkeys-lru")
				.contains("accepted because allow-evicting-policy is on");

			assertThat(onRedis.redis().cli("CONFIG", "SET", "maxmemory-policy", "volatile-lru")).isEqualTo("OK");
			assertThat(onRedis.store().build().claim("orders", 10)).isEqualTo(new SegmentRange(11, 20));
			assertThat(this.storeLog.messages(Level.WARN)).as("nothing more said").hasSize(1);
		}
	}

	/** Of a cluster, a master that may evict is refused even when the others may not. */
	@Test
	void ofAClusterNoMasterMayEvictKeysWithoutAnExpiry(@TempDir Path dir) {
		try (ThrowawayRedisCluster cluster = ThrowawayRedisCluster.start(dir)) {
			LettuceConnectionFactory factory = cluster.connectionFactory();
			try {
				List<Integer> ports = cluster.ports();
				int evicting = ports.get(ports.size() - 1);
				assertThat(cluster.cli(evicting, "CONFIG", "SET", "maxmemory-policy", "allkeys-random")).isEqualTo("OK");
				RedisSegmentStore store = RedisSegmentStore.builder(factory).requirePersistence(false).build();
				assertThatExceptionOfType(SegmentStoreException.class).isThrownBy(() -> store.claim("orders", 10))
					.withMessageContaining("Redis node 127.0.0.1:" + evicting + " (maxmemory-policy allkeys-random)");
				assertThat(cluster.cli(evicting, "CONFIG", "SET", "maxmemory-policy", "noeviction")).isEqualTo("OK");
				assertThat(store.claim("orders", 10)).isEqualTo(new SegmentRange(1, 10));
			}
			finally {
				factory.destroy();
			}
		}
	}


	/** A throwaway Redis and a connection factory to it, stopped together. */
	private record OnRedis(ThrowawayRedis redis, LettuceConnectionFactory factory) implements AutoCloseable {

		static OnRedis start(Path dir, String... args) {
			ThrowawayRedis redis = ThrowawayRedis.start(dir, args);
			try {
				return new OnRedis(redis, redis.connectionFactory());
			}
			catch (RuntimeException ex) {
				redis.close();
				throw ex;
			}
		}

		RedisSegmentStore.Builder store() {
			return RedisSegmentStore.builder(this.factory);
		}

		@Override
		public void close() {
			try {
				this.factory.destroy();
			}
			finally {
				this.redis.close();
			}
		}

	}

}
