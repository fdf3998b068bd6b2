package io.github.uidgen.redis;

import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Function;

import io.github.uidgen.segment.SegmentRange;
import io.github.uidgen.segment.SegmentStoreUnavailableException;
import io.github.uidgen.segment.redis.RedisSegmentStore;
import io.github.uidgen.testsupport.ThrowawayRedis;
import io.github.uidgen.worker.WorkerStoreUnavailableException;
import io.github.uidgen.worker.redis.RedisWorkerIdAssigner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * A Redis restarted with a large data set answers every data command {@code LOADING} until it has loaded it, for
 * seconds: a store that does not serve yet, which a start waits out (within {@code store-wait-at-start}) and a
 * claim tries again, not a Redis that refuses uid's commands, which fails a start at once. The throwaway server loads
 * for at least 6 s (20,000 keys at 300 µs each), far longer than the calls made meanwhile, and each test checks that
 * it was still loading after them.
 */
class RedisStillLoadingTests {

	private static final int KEYS = 20_000;

	private static final Duration LOAD_DELAY_PER_KEY = Duration.ofNanos(300_000);

	@Test
	void aWorkerIdClaimWhileRedisLoadsItsDataFindsTheStoreNotAnsweringYetAndSucceedsOnceItHasLoaded(@TempDir Path dir) {
		whileLoadingAndAfter(dir, (factory) -> {
			RedisWorkerIdAssigner assigner = RedisWorkerIdAssigner.builder(factory)
				.keyPrefix("uid-test")
				.namespace("loading")
				.leaseDuration(Duration.ofSeconds(5))
				.heartbeatInterval(Duration.ofMillis(100))
				.registryLossMargin(Duration.ZERO)
				.build();
			assertThatExceptionOfType(WorkerStoreUnavailableException.class).isThrownBy(() -> assigner.assign(1023))
				.withMessageContaining("LOADING");
			return () -> assertThat(assigner.assign(1023).workerId()).isZero();
		});
	}

	@Test
	void aSegmentClaimWhileRedisLoadsItsDataFindsTheStoreOutOfReachAndSucceedsOnceItHasLoaded(@TempDir Path dir) {
		whileLoadingAndAfter(dir, (factory) -> {
			RedisSegmentStore store = RedisSegmentStore.builder(factory)
				.keyPrefix("uid-test-loading")
				.requirePersistence(false)
				.build();
			assertThatExceptionOfType(SegmentStoreUnavailableException.class)
				.isThrownBy(() -> store.claim("orders", 100))
				.withMessageContaining("LOADING");
			return () -> assertThat(store.claim("orders", 100)).isEqualTo(new SegmentRange(1, 100));
		});
	}

	/**
	 * Runs {@code whileLoading} on a Redis that loads its data, checks that it was still loading afterwards, waits
	 * (within a minute) until it has loaded, and runs what {@code whileLoading} returned.
	 */
	private static void whileLoadingAndAfter(Path dir, Function<LettuceConnectionFactory, Runnable> whileLoading) {
		try (ThrowawayRedis redis = ThrowawayRedis.startLoading(dir, KEYS, LOAD_DELAY_PER_KEY)) {
			LettuceConnectionFactory factory = redis.connectionFactory();
			try {
				Runnable onceLoaded = whileLoading.apply(factory);
				assertThat(redis.isLoading()).as("Redis was still loading after the claim").isTrue();
				await().atMost(Duration.ofSeconds(60)).until(() -> !redis.isLoading());
				onceLoaded.run();
			}
			finally {
				factory.destroy();
			}
		}
	}

}
