package io.github.uidgen.samples.e2e;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.github.uidgen.UidLayout;
import io.github.uidgen.UidTimeUnit;
import io.github.uidgen.testsupport.TestRedis;
import io.github.uidgen.testsupport.ThrowawayRedis;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code redis} profile against a {@code redis-server} of the test's own. Besides the paused holder: Redis stopped
 * for 20 s and started again on its data, which the instances ride through on their leases without refusing a
 * request; and Redis losing the registry while instances serve: flushed, restarted empty, and restarted from an older
 * snapshot that still holds the registry's {@code generation} key but not every holder's claim. A holder whose own
 * claim the registry lost without anyone claiming its worker ID since writes its lease and mark again and carries
 * on; one whose worker ID the registry shows released (the older snapshot) must stop within seconds (503 naming the
 * lost lease, health DOWN) and serve again by itself as the margin allows; an instance started after the loss must
 * not serve before the registry-loss margin has passed since the loss. After the loss the fleet lists the instances
 * that hold worker IDs now, and {@code parse} of an ID issued before it says that the store's history no longer
 * reaches back so far, and why, rather than naming an instance.
 *
 * <p>The holders run well ahead of the clock when Redis loses the registry, which is what makes the loss
 * dangerous: with three sequence bits (8 IDs per millisecond) the cached generator borrows future time under the
 * clients' load, up to its {@code max-ahead} (4 s here), and records marks up to the reservation (1 s here) beyond. A
 * new holder of one of their worker IDs that started at "now" would repeat their IDs; the 6 s margin covers both. The
 * defaults (10 s and 3 s) would make every scenario wait 30 s for what 6 s shows as well.
 */
class RedisFaultEndToEndTests extends StoreFaultEndToEndTests {

	private static final int SEQ_BITS = 3;

	static final UidLayout RUN_AHEAD_LAYOUT = new UidLayout(UidTimeUnit.MILLISECONDS, LocalDate.of(2025, 1, 1), 41,
			10, SEQ_BITS);

	/** The registry-loss margin: the max-ahead (4 s) plus the mark reservation (1 s), and 1 s to spare. */
	static final Duration MARGIN = Duration.ofSeconds(6);

	/** The holders must be at least this far ahead of the clock when the registry is lost: half their max-ahead. */
	private static final Duration AHEAD = Duration.ofSeconds(2);

	/** Timestamps are milliseconds of one machine's clock; this absorbs the rounding of the steps between. */
	private static final Duration TOLERANCE = Duration.ofSeconds(1);

	/** A store outage that the instances ride through at the default lease (30 s) and skew (2 s). */
	static final Duration OUTAGE = Duration.ofSeconds(20);

	/** How soon after the store's return an instance's renewals must come through again. */
	static final Duration RESUMES_WITHIN = Duration.ofSeconds(5);

	private static final List<String> RUN_AHEAD = List.of("--uid.seq-bits=" + SEQ_BITS, "--uid.cached.boost-power=8",
			"--uid.cached.max-ahead=4s", "--uid.mark.reservation=1s",
			"--uid.worker.redis.registry-loss-margin=" + MARGIN.toSeconds() + "s");

	private ThrowawayRedis redis;

	RedisFaultEndToEndTests() {
		super("redis");
	}

	@Override
	void startStore(Path dir) {
		this.redis = ThrowawayRedis.start(dir);
	}

	@Override
	void stopStore() {
		if (this.redis != null) {
			this.redis.close();
		}
	}

	@Override
	List<String> storeArguments(String namespace) {
		return List.of("--spring.data.redis.port=" + this.redis.port(), "--uid.worker.redis.key-prefix=" + namespace);
	}

	@Override
	List<String> leaseArguments(Duration lease, Duration heartbeat) {
		return List.of("--uid.worker.redis.lease-duration=" + lease.toMillis() + "ms",
				"--uid.worker.redis.heartbeat-interval=" + heartbeat.toMillis() + "ms");
	}

