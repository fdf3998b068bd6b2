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
import io.github.uidgen.worker.WorkerLeaseLostException;
import io.github.uidgen.worker.redis.RedisWorkerIdAssigner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static io.github.uidgen.snowflake.TestGenerators.LAYOUT;
import static io.github.uidgen.snowflake.TestGenerators.minUnit;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Redis that holds the registry restarts without persistence while a default and a cached generator issue as
 * fast as they can: a standalone server, and the Cluster master that serves the registry's slot. Every lease is gone;
 * each holder stops, then by itself claims a worker ID again and serves again, issuing nothing before the
 * registry-loss margin has passed since the restart; a newcomer started right after the restart waits the margin
 * too. Every ID of all three is checked: none repeats.
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
			Thread.sleep(300);
			long restartedAt = System.currentTimeMillis();
			restart.run();

			AbstractUidGenerator newcomer = TestGenerators.build(TestGenerators.Kind.DEFAULT,
					assigner(connections, factories, "newcomer"), UidClock.SYSTEM);
			generators.add(newcomer);
			long[] issuedByNewcomer = TestGenerators.take(newcomer, 5_000);
			List<long[]> all = new ArrayList<>();
			all.add(issuedByNewcomer);
			for (int i = 0; i < holders.size(); i++) {
				AbstractUidGenerator holder = generators.get(i);
				RedisRestoredFromSnapshotTests.awaitRecovered(holder);
				long[] issuedOnRecovery = TestGenerators.take(holder, 1_000);
				all.add(issuedOnRecovery);
				assertThat(LAYOUT.startMillis(minUnit(issuedOnRecovery)))
					.as("%s serves again, and nothing inside the margin", holder)
					.isGreaterThanOrEqualTo(restartedAt + MARGIN.toMillis());
			}
			Thread.sleep(300);
			for (Issuer holder : holders) {
				all.add(holder.stop());
				assertThat(holder.firstRefusal()).as("what the holder's callers were told")
					.isInstanceOf(WorkerLeaseLostException.class)
					.hasMessageContaining("Redis lost the worker registry")
					.hasMessageContaining("Claiming a worker ID again");
			}
			assertThat(LAYOUT.startMillis(minUnit(issuedByNewcomer)))
				.as("the newcomer issued nothing inside the margin")
				.isGreaterThanOrEqualTo(restartedAt + MARGIN.toMillis());
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
