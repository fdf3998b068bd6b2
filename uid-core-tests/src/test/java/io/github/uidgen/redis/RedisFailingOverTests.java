package io.github.uidgen.redis;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import io.github.uidgen.UidLayout;
import io.github.uidgen.segment.SegmentRange;
import io.github.uidgen.segment.SegmentStoreException;
import io.github.uidgen.segment.SegmentStoreUnavailableException;
import io.github.uidgen.segment.SegmentUidGenerator;
import io.github.uidgen.segment.SegmentUidGenerators;
import io.github.uidgen.segment.redis.RedisSegmentStore;
import io.github.uidgen.testsupport.ThrowawayRedis;
import io.github.uidgen.testsupport.ThrowawayRedisCluster;
import io.github.uidgen.worker.WorkerAssignmentException;
import io.github.uidgen.worker.WorkerStoreUnavailableException;
import io.github.uidgen.worker.redis.RedisWorkerIdAssigner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

/**
 * While a Redis fails over or reshards, it answers for a while with replies that say it does not serve yet:
 * {@code CLUSTERDOWN} from a Cluster that lost a master, {@code TRYAGAIN} to a script on a slot being moved,
 * {@code MASTERDOWN} from a replica cut off from its master (to a script: a plain write is {@code READONLY} there, as
 * on any replica, and stays a refusal), {@code BUSY} while another script runs too long. A claim
 * meanwhile finds the store not serving yet, which a start waits out (within {@code store-wait-at-start}) and a claim
 * tries again, not a Redis that refuses uid's commands, which fails a start at once; and once Redis serves again, the
 * claim succeeds. On servers of the test's own, stopped and started by their PIDs; every client connects before the
 * outage, as one of an application already running does.
 */
class RedisFailingOverTests {

	private static final String NAMESPACE = "failover";

	private static final String TAG = "{uid-test:" + NAMESPACE + "}";

	private static final Duration OUTAGE = Duration.ofSeconds(60);

	/** Long enough that no lease taken before an outage runs out before the claim after it. */
	private static final Duration LEASE = Duration.ofMinutes(5);

	@Test
	void aWorkerIdClaimWhileTheClusterIsDownFindsTheStoreNotServingYetAndSucceedsOnceItIsUp(@TempDir Path dir) {
		try (ThrowawayRedisCluster cluster = ThrowawayRedisCluster.start(dir)) {
			LettuceConnectionFactory factory = cluster.connectionFactory();
			try {
				RedisWorkerIdAssigner running = assigner(factory, "running");
				assertThat(running.assign(1023).workerId()).isZero();
				int holding = cluster.portOfKey(TAG + ":leases");
				int dead = killAnotherMaster(cluster, holding);

				RedisWorkerIdAssigner starting = assigner(factory, "starting");
				assertThatExceptionOfType(WorkerStoreUnavailableException.class)
					.isThrownBy(() -> starting.assign(1023))
					.withMessageContaining("CLUSTERDOWN");
				assertThat(cluster.cli(holding, "CLUSTER", "INFO")).as("the cluster after the claim")
					.contains("cluster_state:fail");

				cluster.restartEmpty(dead);
				assertThat(starting.assign(1023).workerId()).isOne();
			}
			finally {
				factory.destroy();
			}
		}
	}

	@Test
	void aSegmentStartWhileTheClusterIsDownWaitsUntilItIsUp(@TempDir Path dir) {
		try (ThrowawayRedisCluster cluster = ThrowawayRedisCluster.start(dir)) {
			LettuceConnectionFactory factory = cluster.connectionFactory();
			try {
				RedisSegmentStore store = RedisSegmentStore.builder(factory)
					.keyPrefix("uid-test-failover")
					.requirePersistence(false)
					.build();
				// Read before the outage: it asks every master, and a dead one does not answer at all.
				store.checkPersistence();
				int dead = killAnotherMaster(cluster, cluster.portOfKey(store.redisKey("orders")));
				assertThatExceptionOfType(SegmentStoreUnavailableException.class)
					.isThrownBy(() -> store.claim("orders", 10))
					.withMessageContaining("CLUSTERDOWN");

				try (SegmentUidGenerators generators = new SegmentUidGenerators(
						SegmentUidGenerator.builder(store).step(10).waitTimeout(OUTAGE).storeWaitAtStart(OUTAGE))) {
					SegmentUidGenerator generator = generators.startKey("orders");
					await("a try of the start while the cluster is down").atMost(OUTAGE)
						.until(() -> generator.getStoreFailureCount() >= 1);
					assertThat(generator.getStoreFailure()).isInstanceOf(SegmentStoreUnavailableException.class)
						.hasMessageContaining("CLUSTERDOWN");

					cluster.restartEmpty(dead);
					generator.awaitFirstSegment();
					assertThat(generator.getCurrentSegment()).isEqualTo(new SegmentRange(1, 10));
					assertThat(generator.getUID()).isOne();
				}
			}
			finally {
				factory.destroy();
			}
		}
	}