	/**
	 * Marks the namespace as brand new, as the documentation advises, so its first claims need not wait out the
	 * margin.
	 */
	@Override
	void prepareNamespace(String namespace) {
		assertThat(this.redis.cli(TestRedis.markNewRegistryCommand(hashTag(namespace)))).isEqualTo("OK");
	}

	@Test
	@Order(2)
	void flushedRedisHoldersCarryOnAndTheNextInstanceWaitsTheMargin() throws IOException {
		registryLost("flush", this.redis::flushAll);
	}

	@Test
	@Order(3)
	void redisRestartedEmptyHoldersCarryOnAndTheNextInstanceWaitsTheMargin() throws IOException {
		registryLost("empty", this.redis::restartEmpty);
	}

	/**
	 * The dangerous history: X claims a worker ID and stops gracefully (releasing it); Redis is snapshotted; E
	 * claims the released ID and serves under load, ahead of the clock; Redis restarts from the snapshot, whose
	 * {@code generation} key makes the registry look trusted although it has gone back in time. K, whose claim is in
	 * the snapshot, serves throughout. F starts after the restore and claims X's worker ID again.
	 */
	@Test
	@Order(4)
	void redisRestartedFromAnOlderSnapshotStopsTheReleasedHolderAndTheNextInstanceWaitsTheMargin() throws IOException {
		String namespace = namespace("snapshot");
		prepareNamespace(namespace);
		List<SampleProcess> first = launchReady(namespace, RUN_AHEAD, "snapshot-x", "snapshot-k");
		SampleProcess x = first.get(0);
		SampleProcess k = first.get(1);
		long releasedWorkerId = workerId(x);
		long kWorkerId = workerId(k);
		ServedIds served = new ServedIds().add(x.name(), x.client().takeBatches(2, BATCH));
		assertThat(x.stop()).as("X stops gracefully (SIGTERM) and releases worker ID %s", releasedWorkerId)
			.isEqualTo(143);
		Path older = this.redis.snapshot("x-released");

		SampleProcess e = launch("snapshot-e", namespace, RUN_AHEAD).awaitReady(STARTUP);
		assertThat(workerId(e)).as("E claims the worker ID X released").isEqualTo(releasedWorkerId);
		List<SampleProcess> holders = List.of(e, k);
		List<TrafficLoop> traffic = holders.stream().map((holder) -> traffic(holder, BATCH, Duration.ZERO)).toList();
		awaitAhead(holders);

		Instant lostAt = Instant.now();
		this.redis.restartFrom(older);
		Instant backAt = Instant.now();
		String tag = hashTag(namespace);
		assertThat(this.redis.cli("EXISTS", tag + ":generation")).as("the snapshot has the generation key")
			.isEqualTo("1");
		assertThat(this.redis.cli("HGET", tag + ":holders", Long.toString(releasedWorkerId)))
			.as("the snapshot has X, not E, as the last holder of worker ID %s", releasedWorkerId)
			.isEqualTo(instanceId("snapshot-x"));
		SampleProcess f = launch("snapshot-f", namespace, RUN_AHEAD);

		SoftAssertions softly = new SoftAssertions();
		// E's worker ID is released in the snapshot: a newcomer may have claimed it since, so E must stop. K's claim
		// is there with an older mark and nobody else's token: K writes its mark again and carries on.
		assertStopsNamingTheLostLease(softly, e, backAt.plus(STOPS_WITHIN), served.of(e.name()));
		served.add(traffic.get(0).name(), traffic.get(0).stop());
		f.awaitReady(STARTUP.plus(MARGIN));
		served.add(f.name(), f.client().takeBatches(3, BATCH));
		assertWaitedTheMargin(softly, "F (worker ID " + workerId(f) + "), started after the restore,",
				served.of(f.name()), lostAt);
		assertServeAgainByThemselves(softly, List.of(e), lostAt, served);
		served.add(traffic.get(1).name(), traffic.get(1).stop());
		assertCarriedOn(softly, traffic.get(1), lostAt, kWorkerId, served.of(k.name()));
		served.assertNoDuplicates(softly, "by X, K and E before the restore, and by F after it");
		softly.assertAll();
	}

