package io.github.uidgen.snowflake;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import io.github.uidgen.UidClock;
import io.github.uidgen.UidException;
import io.github.uidgen.testsupport.Duplicates;
import io.github.uidgen.testsupport.TestRedis;
import io.github.uidgen.testsupport.ThrowawayRedis;
import io.github.uidgen.worker.WorkerIdAssigner;
import io.github.uidgen.worker.redis.RedisWorkerIdAssigner;
import io.github.uidgen.worker.redis.RegistryTrust;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static io.github.uidgen.snowflake.TestGenerators.LAYOUT;
import static io.github.uidgen.snowflake.TestGenerators.maxUnit;
import static io.github.uidgen.snowflake.TestGenerators.minUnit;
import static io.github.uidgen.snowflake.TestGenerators.take;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * An older dump of the registry's keys is written back into the running Redis ({@code RESTORE … REPLACE}), as a
 * restore or a key-copying migration tool does, while a cached generator issues seconds ahead of the clock on worker
 * 0: the same process, the same {@code run_id}, and a registry in which worker 0 is free with an old mark. Nothing in
 * it tells a newcomer that it went back in time; the holder finds out at its next renewal. A newcomer issues nothing
 * before its claim has stood one renewal interval of the holders (its probation), by which time the holder has raised
 * the worker's mark to what it reserved, or waits the registry-loss margin at every claim ({@code registry-trust
 * none}); either way it issues no ID the holder issued.
 */
class RedisRestoredInPlaceTests {

	private static final String TAG = "{uid-test:in-place}";

	private static final List<String> KEYS = keys(TAG);

	private static final Duration MAX_AHEAD = Duration.ofSeconds(2);

	private static final Duration MARK_RESERVATION = Duration.ofMillis(300);

	/** The holder's, when the newcomer is to claim before the holder renews: it renews every 500 ms. */
	private static final Duration SLOW_HOLDER_RESERVATION = Duration.ofSeconds(1);

	/** Covers {@link #MAX_AHEAD} plus the holder's reservation, with room for scheduling delays. */
	private static final Duration MARGIN = Duration.ofSeconds(4);

	/**
	 * With {@code registry-trust none} every claim waits the margin: the newcomer gets the holder's worker ID from the
	 * restored registry, but issues nothing the holder may have issued.
	 */
	@Test
	void withNoTrustANewcomerRepeatsNoIdOfAHolderWhoseClaimARestoreInPlaceUndid(@TempDir Path dir) throws Exception {
		Outcome outcome = restoreInPlaceWhileAHolderIssues(dir, RegistryTrust.NONE, false);
		assertThat(outcome.newcomerWorkerId()).as("the restored registry has the holder's worker ID free")
			.isEqualTo(outcome.holderWorkerId());
		assertThat(outcome.duplicates()).as("IDs issued by both: %s", outcome).isZero();
		assertThat(outcome.newcomerFirstMillis()).as("the newcomer waited the margin: %s", outcome)
			.isGreaterThanOrEqualTo(outcome.restoringAt() + MARGIN.toMillis());
	}

	/**
	 * The default, {@code registry-trust same-server}, trusts a registry the same Redis process wrote, and this one
	 * did: a newcomer that claims before any holder has renewed since the restore gets the holder's worker ID at once.
	 * It issues nothing before its claim has stood a renewal interval of the holders, long enough for the holder to
	 * find its claim gone, stop, and raise the worker's mark to what it reserved; the newcomer starts after that mark.
	 */
	@Test
	void byDefaultANewcomerThatClaimsBeforeTheHolderRenewsRepeatsNoIdOfTheHolder(@TempDir Path dir) throws Exception {
		Outcome outcome = restoreInPlaceWhileAHolderIssues(dir, RegistryTrust.SAME_SERVER, false);
		assertThat(outcome.newcomerWorkerId()).isEqualTo(outcome.holderWorkerId());
		assertThat(outcome.holderRefusal()).as("the holder found its claim gone: %s", outcome)
			.hasMessageContaining("cannot have expired");
		assertThat(outcome.duplicates()).as("IDs issued by both: %s", outcome).isZero();
		assertThat(outcome.newcomerFirstMillis()).as("the newcomer started after the holder's last ID: %s", outcome)
			.isGreaterThan(outcome.holderLastMillis());
	}

