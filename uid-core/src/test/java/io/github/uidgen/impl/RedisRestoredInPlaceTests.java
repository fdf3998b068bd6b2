package io.github.uidgen.impl;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.github.uidgen.UidClock;
import io.github.uidgen.testsupport.Duplicates;
import io.github.uidgen.testsupport.TestRedis;
import io.github.uidgen.testsupport.ThrowawayRedis;
import io.github.uidgen.worker.redis.RedisWorkerIdAssigner;
import io.github.uidgen.worker.redis.RegistryTrust;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static io.github.uidgen.impl.TestGenerators.LAYOUT;
import static io.github.uidgen.impl.TestGenerators.maxUnit;
import static io.github.uidgen.impl.TestGenerators.minUnit;
import static io.github.uidgen.impl.TestGenerators.take;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * An older dump of the registry's keys is written back into the running Redis ({@code RESTORE … REPLACE}), as a
 * restore or a key-copying migration tool does, while a cached generator issues seconds ahead of the clock on worker
 * 0: the same process, the same {@code run_id}, and a registry in which worker 0 is free with an old mark. Nothing in
 * it tells a newcomer that it went back in time; only a newcomer that waits the registry-loss margin at every claim
 * is sure to issue no ID the holder issued.
 */
class RedisRestoredInPlaceTests {

	private static final String TAG = "{uid-test:in-place}";

	private static final List<String> KEYS = List.of(TAG + ":leases", TAG + ":tokens", TAG + ":holders",
			TAG + ":instances", TAG + ":marks", TAG + ":generation", TAG + ":server");

	private static final Duration MAX_AHEAD = Duration.ofSeconds(2);

	private static final Duration MARK_RESERVATION = Duration.ofMillis(300);

	/** Covers {@link #MAX_AHEAD} plus the reservation, with room for scheduling delays. */
	private static final Duration MARGIN = Duration.ofSeconds(3);

	/**
	 * With {@code registry-trust none} every claim waits the margin: the newcomer gets the holder's worker ID from the
	 * restored registry, but issues nothing the holder may have issued.
	 */
	@Test
	void withNoTrustANewcomerRepeatsNoIdOfAHolderWhoseClaimARestoreInPlaceUndid(@TempDir Path dir) throws Exception {
		Outcome outcome = restoreInPlaceWhileAHolderIssues(dir, RegistryTrust.NONE);
		assertThat(outcome.newcomerWorkerId()).as("the restored registry has the holder's worker ID free")
			.isEqualTo(outcome.holderWorkerId());
		assertThat(outcome.duplicates()).as("IDs issued by both: %s", outcome).isZero();
		assertThat(outcome.newcomerFirstMillis()).as("the newcomer waited the margin: %s", outcome)
			.isGreaterThanOrEqualTo(outcome.restoredAt() + MARGIN.toMillis() - 500);
	}

	/**
	 * The default, {@code registry-trust same-server}, trusts a registry the same Redis process wrote, and this one
	 * did: the newcomer starts at once on the holder's worker ID and repeats IDs the holder issued ahead of the clock,
	 * as docs/worker-ids.md says. If this ever stops being so, the documentation must change with it.
	 */
	@Test
	void byDefaultANewcomerTrustsARegistryRestoredInPlaceAndRepeatsIdsAsDocumented(@TempDir Path dir)
			throws Exception {
		Outcome outcome = restoreInPlaceWhileAHolderIssues(dir, RegistryTrust.SAME_SERVER);
		assertThat(outcome.newcomerWorkerId()).isEqualTo(outcome.holderWorkerId());
		assertThat(outcome.newcomerFirstMillis()).as("the newcomer did not wait: %s", outcome)
			.isLessThan(outcome.restoredAt() + 1_000);
		assertThat(outcome.duplicates()).as("IDs issued by both: %s", outcome).isPositive();
	}

	private Outcome restoreInPlaceWhileAHolderIssues(Path dir, RegistryTrust trust) throws Exception {
		try (ThrowawayRedis redis = ThrowawayRedis.start(dir.resolve("redis"))) {
			LettuceConnectionFactory connectionFactory = redis.connectionFactory();
			AbstractUidGenerator holder = null;
			AbstractUidGenerator newcomer = null;
			try {
				redis.cli(TestRedis.markNewRegistryCommand(TAG));
				AbstractUidGenerator earlier = build(connectionFactory, "earlier", RegistryTrust.SAME_SERVER);
				take(earlier, 1_000);
				earlier.close();
				Map<String, byte[]> dump = redis.dump(KEYS);

				holder = build(connectionFactory, "holder", RegistryTrust.SAME_SERVER);
				assertThat(holder.status().worker().id()).isEqualTo(earlier.status().worker().id());
				Issuer holding = Issuer.untilRefused(holder, "holder");
				awaitAhead(holder, 1_200);

				String runId = redis.runId();
				redis.restoreInPlace(KEYS, dump);
				assertThat(redis.runId()).as("the same Redis process").isEqualTo(runId);
				long restoredAt = System.currentTimeMillis();

				newcomer = build(connectionFactory, "newcomer", trust);
				long[] issuedByNewcomer = take(newcomer, 20_000);
				assertThat(holding.awaitRefused(Duration.ofSeconds(10))).as("the holder stops").isTrue();
				long[] issuedByHolder = holding.stop();
				assertThat(issuedByHolder).isNotEmpty();
				return new Outcome(holder.status().worker().id(), newcomer.status().worker().id(), restoredAt,
						LAYOUT.startMillis(maxUnit(issuedByHolder)), LAYOUT.startMillis(minUnit(issuedByNewcomer)),
						Duplicates.count(issuedByHolder, issuedByNewcomer));
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

	/** What the holder and the newcomer issued, in wall-clock milliseconds. */
	private record Outcome(long holderWorkerId, long newcomerWorkerId, long restoredAt, long holderLastMillis,
			long newcomerFirstMillis, long duplicates) {

		@Override
		public String toString() {
			return "holder on worker " + this.holderWorkerId + " issued up to " + (this.holderLastMillis - this.restoredAt)
					+ " ms past the restore, newcomer on worker " + this.newcomerWorkerId + " from "
					+ (this.newcomerFirstMillis - this.restoredAt) + " ms past it, " + this.duplicates + " duplicates";
		}

	}

	static void awaitAhead(AbstractUidGenerator generator, long aheadMillis) throws InterruptedException {
		long deadline = System.currentTimeMillis() + 10_000;
		while (generator.status().aheadOfClock().toMillis() < aheadMillis && System.currentTimeMillis() < deadline) {
			Thread.sleep(20);
		}
		assertThat(generator.status().aheadOfClock().toMillis()).as("the holder borrowed ahead of the clock")
			.isGreaterThanOrEqualTo(aheadMillis);
	}

	private static AbstractUidGenerator build(LettuceConnectionFactory connectionFactory, String instanceId,
			RegistryTrust trust) {
		RedisWorkerIdAssigner assigner = RedisWorkerIdAssigner.builder(connectionFactory)
			.keyPrefix("uid-test")
			.namespace("in-place")
			.leaseDuration(Duration.ofSeconds(3))
			.heartbeatInterval(Duration.ofMillis(200))
			.registryLossMargin(MARGIN)
			.registryTrust(trust)
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