	/**
	 * Two holders serve ahead of the clock and the registry is lost: each holder's next renewal finds its claim gone
	 * with nobody's claim in its place, writes its lease and mark again and carries on, refusing nothing; a successor
	 * started once they have must wait the margin.
	 */
	private void registryLost(String scenario, Runnable loss) throws IOException {
		String namespace = namespace(scenario);
		prepareNamespace(namespace);
		List<SampleProcess> holders = launchReady(namespace, RUN_AHEAD, scenario + "-a", scenario + "-b");
		List<Long> workerIds = holders.stream().map(StoreFaultEndToEndTests::workerId).toList();
		IssuedIds beforeLoss = holders.get(0).client().takeBatches(1, BATCH);
		long issuedBeforeLoss = beforeLoss.toArray()[0];
		assertIssuedBy(holders.get(0), issuedBeforeLoss, instanceId(scenario + "-a"));
		List<TrafficLoop> traffic = holders.stream().map((holder) -> traffic(holder, BATCH, Duration.ZERO)).toList();
		awaitAhead(holders);

		Instant lostAt = Instant.now();
		loss.run();
		// The successor starts once both holders have written their claims again, not in a race with them: one that
		// claimed a holder's worker ID first would make that holder stop (safe, and another test's subject).
		awaitClaimsWrittenAgain(namespace, workerIds);
		SampleProcess successor = launch(scenario + "-c", namespace, RUN_AHEAD);

		SoftAssertions softly = new SoftAssertions();
		ServedIds served = new ServedIds();
		successor.awaitReady(STARTUP.plus(MARGIN));
		served.add(successor.name(), successor.client().takeBatches(3, BATCH));
		traffic.forEach((loop) -> served.add(loop.name(), loop.stop()));
		IssuedIds afterLoss = holders.get(0).client().takeBatches(1, 1);
		served.add(holders.get(0).name(), beforeLoss);
		served.add(holders.get(0).name(), afterLoss);
		assertWhatTheStoreStillKnows(softly, successor, lostAt, issuedBeforeLoss, afterLoss.toArray()[0],
				List.of(scenario + "-a", scenario + "-b", scenario + "-c"));
		for (int i = 0; i < holders.size(); i++) {
			assertCarriedOn(softly, traffic.get(i), lostAt, workerIds.get(i), served.of(holders.get(i).name()));
		}
		assertWaitedTheMargin(softly, "C (worker ID " + workerId(successor) + "), started after the loss,",
				served.of(successor.name()), lostAt);
		softly.assertThat(workerId(successor)).as("C's worker ID; A and B hold %s", workerIds).isNotIn(workerIds);
		served.assertNoDuplicates(softly, "by A and B before and after the loss, and by C after it");
		softly.assertAll();
	}