	@Test
	void aWorkerIdClaimWhileItsSlotMovesFindsTheStoreNotServingYetAndSucceedsOnceTheSlotHasMoved(@TempDir Path dir) {
		try (ThrowawayRedisCluster cluster = ThrowawayRedisCluster.start(dir)) {
			LettuceConnectionFactory factory = cluster.connectionFactory();
			try {
				RedisWorkerIdAssigner running = assigner(factory, "running");
				assertThat(running.assign(1023).workerId()).isZero();
				int from = cluster.portOfKey(TAG + ":leases");
				int to = cluster.ports().stream().filter((port) -> port != from).findFirst().orElseThrow();
				assertThat(cluster.beginMovingSlotOf(TAG + ":leases", to, 1)).as("keys moved so far").isOne();

				RedisWorkerIdAssigner starting = assigner(factory, "starting");
				assertThatExceptionOfType(WorkerStoreUnavailableException.class)
					.isThrownBy(() -> starting.assign(1023))
					.withMessageContaining("TRYAGAIN");

				assertThat(cluster.finishMovingSlotOf(TAG + ":leases", from, to)).as("keys moved at the end")
					.isPositive();
				assertThat(starting.assign(1023).workerId()).isOne();
			}
			finally {
				factory.destroy();
			}
		}
	}

	@Test
	void aClaimOnAReplicaCutOffFromItsMasterFindsTheStoreNotServingYetAndSucceedsOnceItIsPromoted(
			@TempDir Path dir) {
		try (ThrowawayRedis master = ThrowawayRedis.start(dir.resolve("master"))) {
			// PING answers MASTERDOWN until the replica has synced, so it starts only once it has.
			try (ThrowawayRedis replica = ThrowawayRedis.start(dir.resolve("replica"), "--replicaof", "127.0.0.1",
					Integer.toString(master.port()), "--replica-serve-stale-data", "no")) {
				LettuceConnectionFactory factory = connected(replica.connectionFactory());
				try {
					RedisWorkerIdAssigner assigner = assigner(factory, "starting");
					RedisSegmentStore store = RedisSegmentStore.builder(factory)
						.keyPrefix("uid-test-failover")
						.requirePersistence(false)
						.build();
					// A store set to a replica while its master serves: refused, naming Redis's reply.
					assertThat(catchThrowable(() -> assigner.assign(1023)))
						.isInstanceOf(WorkerAssignmentException.class)
						.isNotInstanceOf(WorkerStoreUnavailableException.class)
						.hasMessageContaining("READONLY");
					master.stop();
					await("the replica's link to its master down").atMost(OUTAGE)
						.until(() -> replica.cli("INFO", "replication").contains("master_link_status:down"));

					assertThatExceptionOfType(WorkerStoreUnavailableException.class)
						.isThrownBy(() -> assigner.assign(1023))
						.withMessageContaining("MASTERDOWN");
					// A write is refused READONLY before the link is looked at, as on any replica: a store set to
					// a replica is wrong until it is promoted, so that is a refusal.
					assertThat(catchThrowable(() -> store.claim("orders", 10)))
						.isInstanceOf(SegmentStoreException.class)
						.isNotInstanceOf(SegmentStoreUnavailableException.class)
						.hasMessageContaining("READONLY");

					// What Sentinel, or an operator, does once the master is gone.
					assertThat(replica.cli("REPLICAOF", "NO", "ONE")).isEqualTo("OK");
					assertThat(assigner.assign(1023).workerId()).isZero();
					assertThat(store.claim("orders", 10)).isEqualTo(new SegmentRange(1, 10));
				}
				finally {
					factory.destroy();
				}
			}
		}
	}

