package io.github.uidgen.snowflake;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import io.github.uidgen.UidClock;
import io.github.uidgen.testsupport.Duplicates;
import io.github.uidgen.testsupport.TestRedis;
import io.github.uidgen.testsupport.ThrowawayRedis;
import io.github.uidgen.testsupport.ThrowawayRedisCluster;
import io.github.uidgen.worker.redis.RedisWorkerIdAssigner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static io.github.uidgen.snowflake.TestGenerators.LAYOUT;
import static io.github.uidgen.snowflake.TestGenerators.minUnit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The Redis that holds the registry restarts without persistence while a default and a cached generator issue as
 * fast as they can: a standalone server, and the Cluster master that serves the registry's slot. Every lease is gone
 * from Redis, but none can have expired, and an empty registry shows nobody claimed since: each holder writes its own
 * lease and mark again at its first renewal after the restart and carries on without losing its worker ID. A newcomer
 * started right after the restart waits the registry-loss margin from the new process's start, and takes a worker ID
 * of its own. Every ID of all three is checked: none repeats.
 */
class RedisRestartRecoveryTests {

	private static final String TAG = "{uid-test:restart}";

	/** Covers {@link TestGenerators#MAX_AHEAD} plus the mark reservation, with room for scheduling delays. */
	private static final Duration MARGIN = Duration.ofMillis(1_500);

	@Test
	void aStandaloneRedisRestartedWithoutPersistence(@TempDir Path dir) throws Exception {
		try (ThrowawayRedis redis = ThrowawayRedis.start(dir.resolve("redis"))) {
			redis.cli(TestRedis.markNewRegistryCommand(TAG));
			restartUnderLoad(redis::connectionFactory, redis::restartEmpty);
		}
	}

	@Test
	void theClusterMasterOfTheRegistrysSlotRestartedWithoutPersistence(@TempDir Path dir) throws Exception {
		try (ThrowawayRedisCluster cluster = ThrowawayRedisCluster.start(dir)) {
			int master = cluster.portOfKey(TAG + ":leases");
			cluster.cli(master, TestRedis.markNewRegistryCommand(TAG));
			restartUnderLoad(cluster::connectionFactory, () -> cluster.restartEmpty(master));
		}
	}

	private void restartUnderLoad(Supplier<LettuceConnectionFactory> connections, Runnable restart) throws Exception {
		List<LettuceConnectionFactory> factories = new ArrayList<>();
		List<AbstractUidGenerator> generators = new ArrayList<>();
		try {
			List<Issuer> holders = new ArrayList<>();
			for (TestGenerators.Kind kind : TestGenerators.Kind.values()) {
				AbstractUidGenerator holder = TestGenerators.build(kind, assigner(connections, factories, "holder-" + kind),
						UidClock.SYSTEM);
				generators.add(holder);
				holders.add(Issuer.throughRefusals(holder, "holder-" + kind));
			}
			for (Issuer holder : holders) {
				await().atMost(Duration.ofSeconds(30)).until(() -> holder.count() > 0);
			}
			long restartedAt = System.currentTimeMillis();
			restart.run();

			AbstractUidGenerator newcomer = TestGenerators.build(TestGenerators.Kind.DEFAULT,
					assigner(connections, factories, "newcomer"), UidClock.SYSTEM);
			generators.add(newcomer);
			long[] issuedByNewcomer = TestGenerators.take(newcomer, 5_000);
			assertThat(LAYOUT.startMillis(minUnit(issuedByNewcomer)))
				.as("the newcomer issued nothing inside the margin")
				.isGreaterThanOrEqualTo(restartedAt + MARGIN.toMillis());
			List<long[]> all = new ArrayList<>();
			all.add(issuedByNewcomer);
			for (int i = 0; i < holders.size(); i++) {
				Issuer holder = holders.get(i);
				int before = holder.count();
				await().atMost(Duration.ofSeconds(30)).until(() -> holder.count() > before);
				all.add(holder.stop());
				AbstractUidGenerator generator = generators.get(i);
				assertThat(generator.status().worker().leaseLost()).as("%s kept its lease", generator).isFalse();
				assertThat(generator.status().worker().recoveries()).as("%s never claimed again", generator).isZero();
			}
			assertThat(generators).extracting((generator) -> generator.status().worker().id()).doesNotHaveDuplicates();
			assertThat(Duplicates.count(all.toArray(long[][]::new))).isZero();
		}
		finally {
			generators.forEach(AbstractUidGenerator::close);
			factories.forEach(LettuceConnectionFactory::destroy);
		}
	}

	private static RedisWorkerIdAssigner assigner(Supplier<LettuceConnectionFactory> connections,
			List<LettuceConnectionFactory> factories, String instanceId) {
		LettuceConnectionFactory factory = connections.get();
		factories.add(factory);
		return RedisWorkerIdAssigner.builder(factory)
			.keyPrefix("uid-test")
			.namespace("restart")
			.leaseDuration(Duration.ofSeconds(3))
			.heartbeatInterval(Duration.ofMillis(100))
			.registryLossMargin(MARGIN)
			.instanceId(instanceId)
			.build();
	}

}