	/**
	 * Redis stops for 20 s and starts again on the data it had: both generators issue on their leases meanwhile,
	 * refuse nothing, say so in their health, and renew again within seconds of Redis's return.
	 */
	@Test
	@Order(5)
	void redisStoppedForTwentySecondsAndStartedOnItsDataRefusesNothing() throws IOException {
		String namespace = namespace("outage");
		prepareNamespace(namespace);
		List<SampleProcess> holders = List.of(launch("outage-cached", namespace, List.of()),
				launch("outage-default", namespace, List.of("--uid.generator=default")));
		holders.forEach((holder) -> holder.awaitReady(STARTUP));
		List<Long> workerIds = holders.stream().map(StoreFaultEndToEndTests::workerId).toList();
		List<TrafficLoop> traffic = holders.stream()
			.map((holder) -> traffic(holder, 1_000, Duration.ofMillis(20)))
			.toList();
		List<HealthWatch> health = holders.stream().map(this::watchHealth).toList();
		traffic.forEach((loop) -> loop.awaitServed(10, STARTUP));

		Path data = this.redis.snapshot("outage");
		Instant stoppingAt = Instant.now();
		this.redis.stop();
		Instant stoppedAt = Instant.now();
		assertThat(this.redis.process().isAlive()).as("redis-server exited").isFalse();
		SoftAssertions softly = new SoftAssertions();
		for (int i = 0; i < holders.size(); i++) {
			assertHealthAnswersDuringOutage(softly, holders.get(i), health.get(i), stoppedAt, stoppedAt.plus(OUTAGE));
		}
		Waits.until(stoppedAt.plus(OUTAGE));
		this.redis.restartFrom(data);
		Instant backAt = Instant.now();

		health.forEach((watch) -> awaitStoreHeardAgain(softly, watch, backAt, backAt.plus(RESUMES_WITHIN)));
		traffic.forEach((loop) -> loop.awaitServed(loop.answers(TrafficLoop.Answer::ok).size() + 3, STARTUP));
		ServedIds served = new ServedIds();
		traffic.forEach((loop) -> served.add(loop.name(), loop.stop()));
		for (int i = 0; i < holders.size(); i++) {
			assertRodeThrough(softly, traffic.get(i), health.get(i), stoppingAt, backAt);
			assertAllOfWorker(served.of(holders.get(i).name()), DEFAULT_LAYOUT, workerIds.get(i));
		}
		served.assertNoDuplicates(softly, "before, during and after the outage");
		softly.assertAll();
	}

	/**
	 * Checks that the fleet and {@code parse}, asked after the registry was lost, say what is true: the instances
	 * that hold worker IDs now are listed (the holders wrote their claims again), an ID A issued after the loss is A's
	 * open claim, and of an ID A issued before it the store can no longer tell who issued it, and says why.
	 */
	private void assertWhatTheStoreStillKnows(SoftAssertions softly, SampleProcess asked, Instant lostAt,
			long issuedBeforeLoss, long issuedAfterLoss, List<String> holding) throws IOException {
		JsonNode fleet = asked.client().fleet();
		Map<String, Instant> heldSince = new HashMap<>();
		for (JsonNode worker : fleet.path("workers").path("list")) {
			if ("HELD".equals(worker.path("state").asString())) {
				heldSince.put(worker.path("instanceId").asString(), Instant.parse(worker.path("heldSince").asString()));
			}
		}
		softly.assertThat(heldSince.keySet())
			.as("the instances the fleet lists as holders after the loss: %s", fleet)
			.containsExactlyInAnyOrderElementsOf(holding.stream().map(this::instanceId).toList());
		softly.assertThat(heldSince.values())
			.as("every claim the fleet lists was written after the loss at %s: %s", lostAt, fleet)
			.allSatisfy((since) -> assertThat(since).isAfterOrEqualTo(lostAt.minus(TOLERANCE)));
		JsonNode before = asked.client().parse(Long.toString(issuedBeforeLoss)).path("issuedBy");
		softly.assertThat(before.path("instanceId").isNull())
			.as("parse of an ID issued before the loss names no instance: %s", before)
			.isTrue();
		softly.assertThat(before.path("note").asString())
			.as("parse of an ID issued before the loss says why it cannot tell")
			.contains("no longer reaches back so far")
			.contains("lost with the store's data");
		JsonNode after = asked.client().parse(Long.toString(issuedAfterLoss)).path("issuedBy");
		softly.assertThat(after.path("instanceId").asString())
			.as("parse of an ID issued after the loss: %s", after)
			.isEqualTo(instanceId(holding.get(0)));
		softly.assertThat(after.path("claimEnd").asString()).as("%s", after).isEqualTo("OPEN");
	}

	/** Checks that {@code parse} names the instance that issued an ID while the store still has its claim. */
	private static void assertIssuedBy(SampleProcess asked, long uid, String instanceId) throws IOException {
		JsonNode issuedBy = asked.client().parse(Long.toString(uid)).path("issuedBy");
		assertThat(issuedBy.path("instanceId").asString()).as("%s", issuedBy).isEqualTo(instanceId);
	}