	/**
	 * Redis answers nothing but {@code SCRIPT KILL} and {@code SHUTDOWN NOSAVE} while a script has run past
	 * {@code busy-reply-threshold}: through the connection factory and over uid's own socket (which carries the
	 * layout's record after a claim ahead) alike.
	 */
	@Test
	void aClaimWhileAnotherScriptHoldsRedisFindsTheStoreNotServingYetAndSucceedsOnceTheScriptIsKilled(
			@TempDir Path dir) throws Exception {
		try (ThrowawayRedis redis = ThrowawayRedis.start(dir, "--busy-reply-threshold", "100")) {
			LettuceConnectionFactory factory = connected(redis.connectionFactory());
			try {
				RedisWorkerIdAssigner overSocket = assigner(factory, "over-socket");
				overSocket.claimAhead(1023, new StandaloneRedis("127.0.0.1", redis.port(), 0, null, null, null,
						Duration.ofSeconds(10), Duration.ofSeconds(10)))
					.run();
				assertThat(overSocket.assign(1023).workerId()).isZero();
				assertThat(overSocket.isOverOwnSocket()).isTrue();
				RedisWorkerIdAssigner starting = assigner(factory, "starting");
				RedisSegmentStore store = RedisSegmentStore.builder(factory)
					.keyPrefix("uid-test-failover")
					.requirePersistence(false)
					.build();
				store.checkPersistence();

				Process busy = new ProcessBuilder("redis-cli", "-h", "127.0.0.1", "-p", Integer.toString(redis.port()),
						"EVAL", "while true do end", "0")
					.redirectErrorStream(true)
					.start();
				try {
					await("another script past busy-reply-threshold").atMost(OUTAGE)
						.until(() -> redis.cli("PING").startsWith("BUSY"));
					assertThatExceptionOfType(WorkerStoreUnavailableException.class)
						.isThrownBy(() -> starting.assign(1023))
						.withMessageContaining("BUSY");
					assertThatExceptionOfType(SegmentStoreUnavailableException.class)
						.isThrownBy(() -> store.claim("orders", 10))
						.withMessageContaining("BUSY");
					assertThatExceptionOfType(WorkerStoreUnavailableException.class)
						.as("over uid's own socket")
						.isThrownBy(() -> overSocket.recordLayout(UidLayout.defaults()))
						.withMessageContaining("BUSY");

					assertThat(redis.cli("SCRIPT", "KILL")).isEqualTo("OK");
					await("the busy script ended").atMost(OUTAGE).until(() -> !busy.isAlive());
				}
				finally {
					busy.destroyForcibly();
				}
				assertThat(starting.assign(1023).workerId()).isOne();
				assertThat(store.claim("orders", 10)).isEqualTo(new SegmentRange(1, 10));
				overSocket.recordLayout(UidLayout.defaults());
				assertThat(redis.cli("EXISTS", TAG + ":layout")).as("the layout recorded over the socket")
					.isEqualTo("1");
			}
			finally {
				factory.destroy();
			}
		}
	}

	private static RedisWorkerIdAssigner assigner(LettuceConnectionFactory factory, String instanceId) {
		return RedisWorkerIdAssigner.builder(factory)
			.keyPrefix("uid-test")
			.namespace(NAMESPACE)
			.leaseDuration(LEASE)
			.heartbeatInterval(Duration.ofMillis(100))
			.registryLossMargin(Duration.ZERO)
			.instanceId(instanceId)
			.build();
	}

	/**
	 * Opens the factory's connection now, while Redis serves, as an application's client has: one opened during the
	 * outage may fail its own handshake, and Redis would not be asked the claim at all.
	 */
	private static LettuceConnectionFactory connected(LettuceConnectionFactory factory) {
		try (RedisConnection connection = factory.getConnection()) {
			assertThat(connection.ping()).isEqualTo("PONG");
		}
		return factory;
	}

	/**
	 * Kills a master other than {@code holding}, which has no replica, and waits until {@code holding} reports the
	 * cluster down, as every master does once the others agree the dead one failed; returns the dead one's port.
	 */
	private static int killAnotherMaster(ThrowawayRedisCluster cluster, int holding) {
		List<Integer> others = cluster.ports().stream().filter((port) -> port != holding).toList();
		int dead = others.get(0);
		cluster.node(dead).kill();
		await("the cluster down").atMost(OUTAGE)
			.until(() -> cluster.cli(holding, "CLUSTER", "INFO").contains("cluster_state:fail"));
		return dead;
	}

}
