package io.github.uidgen.snowflake;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.github.uidgen.UidClock;
import io.github.uidgen.UidException;
import io.github.uidgen.testsupport.Duplicates;
import io.github.uidgen.testsupport.TestRedis;
import io.github.uidgen.testsupport.ThrowawayRedisSentinel;
import io.github.uidgen.worker.WorkerLeaseLostException;
import io.github.uidgen.worker.redis.RedisWorkerIdAssigner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static io.github.uidgen.snowflake.TestGenerators.LAYOUT;
import static io.github.uidgen.snowflake.TestGenerators.minUnit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A Sentinel failover while three generators (two cached, running ahead of the clock, and one default) issue IDs
 * as fast as they can, each through a connection factory of its own; then three newcomers in the same namespace.
 * The new master did not write the registry, so newcomers cannot trust it and wait the registry-loss margin; each
 * holder checks its own record there and carries on if it is intact, or loses its lease naming the failover; no ID is
 * issued twice.
 *
 * <p>A crash of the master has no split-brain window. A requested failover ({@code SENTINEL FAILOVER}) has one: the
 * old master keeps taking writes from clients still connected to it until the sentinel demotes it; with
 * {@code min-replicas-to-write 1} it refuses them once its replica has been gone {@code min-replicas-max-lag}, and
 * the margin covers that lag, as docs/worker-ids.md asks.
 */
class RedisSentinelFailoverTests {

	private static final Duration MAX_AHEAD = Duration.ofMillis(1500);

	private static final Duration RESERVATION = Duration.ofMillis(300);

	/** Covers the old master's 2 s lag plus a second of replica pings, max-ahead and the reservation, with room. */
	private static final Duration MARGIN = Duration.ofSeconds(7);

	@Test
	void aCrashFailoverWhileIssuingRepeatsNoId(@TempDir Path dir) throws Exception {
		try (ThrowawayRedisSentinel set = ThrowawayRedisSentinel.start(dir)) {
			runFailover(set, set::killMaster);
		}
	}

	@Test
	void aRequestedFailoverWhileIssuingRepeatsNoIdWhenTheOldMasterRefusesWritesOnceCutOff(@TempDir Path dir)
			throws Exception {
		try (ThrowawayRedisSentinel set = ThrowawayRedisSentinel.start(dir, "--min-replicas-to-write", "1",
				"--min-replicas-max-lag", "2")) {
			runFailover(set, set::failover);
		}
	}

	private void runFailover(ThrowawayRedisSentinel set, Runnable failover) throws Exception {
		set.cli(set.masterPort(), TestRedis.markNewRegistryCommand("{uid-test:failover}"));
		List<LettuceConnectionFactory> factories = new ArrayList<>();
		List<AbstractUidGenerator> generators = new ArrayList<>();
		try {
			List<Issuer> holders = new ArrayList<>();
			for (int i = 0; i < 3; i++) {
				AbstractUidGenerator holder = build(set, factories, "holder-" + i, i < 2);
				generators.add(holder);
				holders.add(Issuer.untilRefused(holder, "holder-" + i));
			}
			// A second of issue before the failover, and at least one ID from each holder, however slow the machine.
			Thread.sleep(1_000);
			await().atMost(Duration.ofSeconds(30))
				.until(() -> holders.stream().allMatch((holder) -> holder.count() > 0 || !holder.isRunning()));
			long failoverAt = System.currentTimeMillis();
			failover.run();

			List<Issuer> newcomers = new ArrayList<>();
			for (int i = 0; i < 3; i++) {
				AbstractUidGenerator newcomer = build(set, factories, "newcomer-" + i, i < 2);
				generators.add(newcomer);
				newcomers.add(Issuer.untilRefused(newcomer, "newcomer-" + i));
			}
			// Holders and newcomers side by side for 1.5 s, and until each newcomer has issued.
			Thread.sleep(1_500);
			await().atMost(Duration.ofSeconds(30))
				.until(() -> newcomers.stream().allMatch((newcomer) -> newcomer.count() > 0 || !newcomer.isRunning()));
			for (Issuer newcomer : newcomers) {
				newcomer.stop();
			}
			for (Issuer holder : holders) {
				holder.stop();
			}
			long[][] all = new long[6][];
			for (int i = 0; i < 3; i++) {
				all[i] = holders.get(i).ids();
				all[3 + i] = newcomers.get(i).ids();
				assertThat(all[i]).as("holder %d issued before the failover", i).isNotEmpty();
				assertThat(all[3 + i]).as("newcomer %d issued after its claim", i).isNotEmpty();
				assertThat(LAYOUT.startMillis(minUnit(all[3 + i])))
					.as("newcomer %d issued nothing inside the margin", i)
					.isGreaterThanOrEqualTo(failoverAt + MARGIN.toMillis() - 500);
			}
			assertThat(Duplicates.count(all)).isZero();
			for (int i = 0; i < 3; i++) {
				assertLostOnlyNamingTheFailover(generators.get(i));
			}
		}
		finally {
			generators.forEach(AbstractUidGenerator::close);
			factories.forEach(LettuceConnectionFactory::destroy);
		}
	}

	/**
	 * A holder whose record the new master has (the last renewal had reached the replica) carries on; one whose record
	 * is older there than what it recorded, or gone, has lost its lease, and says that the registry went back and why.
	 */
	private static void assertLostOnlyNamingTheFailover(AbstractUidGenerator holder) {
		UidException failure = holder.status().failure();
		if (failure instanceof WorkerLeaseLostException) {
			assertThat(failure).hasMessageContaining("failed over to a replica");
		}
	}

	private static AbstractUidGenerator build(ThrowawayRedisSentinel set, List<LettuceConnectionFactory> factories,
			String instanceId, boolean cached) {
		LettuceConnectionFactory factory = set.connectionFactory();
		factories.add(factory);
		RedisWorkerIdAssigner assigner = RedisWorkerIdAssigner.builder(factory)
			.keyPrefix("uid-test")
			.namespace("failover")
			.leaseDuration(Duration.ofSeconds(3))
			.heartbeatInterval(Duration.ofMillis(300))
			.registryLossMargin(MARGIN)
			.instanceId(instanceId)
			.build();
		if (cached) {
			return CachedUidGenerator.builder()
				.layout(LAYOUT)
				.clock(UidClock.SYSTEM)
				.workerIdAssigner(assigner)
				.markReservation(RESERVATION)
				.maxAhead(MAX_AHEAD)
				.maxStartupWait(Duration.ofSeconds(10))
				.build();
		}
		return DefaultUidGenerator.builder()
			.layout(LAYOUT)
			.clock(UidClock.SYSTEM)
			.workerIdAssigner(assigner)
			.markReservation(RESERVATION)
			.maxStartupWait(Duration.ofSeconds(10))
			.build();
	}

}
