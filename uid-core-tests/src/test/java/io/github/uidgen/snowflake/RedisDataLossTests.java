package io.github.uidgen.snowflake;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.github.uidgen.UidClock;
import io.github.uidgen.testsupport.Duplicates;
import io.github.uidgen.testsupport.PartitionProxy;
import io.github.uidgen.testsupport.TestRedis;
import io.github.uidgen.worker.WorkerLeaseLostException;
import io.github.uidgen.worker.redis.RedisWorkerIdAssigner;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static io.github.uidgen.snowflake.TestGenerators.LAYOUT;
import static io.github.uidgen.snowflake.TestGenerators.maxUnit;
import static io.github.uidgen.snowflake.TestGenerators.minUnit;
import static io.github.uidgen.snowflake.TestGenerators.take;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Redis loses every key of the registry while a cached generator runs ahead of the clock on worker 0. Its lease cannot
 * have expired, and an empty registry shows nobody claimed since: at its next renewal it writes its lease and mark
 * again and carries on, and a newcomer waits the registry-loss margin and takes another worker ID. Where a newcomer
 * gets there first (the holder cut off from Redis for a moment when the registry vanished, so the newcomer finds it
 * looking brand new and takes worker 0), the holder's renewal within the newcomer's probation finds its worker ID in
 * the newcomer's hands: it stops (and, told not to claim again, stays stopped), raising the worker's mark past what it
 * issued, and the newcomer starts after it. No ID is issued twice either way.
 */
class RedisDataLossTests {

	/** Covers {@link TestGenerators#MAX_AHEAD} plus the mark reservation, with room for scheduling delays. */
	private static final Duration MARGIN = Duration.ofMillis(1_200);

	private LettuceConnectionFactory connectionFactory;

	private String namespace;

	private String hashTag;

	@BeforeEach
	void newNamespace() {
		this.connectionFactory = TestRedis.connectionFactory();
		this.namespace = TestRedis.uniqueNamespace("loss");
		this.hashTag = "{uid-test:" + this.namespace + "}";
		TestRedis.markNewRegistry(this.connectionFactory, this.hashTag);
	}

	@AfterEach
	void wipe() {
		TestRedis.wipe(this.connectionFactory, this.hashTag);
		this.connectionFactory.destroy();
	}

	@Test
	void aGeneratorWhoseRegistryVanishedWritesItsLeaseAgainAndIssuesOnWhileANewcomerWaitsTheMargin() throws Exception {
		AbstractUidGenerator before = TestGenerators.build(TestGenerators.Kind.CACHED, assigner("before"),
				UidClock.SYSTEM);
		AbstractUidGenerator after = null;
		try {
			long[] issuedBefore = take(before, 6_000);
			long workerId = before.status().worker().id();
			TestRedis.wipe(this.connectionFactory, this.hashTag);
			long wipedAt = System.currentTimeMillis();
			StringRedisTemplate redis = new StringRedisTemplate(this.connectionFactory);
			await().atMost(Duration.ofSeconds(30))
				.until(() -> redis.opsForHash().get(this.hashTag + ":holders", Long.toString(workerId)), "before"::equals);
			long[] issuedOn = take(before, 6_000);

			after = TestGenerators.build(TestGenerators.Kind.CACHED, assigner("after"), UidClock.SYSTEM);
			long[] issuedAfter = take(after, 6_000);
			assertThat(after.status().worker().id()).as("the holder's worker ID is its own again")
				.isNotEqualTo(workerId);
			assertThat(LAYOUT.startMillis(minUnit(issuedAfter))).as("the newcomer waited the margin")
				.isGreaterThanOrEqualTo(wipedAt + MARGIN.toMillis());
			assertThat(before.status().worker().leaseLost()).isFalse();
			assertThat(before.status().worker().recoveries()).isZero();
			assertThat(Duplicates.count(issuedBefore, issuedOn, issuedAfter)).isZero();
		}
		finally {
			before.close();
			if (after != null) {
				after.close();
			}
		}
	}

	@Test
	void withReclaimOffAHolderWhoseWorkerIdANewcomerTookFromTheVanishedRegistryStopsAndTheNewcomerRepeatsNothing()
			throws Exception {
		try (PartitionProxy proxy = PartitionProxy.start(6379)) {
			LettuceConnectionFactory viaProxy = TestRedis.connectionFactory(proxy.port());
			AbstractUidGenerator before = TestGenerators.build(TestGenerators.Kind.CACHED, assigner(viaProxy, "before"),
					UidClock.SYSTEM, false);
			AbstractUidGenerator after = null;
			try {
				TestGenerators.Ahead ahead = TestGenerators.takeUntilAhead(before, 6_000);
				long[] issuedBefore = ahead.ids();
				assertThat(LAYOUT.startMillis(maxUnit(issuedBefore))).as("borrowed ahead of the clock")
					.isGreaterThan(ahead.clockMillis());
				long workerId = before.status().worker().id();

				proxy.partition();
				TestRedis.wipe(this.connectionFactory, this.hashTag);
				CompletableFuture<AbstractUidGenerator> starting = CompletableFuture.supplyAsync(
						() -> TestGenerators.build(TestGenerators.Kind.CACHED, assigner("after"), UidClock.SYSTEM));
				StringRedisTemplate redis = new StringRedisTemplate(this.connectionFactory);
				await().atMost(Duration.ofSeconds(30))
					.until(() -> redis.opsForHash().get(this.hashTag + ":holders", Long.toString(workerId)),
							"after"::equals);
				// Within the newcomer's probation, the holder's renewals get through again.
				proxy.heal();
				after = starting.get(60, TimeUnit.SECONDS);
				awaitLeaseLost(before);
				assertThat(before.status().failure()).hasMessageContaining("lost or rewound data")
					.hasMessageContaining("Restart the instance");
				assertThatExceptionOfType(WorkerLeaseLostException.class).isThrownBy(before::getUID);

				assertThat(after.status().worker().id()).isEqualTo(workerId);
				long[] issuedAfter = take(after, 6_000);
				assertThat(minUnit(issuedAfter)).isGreaterThan(maxUnit(issuedBefore));
				assertThat(Duplicates.count(issuedBefore, issuedAfter)).isZero();
				assertThat(before.status().failure()).as("still stopped").isInstanceOf(WorkerLeaseLostException.class);
				assertThat(before.status().worker().recoveries()).isZero();
			}
			finally {
				proxy.heal();
				before.close();
				if (after != null) {
					after.close();
				}
				viaProxy.destroy();
			}
		}
	}

	private static void awaitLeaseLost(AbstractUidGenerator generator) {
		await().atMost(Duration.ofSeconds(30))
			.pollInterval(Duration.ofMillis(5))
			.until(() -> generator.status().failure() instanceof WorkerLeaseLostException);
	}

	private RedisWorkerIdAssigner assigner(String instanceId) {
		return assigner(this.connectionFactory, instanceId);
	}

	private RedisWorkerIdAssigner assigner(LettuceConnectionFactory factory, String instanceId) {
		return RedisWorkerIdAssigner.builder(factory)
			.keyPrefix("uid-test")
			.namespace(this.namespace)
			.leaseDuration(Duration.ofSeconds(2))
			.heartbeatInterval(Duration.ofMillis(100))
			.registryLossMargin(MARGIN)
			.instanceId(instanceId)
			.build();
	}

}