	/** Waits until each worker ID's claim is in the registry again, written back by its holder's renewal. */
	private void awaitClaimsWrittenAgain(String namespace, List<Long> workerIds) {
		Instant deadline = Instant.now().plus(RECOVERS_WITHIN);
		for (long workerId : workerIds) {
			String token = Waits.poll(deadline, () -> {
				String reply = this.redis.cli("HGET", hashTag(namespace) + ":tokens", Long.toString(workerId));
				return reply.isEmpty() ? null : reply;
			});
			assertThat(token).as("worker ID %s's claim written again by its holder by %s", workerId, deadline)
				.isNotNull();
		}
	}

	/**
	 * Checks that a holder carried on through the registry's loss: it refused no request from the loss on, and every
	 * ID it served is still of its own worker ID.
	 */
	private static void assertCarriedOn(SoftAssertions softly, TrafficLoop traffic, Instant lostAt, long workerId,
			IssuedIds served) {
		softly.assertThat(traffic.answers((answer) -> !answer.ok() && answer.received().isAfter(lostAt)))
			.as("%s refused nothing after the registry was lost at %s", traffic.name(), lostAt)
			.isEmpty();
		softly.assertThat(traffic.answers((answer) -> answer.ok() && answer.sent().isAfter(lostAt)))
			.as("%s served after the loss", traffic.name())
			.isNotEmpty();
		assertAllOfWorker(served, RUN_AHEAD_LAYOUT, workerId);
	}

	/**
	 * The holders claim a worker ID again by themselves once the margin has passed, and serve again, with health UP,
	 * within seconds of it; what they serve counts for the duplicate check, and none of it lies inside the margin.
	 */
	private static void assertServeAgainByThemselves(SoftAssertions softly, List<SampleProcess> holders,
			Instant lostAt, ServedIds served) throws IOException {
		for (SampleProcess holder : holders) {
			awaitServingAgainAsAnotherWorker(softly, holder, -1, lostAt.plus(MARGIN).plus(RECOVERS_WITHIN),
					served.of(holder.name()));
			IssuedIds again = holder.client().takeBatches(2, BATCH);
			served.add(holder.name(), again);
			assertWaitedTheMargin(softly, holder.name() + " (worker ID " + workerId(holder) + "), serving again,",
					again, lostAt);
		}
	}

	private static void assertWaitedTheMargin(SoftAssertions softly, String who, IssuedIds ids, Instant lostAt) {
		Instant earliest = earliest(ids, RUN_AHEAD_LAYOUT);
		softly.assertThat(earliest)
			.as("%s issued its first ID for %s; the registry was lost at %s, so nothing before %s + %s margin "
					+ "(less %s)", who, earliest, lostAt, lostAt, MARGIN, TOLERANCE)
			.isAfterOrEqualTo(lostAt.plus(MARGIN).minus(TOLERANCE));
	}

	/** Waits until every holder runs at least {@link #AHEAD} ahead of the clock, which the scenarios rely on. */
	private static void awaitAhead(List<SampleProcess> holders) {
		for (SampleProcess holder : holders) {
			Instant deadline = Instant.now().plusSeconds(30);
			long[] ahead = new long[1];
			Long reached = Waits.poll(deadline, () -> {
				try {
					ahead[0] = holder.client().generator().path("aheadOfClockMillis").asLong();
				}
				catch (IOException ex) {
					throw new AssertionError(ex);
				}
				return (ahead[0] >= AHEAD.toMillis()) ? ahead[0] : null;
			});
			assertThat(reached).as("%s runs %s ms ahead of the clock under load; the scenario needs %s", holder.name(),
					ahead[0], AHEAD)
				.isNotNull();
		}
	}

	private static String hashTag(String namespace) {
		return "{" + namespace + ":default}";
	}

}