	/**
	 * The scenario of issue 29 at production defaults: two default generators (lease 30 s, heartbeat 1.5 s, mark
	 * reservation 3 s, registry-loss margin 30 s, 16 IDs a millisecond each); the registry's keys are put back from an
	 * older dump into the same Redis process right after one of the holder's renewals, and a newcomer starts at once
	 * and takes the holder's worker ID. Without a probation both issued with it until the holder's next renewal, about
	 * 1.5 s later (17,000 to 19,000 IDs twice).
	 */
	@Test
	void atDefaultSettingsANewcomerRightAfterARestoreInPlaceRepeatsNoIdOfTheRunningHolder(@TempDir Path dir)
			throws Exception {
		restoreInPlaceRightAfterARenewalOfAHolderWhileANewcomerClaims(dir, null);
	}

	/**
	 * The same with a holder that renews every 4 s, as a large fleet may be set to, and a newcomer at the defaults,
	 * whose own heartbeat (1.5 s) makes a probation of 3 s: the newcomer stands the probation of the longest heartbeat
	 * declared in the namespace, 5.5 s, so the holder's next renewal, 4 s after its last, still comes within it. With
	 * the newcomer's own 3 s both would issue with the worker ID for about a second. The restore leaves the declared
	 * heartbeats as they were, as a dump taken while the fleet ran at that heartbeat holds them.
	 */
	@Test
	void aNewcomerAtDefaultSettingsStandsTheProbationOfAHolderThatRenewsLessOften(@TempDir Path dir)
			throws Exception {
		restoreInPlaceRightAfterARenewalOfAHolderWhileANewcomerClaims(dir, Duration.ofSeconds(4));
	}

