package io.github.uidgen.snowflake;

import java.nio.file.Path;
import java.time.Duration;

import io.github.uidgen.UidClock;
import io.github.uidgen.testsupport.Duplicates;
import io.github.uidgen.testsupport.TestRedis;
import io.github.uidgen.testsupport.ThrowawayRedis;
import io.github.uidgen.worker.WorkerLeaseLostException;
import io.github.uidgen.worker.redis.RedisWorkerIdAssigner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static io.github.uidgen.snowflake.TestGenerators.LAYOUT;
import static io.github.uidgen.snowflake.TestGenerators.maxUnit;
import static io.github.uidgen.snowflake.TestGenerators.minUnit;
import static io.github.uidgen.snowflake.TestGenerators.take;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Redis restarts from an older snapshot (a restore from backup, or a failover to a lagging replica) while a cached
 * generator runs seconds ahead of the clock on worker 0. The snapshot still holds the registry, with worker 0 free
 * and an old mark, so nothing looks lost. The registry must be recognised as gone back in time: the running holder
 * stops, and a newcomer waits the registry-loss margin before it issues anything, so no ID is issued twice.
 */
class RedisRestoredFromSnapshotTests {

	/** How long a holder may take to serve again by itself; only a machine stalled for a minute reaches it. */
	static final Duration RECOVERY_BOUND = Duration.ofSeconds(60);

	private static final Duration MAX_AHEAD = Duration.ofSeconds(4);

	private static final Duration MARK_RESERVATION = Duration.ofMillis(300);

	/** Covers {@link #MAX_AHEAD} plus the reservation, with room for scheduling delays. */
	private static final Duration MARGIN = Duration.ofSeconds(6);

	@Test
	void aHolderWhoseClaimTheRestartLostClaimsAgainAndANewcomerWaitsTheMargin(@TempDir Path dir) throws Exception {
		try (ThrowawayRedis redis = ThrowawayRedis.start(dir.resolve("redis"))) {
			LettuceConnectionFactory connectionFactory = redis.connectionFactory();
			AbstractUidGenerator holder = null;
			AbstractUidGenerator newcomer = null;
			try {
				redis.cli(TestRedis.markNewRegistryCommand("{uid-test:restore}"));
				AbstractUidGenerator earlier = build(connectionFactory, "earlier");
				take(earlier, 1_000);
				earlier.close();
				Path snapshot = redis.snapshot("registry-with-worker-0-free");

				holder = build(connectionFactory, "holder");
				assertThat(holder.status().worker().id()).isEqualTo(earlier.status().worker().id());
				Issuer holding = Issuer.throughRefusals(holder, "holder");
				RedisRestoredInPlaceTests.awaitAhead(holder, 2_000);

				redis.restartFrom(snapshot);
				long restoredAt = System.currentTimeMillis();

				newcomer = build(connectionFactory, "newcomer");
				long[] issuedByNewcomer = take(newcomer, 20_000);
				awaitRecovered(holder);
				long[] issuedOnRecovery = take(holder, 1_000);
				long[] issuedByHolder = holding.stop();

				assertThat(Duplicates.count(issuedByHolder, issuedOnRecovery, issuedByNewcomer)).isZero();
				assertThat(LAYOUT.startMillis(minUnit(issuedByNewcomer)))
					.as("the newcomer issues nothing before the registry-loss margin has passed")
					.isGreaterThanOrEqualTo(restoredAt + MARGIN.toMillis() - 500);
				assertThat(holding.firstRefusal()).as("what the holder's callers were told")
					.isInstanceOf(WorkerLeaseLostException.class)
					.hasMessageContaining("Redis was restarted")
					.hasMessageContaining("lost or rewound data")
					.hasMessageContaining("Claiming a worker ID again");
				assertThat(LAYOUT.startMillis(minUnit(issuedOnRecovery)))
					.as("the holder issues again, and nothing before the registry-loss margin has passed")
					.isGreaterThanOrEqualTo(restoredAt + MARGIN.toMillis() - 500);
				assertThat(holder.status().failure()).isNull();
			}
			finally {
				if (holder != null) {
					holder.close();
				}
				if (newcomer != null) {
					newcomer.close();
				}
				connectionFactory.destroy();
			}
		}
	}

