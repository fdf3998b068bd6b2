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
import io.github.uidgen.testsupport.ThrowawayRedisSentinel;
import io.github.uidgen.worker.redis.RedisWorkerIdAssigner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static io.github.uidgen.snowflake.TestGenerators.LAYOUT;
import static io.github.uidgen.snowflake.TestGenerators.minUnit;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The registry comes through a store operation with every write: a standalone Redis restarted with an append-only
 * file synced on every write, a Redis Cluster slot moved to another master under load as {@code redis-cli --cluster
 * reshard} moves it, a Sentinel failover to a replica that has every write. Holders whose lease records are intact
 * carry on without a single refused call; a newcomer, who cannot tell this registry from one that lost writes, waits
 * the registry-loss margin; no ID is issued twice.
 */
class RedisIntactRegistryTests {

	private static final String TAG = "{uid-test:intact}";

	/** Long enough for the reservation to outlast the moments the store does not answer. */
	private static final Duration RESERVATION = Duration.ofSeconds(3);

	private static final Duration MAX_AHEAD = Duration.ofMillis(500);

	/** Covers {@link #MAX_AHEAD} plus the reservation, with room. */
	private static final Duration MARGIN = Duration.ofSeconds(4);

	@Test
	void aRestartWithAnAppendOnlyFileCostsTheHoldersNothingWhileNewcomersWaitTheMargin(@TempDir Path dir)
			throws Exception {
		try (ThrowawayRedis redis = ThrowawayRedis.start(dir.resolve("redis"), "--appendonly", "yes", "--appendfsync",
				"always")) {
			redis.cli(TestRedis.markNewRegistryCommand(TAG));
			String before = redis.runId();
			storeOperationUnderLoad(redis::connectionFactory, () -> {
				redis.stop();
				redis.start();
				assertThat(redis.runId()).as("another Redis process").isNotEqualTo(before);
			});
		}
	}

	@Test
	void aClusterSlotMovedToAnotherMasterCostsTheHoldersNothingWhileNewcomersWaitTheMargin(@TempDir Path dir)
			throws Exception {
		try (ThrowawayRedisCluster cluster = ThrowawayRedisCluster.start(dir)) {
			int from = cluster.portOfKey(TAG + ":leases");
			cluster.cli(from, TestRedis.markNewRegistryCommand(TAG));
			int to = cluster.ports().stream().filter((port) -> port != from).findFirst().orElseThrow();
			storeOperationUnderLoad(cluster::connectionFactory, () -> {
				// The registry's 9 keys (claims and heartbeats among them) and the namespace's layout record, all on
				// the slot of one hash tag.
				assertThat(cluster.moveSlotOf(TAG + ":leases", to)).as("the registry's keys moved").isEqualTo(10);
				assertThat(cluster.portOfKey(TAG + ":leases")).isEqualTo(to);
			});
		}
	}

	/**
	 * Replication is asynchronous, so a failover keeps every write only when the master takes none that its replica
	 * lacks. A bare {@code SENTINEL FAILOVER} does not see to that: it promotes the replica without waiting for it to
	 * catch up, and the old master goes on taking the holders' renewals until the sentinel demotes it, some seconds
	 * later; those writes are lost, and a holder whose last recorded mark is among them loses its lease naming the
	 * failover ({@link RedisSentinelFailoverTests}). Here the set fails over as
	 * {@link ThrowawayRedisSentinel#failoverWithEveryWrite()} does (writes paused, the replica caught up, the old
	 * master's clients cut off before it takes any more), and the holders must be seen to carry on on the new master.
	 */
	@Test
	void aSentinelFailoverToAReplicaWithEveryWriteCostsTheHoldersNothingWhileNewcomersWaitTheMargin(
			@TempDir Path dir) throws Exception {
		try (ThrowawayRedisSentinel set = ThrowawayRedisSentinel.start(dir)) {
			int from = set.masterPort();
			set.cli(from, TestRedis.markNewRegistryCommand(TAG));
			int[] to = { -1 };
			storeOperationUnderLoad(set::connectionFactory, () -> {
				to[0] = set.failoverWithEveryWrite();
				assertThat(to[0]).as("the replica promoted").isNotEqualTo(from);
			});
			assertThat(set.cli(to[0], "HLEN", TAG + ":tokens"))
				.as("every lease released on the new master: the holders carried on there, not on the old one")
				.isEqualTo("0");
		}
	}

	/**
	 * Two holders (default and cached) issue as fast as they can through the operation and a second after it; a
	 * newcomer starts right after it.
	 */
	private void storeOperationUnderLoad(Supplier<LettuceConnectionFactory> connections, Runnable operation)
			throws Exception {
		List<LettuceConnectionFactory> factories = new ArrayList<>();
		List<AbstractUidGenerator> generators = new ArrayList<>();
		try {
			List<Issuer> holders = new ArrayList<>();
			for (TestGenerators.Kind kind : TestGenerators.Kind.values()) {
				AbstractUidGenerator holder = build(connections, factories, kind, "holder-" + kind);
				generators.add(holder);
				holders.add(Issuer.throughRefusals(holder, "holder-" + kind));
			}
			Thread.sleep(500);
			long operationAt = System.currentTimeMillis();
			operation.run();

			AbstractUidGenerator newcomer = build(connections, factories, TestGenerators.Kind.DEFAULT, "newcomer");
			generators.add(newcomer);
			long[] issuedByNewcomer = TestGenerators.take(newcomer, 5_000);
			Thread.sleep(1_000);

			List<long[]> all = new ArrayList<>();
			all.add(issuedByNewcomer);
			for (int i = 0; i < holders.size(); i++) {
				Issuer holder = holders.get(i);
				all.add(holder.stop());
				assertThat(holder.refusals()).as("calls refused to %s, the first: %s", generators.get(i),
						holder.firstRefusal())
					.isZero();
				assertThat(generators.get(i).status().failure()).isNull();
				assertThat(generators.get(i).status().worker().id()).isNotEqualTo(newcomer.status().worker().id());
			}
			assertThat(LAYOUT.startMillis(minUnit(issuedByNewcomer)))
				.as("the newcomer issued nothing inside the margin")
				.isGreaterThanOrEqualTo(operationAt + MARGIN.toMillis() - 500);
			assertThat(Duplicates.count(all.toArray(long[][]::new))).isZero();
		}
		finally {
			generators.forEach(AbstractUidGenerator::close);
			factories.forEach(LettuceConnectionFactory::destroy);
		}
	}

	private static AbstractUidGenerator build(Supplier<LettuceConnectionFactory> connections,
			List<LettuceConnectionFactory> factories, TestGenerators.Kind kind, String instanceId) {
		LettuceConnectionFactory factory = connections.get();
		factories.add(factory);
		RedisWorkerIdAssigner assigner = RedisWorkerIdAssigner.builder(factory)
			.keyPrefix("uid-test")
			.namespace("intact")
			.leaseDuration(Duration.ofSeconds(6))
			.heartbeatInterval(Duration.ofMillis(200))
			.registryLossMargin(MARGIN)
			.instanceId(instanceId)
			.build();
		return switch (kind) {
			case DEFAULT -> DefaultUidGenerator.builder()
				.layout(LAYOUT)
				.clock(UidClock.SYSTEM)
				.workerIdAssigner(assigner)
				.markReservation(RESERVATION)
				.build();
			case CACHED -> CachedUidGenerator.builder()
				.layout(LAYOUT)
				.clock(UidClock.SYSTEM)
				.workerIdAssigner(assigner)
				.markReservation(RESERVATION)
				.maxAhead(MAX_AHEAD)
				.build();
		};
	}

}