	/**
	 * Default generators, the holder's assigner with the given heartbeat ({@code null}: the default); the keys put back
	 * from an older dump right after one of the holder's renewals, the holder's next renewal held until the newcomer
	 * has claimed; the newcomer at the defaults. Asserts that no ID is issued by both.
	 */
	private static void restoreInPlaceRightAfterARenewalOfAHolderWhileANewcomerClaims(Path dir,
			Duration holderHeartbeat) throws Exception {
		String tag = "{uid-test:in-place-defaults}";
		List<String> keys = keys(tag);
		try (ThrowawayRedis redis = ThrowawayRedis.start(dir.resolve("redis"))) {
			LettuceConnectionFactory connectionFactory = redis.connectionFactory();
			AbstractUidGenerator holder = null;
			AbstractUidGenerator newcomer = null;
			try {
				redis.cli(TestRedis.markNewRegistryCommand(tag));
				AbstractUidGenerator earlier = atDefaults(connectionFactory, "earlier");
				take(earlier, 1_000);
				earlier.close();
				Map<String, byte[]> dump = redis.dump(keys);

				RenewalAfterClaim renewals = new RenewalAfterClaim(RedisWorkerIdAssigner.builder(connectionFactory)
					.keyPrefix("uid-test")
					.namespace("in-place-defaults")
					.instanceId("holder")
					.heartbeatInterval(holderHeartbeat)
					.build(), () -> newcomerClaimed(connectionFactory, tag));
				holder = atDefaults(renewals);
				long workerId = holder.status().worker().id();
				assertThat(workerId).isEqualTo(earlier.status().worker().id());
				Issuer holding = Issuer.untilRefused(holder, "holder");
				awaitRenewal(connectionFactory, tag, workerId);
				// The holder's next renewal comes one heartbeat after its last, on its own schedule, but never before
				// the newcomer's claim, however the machine schedules the two.
				renewals.arm();
				redis.restoreInPlace(keys, dump);

				newcomer = atDefaults(connectionFactory, "newcomer");
				assertThat(newcomer.status().worker().id()).as("the restored registry shows the holder's worker free")
					.isEqualTo(workerId);
				Issuer joining = Issuer.untilRefused(newcomer, "newcomer");
				assertThat(holding.awaitRefused(Duration.ofSeconds(10))).as("the holder stops").isTrue();
				// A generous bound: on a loaded machine the newcomer took 16,059 IDs in the first 10 s.
				long deadline = System.currentTimeMillis() + 60_000;
				while (joining.count() < 20_000 && System.currentTimeMillis() < deadline) {
					Thread.sleep(10);
				}
				long[] issuedByNewcomer = joining.stop();
				long[] issuedByHolder = holding.stop();
				assertThat(issuedByNewcomer).hasSizeGreaterThanOrEqualTo(20_000);
				assertThat(issuedByHolder).isNotEmpty();
				assertThat(holding.firstRefusal()).hasMessageContaining("cannot have expired");
				assertThat(Duplicates.count(issuedByHolder, issuedByNewcomer)).as("IDs issued by both").isZero();
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
	 * By default, too, a holder that finds its claim gone from the registry although its lease cannot have expired
	 * knows the registry went back in time, stops, and makes newcomers wait the margin from then on.
	 */
	@Test
	void byDefaultOnceTheHolderHasFoundItsClaimGoneNewcomersWaitTheMarginAndRepeatNothing(@TempDir Path dir)
			throws Exception {
		Outcome outcome = restoreInPlaceWhileAHolderIssues(dir, RegistryTrust.SAME_SERVER, true);
		assertThat(outcome.holderRefusal()).hasMessageContaining("lost or rewound data")
			.hasMessageContaining("cannot have expired");
		assertThat(outcome.duplicates()).as("IDs issued by both: %s", outcome).isZero();
		assertThat(outcome.newcomerFirstMillis()).as("the newcomer waited the margin: %s", outcome)
			.isGreaterThanOrEqualTo(outcome.restoringAt() + MARGIN.toMillis());
	}

	/**
	 * @param afterTheHolderStopped whether the newcomer starts only once the holder has stopped; otherwise right after
	 * the restore, while the holder renews only once a second
	 */
	private Outcome restoreInPlaceWhileAHolderIssues(Path dir, RegistryTrust trust, boolean afterTheHolderStopped)
			throws Exception {
		try (ThrowawayRedis redis = ThrowawayRedis.start(dir.resolve("redis"))) {
			LettuceConnectionFactory connectionFactory = redis.connectionFactory();
			AbstractUidGenerator holder = null;
			AbstractUidGenerator newcomer = null;
			try {
				redis.cli(TestRedis.markNewRegistryCommand(TAG));
				AbstractUidGenerator earlier = build(assigner(connectionFactory, "earlier", RegistryTrust.SAME_SERVER),
						MARK_RESERVATION);
				take(earlier, 1_000);
				earlier.close();
				Map<String, byte[]> dump = redis.dump(KEYS);

				// Unless the newcomer waits for it, the holder renews only every 500 ms, the restore follows one of its
				// renewals at once, and its next renewal waits for the newcomer's claim if it comes first.
				RenewalAfterClaim renewals = new RenewalAfterClaim(assigner(connectionFactory, "holder",
						RegistryTrust.SAME_SERVER), () -> newcomerClaimed(connectionFactory, TAG));
				holder = build(renewals, afterTheHolderStopped ? MARK_RESERVATION : SLOW_HOLDER_RESERVATION);
				// Read now: a holder that finds its lease lost claims another worker ID by itself later.
				long holderWorkerId = holder.status().worker().id();
				assertThat(holderWorkerId).isEqualTo(earlier.status().worker().id());
				Issuer holding = Issuer.untilRefused(holder, "holder");
				awaitAhead(holder, 1_200);

				String runId = redis.runId();
				awaitRenewal(connectionFactory, TAG, holder.status().worker().id());
				if (!afterTheHolderStopped) {
					renewals.arm();
				}
				long restoringAt = System.currentTimeMillis();
				redis.restoreInPlace(KEYS, dump);
				assertThat(redis.runId()).as("the same Redis process").isEqualTo(runId);
				long restoredAt = System.currentTimeMillis();

				if (afterTheHolderStopped) {
					assertThat(holding.awaitRefused(Duration.ofSeconds(10))).as("the holder stops").isTrue();
				}
				newcomer = build(assigner(connectionFactory, "newcomer", trust), MARK_RESERVATION);
				long[] issuedByNewcomer = take(newcomer, 20_000);
				assertThat(holding.awaitRefused(Duration.ofSeconds(10))).as("the holder stops").isTrue();
				long[] issuedByHolder = holding.stop();
				assertThat(issuedByHolder).isNotEmpty();
				return new Outcome(holderWorkerId, newcomer.status().worker().id(), restoringAt,
						restoredAt,
						LAYOUT.startMillis(maxUnit(issuedByHolder)), LAYOUT.startMillis(minUnit(issuedByNewcomer)),
						Duplicates.count(issuedByHolder, issuedByNewcomer), holding.firstRefusal());
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
	 * What the holder and the newcomer issued, in wall-clock milliseconds; the restore ran between
	 * {@code restoringAt} and {@code restoredAt}.
	 */
	private record Outcome(long holderWorkerId, long newcomerWorkerId, long restoringAt, long restoredAt,
			long holderLastMillis, long newcomerFirstMillis, long duplicates, UidException holderRefusal) {

		@Override
		public String toString() {
			return "the restore took " + (this.restoredAt - this.restoringAt) + " ms; holder on worker "
					+ this.holderWorkerId + " issued up to " + (this.holderLastMillis - this.restoringAt)
					+ " ms past its start, newcomer on worker " + this.newcomerWorkerId + " from "
					+ (this.newcomerFirstMillis - this.restoringAt) + " ms past it, " + this.duplicates + " duplicates";
		}

	}

	private static List<String> keys(String tag) {
		return List.of(tag + ":leases", tag + ":tokens", tag + ":holders", tag + ":instances", tag + ":marks",
				tag + ":generation", tag + ":server");
	}

	/** Returns right after the holder's lease expiry in Redis moved on: a renewal has just been made. */
	private static void awaitRenewal(LettuceConnectionFactory connectionFactory, String tag, long workerId)
			throws InterruptedException {
		StringRedisTemplate redis = new StringRedisTemplate(connectionFactory);
		Double before = redis.opsForZSet().score(tag + ":leases", Long.toString(workerId));
		long deadline = System.currentTimeMillis() + 10_000;
		while (Objects.equals(redis.opsForZSet().score(tag + ":leases", Long.toString(workerId)), before)
				&& System.currentTimeMillis() < deadline) {
			Thread.sleep(1);
		}
	}

	/**
	 * Waits until the generator runs that far ahead of the clock, within a minute: a bound for a loaded machine (a CI
	 * run's 2 s ahead took longer than 10 s once), not a promise of speed.
	 */
	static void awaitAhead(AbstractUidGenerator generator, long aheadMillis) throws InterruptedException {
		long deadline = System.currentTimeMillis() + 60_000;
		while (generator.status().aheadOfClock().toMillis() < aheadMillis && System.currentTimeMillis() < deadline) {
			Thread.sleep(20);
		}
		assertThat(generator.status().aheadOfClock().toMillis()).as("the holder borrowed ahead of the clock")
			.isGreaterThanOrEqualTo(aheadMillis);
	}

	/** A default generator on a Redis assigner, every setting at its production default. */
	private static AbstractUidGenerator atDefaults(LettuceConnectionFactory connectionFactory, String instanceId) {
		return atDefaults(RedisWorkerIdAssigner.builder(connectionFactory)
			.keyPrefix("uid-test")
			.namespace("in-place-defaults")
			.instanceId(instanceId)
			.build());
	}

	private static AbstractUidGenerator atDefaults(WorkerIdAssigner assigner) {
		return DefaultUidGenerator.builder().layout(LAYOUT).clock(UidClock.SYSTEM).workerIdAssigner(assigner).build();
	}

	private static RedisWorkerIdAssigner assigner(LettuceConnectionFactory connectionFactory, String instanceId,
			RegistryTrust trust) {
		return RedisWorkerIdAssigner.builder(connectionFactory)
			.keyPrefix("uid-test")
			.namespace("in-place")
			.leaseDuration(Duration.ofSeconds(3))
			.heartbeatInterval(Duration.ofSeconds(1))
			.registryLossMargin(MARGIN)
			.registryTrust(trust)
			.instanceId(instanceId)
			.build();
	}

	/** Whether the registry shows a claim by the instance called newcomer. */
	private static boolean newcomerClaimed(LettuceConnectionFactory connectionFactory, String tag) {
		return new StringRedisTemplate(connectionFactory).opsForHash().hasKey(tag + ":instances", "newcomer");
	}

	private static AbstractUidGenerator build(WorkerIdAssigner assigner, Duration markReservation) {
		return CachedUidGenerator.builder()
			.layout(LAYOUT)
			.clock(UidClock.SYSTEM)
			.workerIdAssigner(assigner)
			.markReservation(markReservation)
			.maxAhead(MAX_AHEAD)
			.maxStartupWait(Duration.ofSeconds(10))
			.build();
	}

}