	/**
	 * The snapshot was taken before the registry's first claim: it has the {@code generation} key (set by hand, as
	 * the documentation once advised for a brand-new namespace) and nothing else, no {@code server} key either. After a
	 * restart from it the registry looks brand new, but a holder claimed and issued meanwhile.
	 */
	@Test
	void aNewcomerWaitsTheMarginAfterARestartFromASnapshotTakenBeforeTheFirstClaim(@TempDir Path dir)
			throws Exception {
		try (ThrowawayRedis redis = ThrowawayRedis.start(dir.resolve("redis"))) {
			LettuceConnectionFactory connectionFactory = redis.connectionFactory();
			AbstractUidGenerator holder = null;
			AbstractUidGenerator newcomer = null;
			try {
				redis.cli("SET", "{uid-test:restore}:generation", "0");
				Path snapshot = redis.snapshot("before-the-first-claim");

				holder = build(connectionFactory, "holder");
				Issuer holding = Issuer.untilRefused(holder, "holder");
				RedisRestoredInPlaceTests.awaitAhead(holder, 2_000);

				redis.restartFrom(snapshot);
				long restoredAt = System.currentTimeMillis();

				newcomer = build(connectionFactory, "newcomer");
				long[] issuedByNewcomer = take(newcomer, 20_000);
				holding.awaitRefused(Duration.ofSeconds(10));
				long[] issuedByHolder = holding.stop();

				assertThat(issuedByHolder).isNotEmpty();
				assertThat(Duplicates.count(issuedByHolder, issuedByNewcomer))
					.as("IDs issued by both; the holder issued up to %s ms ahead of the restart, the newcomer (worker "
							+ "%s) from %s ms after it", LAYOUT.startMillis(maxUnit(issuedByHolder)) - restoredAt,
							newcomer.status().worker().id(), LAYOUT.startMillis(minUnit(issuedByNewcomer)) - restoredAt)
					.isZero();
				assertThat(LAYOUT.startMillis(minUnit(issuedByNewcomer)))
					.as("the newcomer issues nothing before the registry-loss margin has passed")
					.isGreaterThanOrEqualTo(restoredAt + MARGIN.toMillis() - 500);
			}
			finally {
				if (holder != null) {
					holder.close();
				}
				if (newcomer != null) {
					newcomer.close();
				}
				connectionFactory.destroy();
			}
		}
	}

	/**
	 * Waits until the generator has claimed again by itself and issues, for at most {@link #RECOVERY_BOUND}: a bound
	 * for a stalled machine, not a promise of speed.
	 */
	static void awaitRecovered(AbstractUidGenerator generator) {
		await().atMost(RECOVERY_BOUND)
			.pollInterval(Duration.ofMillis(10))
			.untilAsserted(() -> {
				assertThat(generator.status().worker().recoveries()).as("recoveries of %s", generator).isPositive();
				assertThat(generator.status().failure()).as("failure of %s", generator).isNull();
			});
	}

	private static AbstractUidGenerator build(LettuceConnectionFactory connectionFactory, String instanceId) {
		RedisWorkerIdAssigner assigner = RedisWorkerIdAssigner.builder(connectionFactory)
			.keyPrefix("uid-test")
			.namespace("restore")
			.leaseDuration(Duration.ofSeconds(3))
			.heartbeatInterval(Duration.ofMillis(200))
			.registryLossMargin(MARGIN)
			.instanceId(instanceId)
			.build();
		return CachedUidGenerator.builder()
			.layout(LAYOUT)
			.clock(UidClock.SYSTEM)
			.workerIdAssigner(assigner)
			.markReservation(MARK_RESERVATION)
			.maxAhead(MAX_AHEAD)
			.maxStartupWait(Duration.ofSeconds(10))
			.build();
	}

}
