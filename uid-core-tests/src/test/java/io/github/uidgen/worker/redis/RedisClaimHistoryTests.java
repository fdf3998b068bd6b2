package io.github.uidgen.worker.redis;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;

import io.github.uidgen.testsupport.TestRedis;
import io.github.uidgen.worker.WorkerAssignment;
import io.github.uidgen.worker.WorkerLeaseLostException;
import io.github.uidgen.worker.fleet.ClaimEnd;
import io.github.uidgen.worker.fleet.ClaimHistory;
import io.github.uidgen.worker.fleet.FleetSnapshot;
import io.github.uidgen.worker.fleet.FleetWorker;
import io.github.uidgen.worker.fleet.WorkerClaim;
import io.github.uidgen.worker.support.HostEnvironment;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * What the fleet contract does not cover of the Redis claim history: how the claim's probation and the registry-loss
 * margin show in it, pruning when fewer claims are kept than before, and a record written by hand.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RedisClaimHistoryTests {

	/** A probation of 600 ms: long enough for a test to act within it. */
	private static final Duration HEARTBEAT = Duration.ofMillis(400);

	private static final long MARK = 1_760_000_000_000L;

	/** How long a scenario that needs one interleaving may start over until it has seen it. */
	private static final Duration SCENARIO_BOUND = Duration.ofSeconds(60);

	private LettuceConnectionFactory connectionFactory;

	private StringRedisTemplate redis;

	private String namespace;

	@BeforeAll
	void connect() {
		this.connectionFactory = TestRedis.connectionFactory();
		this.redis = new StringRedisTemplate(this.connectionFactory);
	}

	@BeforeEach
	void newNamespace() {
		this.namespace = TestRedis.uniqueNamespace("history");
		TestRedis.markNewRegistry(this.connectionFactory, hashTag());
	}

	@AfterEach
	void wipe() {
		TestRedis.wipe(this.connectionFactory, hashTag());
	}

	@AfterAll
	void disconnect() {
		this.connectionFactory.destroy();
	}

	private String hashTag() {
		return "{uid-test:" + this.namespace + "}";
	}

	private RedisWorkerIdAssigner.Builder assigner(String instanceId) {
		return RedisWorkerIdAssigner.builder(this.connectionFactory)
			.keyPrefix("uid-test")
			.namespace(this.namespace)
			.leaseDuration(Duration.ofSeconds(10))
			.heartbeatInterval(HEARTBEAT)
			.instanceId(instanceId);
	}

	private ClaimHistory history(RedisWorkerIdAssigner assigner, long workerId) {
		return assigner.fleet().orElseThrow().history(workerId);
	}

	private long redisNow() {
		return this.redis.execute((RedisCallback<Long>) (connection) -> connection.serverCommands().time());
	}

	/**
	 * Runs attempts of a scenario until one has seen the interleaving under test, each after the last in a new
	 * namespace, so that it starts on an empty registry; fails when none has within {@link #SCENARIO_BOUND}.
	 */
	private void startOverUntilSeen(String interleaving, Attempt scenario) throws Exception {
		long giveUpAt = System.nanoTime() + SCENARIO_BOUND.toNanos();
		for (int attempt = 1; !scenario.seen(attempt); attempt++) {
			wipe();
			newNamespace();
			assertThat(System.nanoTime() - giveUpAt).as("%s, within %s", interleaving, SCENARIO_BOUND).isNegative();
		}
	}

	private void awaitClaimed(long workerId, String notToken) {
		await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(5)).until(() -> {
			Object token = this.redis.opsForHash().get(hashTag() + ":tokens", Long.toString(workerId));
			return token != null && !token.equals(notToken);
		});
	}

	/**
	 * A claim given back at the end of its probation (the registry was found lost meanwhile, and nobody raised the
	 * worker's mark) shows as released by the give-back; the claim made again is a claim of its own, which starts
	 * after the margin, as its record says. The margin must be set while the claim is on probation (600 ms here); a
	 * machine that stalls the test past that sees a claim that was not given back, whose record must then agree with
	 * it, and the scenario starts over in a new namespace until the give-back has been seen (bounded).
	 */
	@Test
	void aClaimGivenBackAfterItsProbationIsClosedAsReleasedAndTheNextClaimIsRecordedOnItsOwn() throws Exception {
		startOverUntilSeen("a claim given back at the end of its probation", this::claimGivenBack);
	}

	/** Returns whether the margin was set within the claim's probation, so that it was given back. */
	private boolean claimGivenBack(int attempt) throws Exception {
		String instance = "on-probation-" + attempt;
		RedisWorkerIdAssigner claimant = assigner(instance).build();
		long workerId = 0;
		CompletableFuture<WorkerAssignment> claim = CompletableFuture.supplyAsync(() -> claimant.assign(1023));
		awaitClaimed(workerId, null);
		// What a holder that found its claim lost does: claims wait a margin from now on.
		long floor = redisNow() + 300;
		this.redis.opsForValue().set(hashTag() + ":generation", Long.toString(floor));
		WorkerAssignment assignment = claim.get(30, TimeUnit.SECONDS);
		assertThat(assignment.workerId()).isEqualTo(workerId);

		ClaimHistory history = history(claimant, workerId);
		WorkerClaim latest = history.claims().get(0);
		assertThat(latest.end()).isEqualTo(ClaimEnd.OPEN);
		assertThat(latest.afterMarkMillis()).as("the record starts where the claim does")
			.isEqualTo(assignment.highWaterMarkMillis());
		if (history.claims().size() == 1) {
			// The probation had ended before the margin was set: an ordinary claim, recorded once.
			assertThat(latest.instanceId()).isEqualTo(instance);
			return false;
		}
		assertThat(assignment.highWaterMarkMillis()).as("starts after the margin").isEqualTo(floor);
		assertThat(history.claims()).extracting(WorkerClaim::instanceId).containsExactly(instance, instance);
		WorkerClaim givenBack = history.claims().get(1);
		assertThat(givenBack.end()).isEqualTo(ClaimEnd.RELEASED);
		assertThat(givenBack.to()).as("given back no later than the next claim starts")
			.isNotNull()
			.isBeforeOrEqualTo(latest.from());
		return true;
	}

	/**
	 * A holder whose claim the registry lost raises the worker's mark while a newcomer's claim of it is on probation;
	 * the newcomer starts after that mark, and its record says so, so the IDs up to it are the holder's. The holder's
	 * renewal must come within the probation (600 ms here); a machine that stalls the test past that sees the
	 * newcomer start after the older mark (the cut-off case docs/worker-ids.md describes), whose record must then say
	 * that, and the scenario starts over in a new namespace until the raise has been seen (bounded).
	 */
	@Test
	void aMarkRaisedDuringTheProbationBecomesTheMarkTheClaimFound() throws Exception {
		startOverUntilSeen("a mark raised within the newcomer's probation", this::markRaisedWithinTheProbation);
	}

	/** Returns whether the holder's renewal raised the mark before the newcomer's probation ended. */
	private boolean markRaisedWithinTheProbation(int attempt) throws Exception {
		String holderId = "holder-" + attempt;
		String newcomerId = "newcomer-" + attempt;
		RedisWorkerIdAssigner holder = assigner(holderId).build();
		long workerId = holder.assign(1023).workerId();
		long recorded = redisNow() + 1_000;
		holder.renew(workerId, recorded);
		// The registry goes back to the worker ID released with an older mark, as after a restore of an older dump.
		String token = (String) this.redis.opsForHash().get(hashTag() + ":tokens", Long.toString(workerId));
		this.redis.opsForHash().delete(hashTag() + ":tokens", Long.toString(workerId));
		this.redis.opsForZSet().add(hashTag() + ":leases", Long.toString(workerId), 0);
		this.redis.opsForHash().put(hashTag() + ":marks", Long.toString(workerId), Long.toString(recorded - 5_000));

		RedisWorkerIdAssigner newcomer = assigner(newcomerId).build();
		CompletableFuture<WorkerAssignment> claim = CompletableFuture.supplyAsync(() -> newcomer.assign(1023));
		awaitClaimed(workerId, token);
		assertThatExceptionOfType(WorkerLeaseLostException.class).isThrownBy(() -> holder.renew(workerId, recorded));
		WorkerAssignment assignment = claim.get(30, TimeUnit.SECONDS);
		assertThat(assignment.workerId()).isEqualTo(workerId);

		ClaimHistory history = history(newcomer, workerId);
		assertThat(history.claims()).extracting(WorkerClaim::instanceId).containsExactly(newcomerId, holderId);
		long found = history.claims().get(0).afterMarkMillis();
		assertThat(found).as("the record starts where the claim does").isEqualTo(assignment.highWaterMarkMillis());
		assertThat(found).isIn(recorded, recorded - 5_000);
		assertThat(history.issuerAt(found)).map(WorkerClaim::instanceId).contains(holderId);
		assertThat(history.issuerAt(found + 1)).map(WorkerClaim::instanceId).contains(newcomerId);
		return found == recorded;
	}

	/** With no trust in the registry every claim waits the margin, and its record starts after it, as it does. */
	@Test
	void aClaimThatWaitsTheMarginRecordsTheEndOfTheMarginAsTheMarkItFound() {
		RedisWorkerIdAssigner waiting = assigner("waiting").registryTrust(RegistryTrust.NONE)
			.registryLossMargin(Duration.ofMillis(300))
			.build();
		WorkerAssignment assignment = waiting.assign(1023);
		WorkerClaim claim = history(waiting, assignment.workerId()).claims().get(0);
		assertThat(claim.afterMarkMillis()).isEqualTo(assignment.highWaterMarkMillis());
		assertThat(claim.afterMarkMillis()).isEqualTo(claim.from().toEpochMilli() + 300);
	}

	/** A claim prunes every record beyond what it keeps, also those an assigner that kept more left behind. */
	@Test
	void keepingFewerClaimsThanBeforePrunesTheHashToThatMany() {
		for (int round = 0; round < 6; round++) {
			RedisWorkerIdAssigner holder = assigner("round-" + round).claimHistory((round < 5) ? 5 : 2).build();
			long workerId = holder.assign(1023).workerId();
			assertThat(workerId).isZero();
			holder.release(workerId, MARK + round);
		}
		ClaimHistory history = history(assigner("operator").build(), 0);
		assertThat(history.claims()).extracting(WorkerClaim::instanceId).containsExactly("round-5", "round-4");
		assertThat(this.redis.opsForHash().keys(hashTag() + ":claims")).containsExactlyInAnyOrder("0", "0:6", "0:5");
	}

	/** A record that does not decode (written by hand) is passed over: the claim goes ahead and is recorded. */
	@Test
	void aRecordWrittenByHandDoesNotStopAClaim() {
		this.redis.opsForHash().put(hashTag() + ":claims", "0", "1");
		this.redis.opsForHash().put(hashTag() + ":claims", "0:1", "not json");
		RedisWorkerIdAssigner claimant = assigner("after-hand").build();
		assertThat(claimant.assign(1023).workerId()).isZero();
		ClaimHistory history = history(claimant, 0);
		assertThat(history.claims()).extracting(WorkerClaim::instanceId).containsExactly("after-hand");
	}

	/**
	 * Long lists are read in several short runs of the read script (256 worker IDs or claims each), which together
	 * give the whole list, in order, as one would.
	 */
	@Test
	void longListsAreReadInShortRunsThatTogetherGiveTheWholeList() {
		String claims = hashTag() + ":claims";
		for (int n = 1; n <= 600; n++) {
			this.redis.opsForHash().put(claims, "7:" + n, "{\"i\":\"holder-" + n + "\",\"h\":\"host\",\"f\":\""
					+ (MARK + n) + "\",\"t\":\"\",\"m\":\"\",\"e\":\"released\"}");
		}
		this.redis.opsForHash().put(claims, "7", "600");
		for (int id = 0; id < 700; id++) {
			this.redis.opsForZSet().add(hashTag() + ":leases", Integer.toString(id), 0);
			this.redis.opsForHash().put(hashTag() + ":holders", Integer.toString(id), "instance-" + id);
		}
		RedisWorkerIdAssigner operator = assigner("operator").build();

		ClaimHistory history = history(operator, 7);
		assertThat(history.claims()).hasSize(600);
		assertThat(history.claims().get(0).instanceId()).isEqualTo("holder-600");
		assertThat(history.claims().get(599).instanceId()).isEqualTo("holder-1");
		FleetSnapshot fleet = operator.fleet().orElseThrow().read(650);
		assertThat(fleet.known()).isEqualTo(700);
		assertThat(fleet.workers()).extracting(FleetWorker::workerId)
			.containsExactlyElementsOf(LongStream.range(0, 650).boxed().toList());
		assertThat(fleet.workers().get(649).instanceId()).isEqualTo("instance-649");
		assertThat(operator.fleet().orElseThrow().read(1_000).workers()).hasSize(700);
	}

	/** The fleet lists a worker ID's host and claim time from its newest claim, and says where it read them. */
	@Test
	void theFleetReadsTheHolderFromTheRegistryAndHostAndClaimTimeFromItsNewestClaim() {
		RedisWorkerIdAssigner holder = assigner("listed").build();
		long workerId = holder.assign(1023).workerId();
		FleetSnapshot fleet = holder.fleet().orElseThrow().read(10);
		assertThat(fleet.store()).isEqualTo("redis");
		assertThat(fleet.location()).isEqualTo(hashTag());
		FleetWorker worker = fleet.workers().get(0);
		assertThat(worker.workerId()).isEqualTo(workerId);
		assertThat(worker.host()).isEqualTo(HostEnvironment.current().hostName());
		assertThat(worker.heldSince()).isEqualTo(history(holder, workerId).claims().get(0).from());
	}

	/** One attempt of a scenario that needs one interleaving. */
	@FunctionalInterface
	private interface Attempt {

		/** Runs the attempt, asserting what holds in any interleaving; returns whether it met the one under test. */
		boolean seen(int attempt) throws Exception;

	}

}
