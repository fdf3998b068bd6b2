package io.github.uidgen.worker.redis;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.github.uidgen.InvalidSettingException;
import io.github.uidgen.testsupport.TestRedis;
import io.github.uidgen.testsupport.ThrowawayRedis;
import io.github.uidgen.worker.AllWorkerIdsLeasedException;
import io.github.uidgen.worker.WorkerAssignment;
import io.github.uidgen.worker.WorkerAssignmentException;
import io.github.uidgen.worker.WorkerLeaseLostException;
import io.github.uidgen.worker.WorkerStoreUnavailableException;
import io.lettuce.core.cluster.SlotHash;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * What only the Redis assigner has: its keys and their cluster slot, and what it does when the registry is new
 * or Redis lost its data.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RedisWorkerIdAssignerTests {

	private static final long MARK = 1_760_000_000_000L;

	/** What a claim's probation logs: how long it waits, and the longest heartbeat where it is not the claim's own. */
	private static final Pattern PROBATION = Pattern
		.compile(".*(waiting \\d+ ms).*?(, whose longest heartbeat is \\d+ ms)?, a second.*");

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
		this.namespace = TestRedis.uniqueNamespace("redis");
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

	/** A 100 ms heartbeat keeps each claim's probation short (1.2 s); tests of the defaults build their own. */
	private RedisWorkerIdAssigner.Builder assigner(String instanceId) {
		return RedisWorkerIdAssigner.builder(this.connectionFactory)
			.keyPrefix("uid-test")
			.namespace(this.namespace)
			.leaseDuration(Duration.ofSeconds(5))
			.heartbeatInterval(Duration.ofMillis(100))
			.instanceId(instanceId);
	}

	@Test
	void everyKeySharesTheNamespaceHashTagAndSoOneClusterSlotAndNoneExpires() {
		TestRedis.markNewRegistry(this.connectionFactory, hashTag());
		RedisWorkerIdAssigner assigner = assigner("keys").build();
		assertThat(assigner.getKeyTag()).isEqualTo(hashTag());
		long workerId = assigner.assign(1023).workerId();
		assigner.renew(workerId, MARK);

		Set<String> keys = this.redis.keys(hashTag() + "*");
		assertThat(keys).containsExactlyInAnyOrder(hashTag() + ":leases", hashTag() + ":tokens",
				hashTag() + ":holders", hashTag() + ":instances", hashTag() + ":marks", hashTag() + ":generation",
				hashTag() + ":server", hashTag() + ":claims", hashTag() + ":heartbeats");
		assertThat(keys.stream().map(SlotHash::getSlot).collect(Collectors.toSet())).hasSize(1);
		assertThat(keys).allSatisfy((key) -> assertThat(this.redis.getExpire(key)).isEqualTo(-1L));
		assertThat(this.redis.<String, String>opsForHash().get(hashTag() + ":marks", Long.toString(workerId)))
			.isEqualTo(Long.toString(MARK));
	}

	@Test
	void namespacesHandOutWorkerIdsIndependently() {
		TestRedis.markNewRegistry(this.connectionFactory, hashTag());
		String other = TestRedis.uniqueNamespace("other");
		String otherTag = "{uid-test:" + other + "}";
		TestRedis.markNewRegistry(this.connectionFactory, otherTag);
		try {
			assertThat(assigner("a").build().assign(1023).workerId()).isZero();
			assertThat(assigner("a").namespace(other).build().assign(1023).workerId()).isZero();
			assertThat(assigner("b").build().assign(1023).workerId()).isOne();
		}
		finally {
			TestRedis.wipe(this.connectionFactory, otherTag);
		}
	}

	/**
	 * A namespace nobody has used on a Redis that has run for longer than the margin: no holder of a registry this
	 * process lost can still be issuing past the margin, so the claim waits nothing but its probation.
	 */
	@Test
	void aNamespaceUsedForTheFirstTimeOnARedisThatHasRunForAMarginIsClaimedWithoutWaitingTheMargin() {
		long before = System.currentTimeMillis();
		WorkerAssignment assignment = assigner("first-ever").registryLossMargin(Duration.ofMillis(700))
			.build()
			.assign(1023);

		long floor = Long.parseLong(this.redis.opsForValue().get(hashTag() + ":generation"));
		assertThat(floor).as("no wait: the floor is the claim's own time").isLessThan(before + 700);
		assertThat(assignment.workerId()).isZero();
	}

	/**
	 * A namespace found without its generation key on a Redis that started moments ago may have lost its data in that
	 * restart: whatever a holder of the previous process issues on its lease lies before the start plus the margin,
	 * so the first claim waits until then, by the Redis clock. Redis counts its uptime in whole seconds of its clock
	 * (the current second less the second it started in), which overstates it by up to a second: started half way
	 * through a second and asked early in a later one, it says it has run almost half a second longer than it has. The
	 * test starts Redis half way through a second of this machine's clock (Redis's) and claims early in a later
	 * second, where taking the uptime at its word would put the start, and the wait's end, before the real ones.
	 */
	@Test
	void theFirstClaimOnARedisStartedMomentsAgoWaitsUntilItsStartPlusTheMargin(@TempDir Path dir) {
		awaitMillisWithinSecond(System::currentTimeMillis, 500, 600);
		long beforeStart = System.currentTimeMillis();
		try (ThrowawayRedis fresh = ThrowawayRedis.start(dir)) {
			LettuceConnectionFactory factory = fresh.connectionFactory();
			try {
				StringRedisTemplate template = new StringRedisTemplate(factory);
				RedisWorkerIdAssigner assigner = RedisWorkerIdAssigner.builder(factory)
					.keyPrefix("uid-test")
					.namespace(this.namespace)
					.registryLossMargin(Duration.ofSeconds(3))
					.instanceId("first-after-start")
					.build();
				long askedAt = awaitMillisWithinSecond(() -> redisTime(template), 0, 150);
				WorkerAssignment assignment = assigner.assign(1023);
				long after = System.currentTimeMillis();
				long floor = Long.parseLong(template.opsForValue().get(hashTag() + ":generation"));
				assertThat(floor)
					.as("the process's start plus the margin (started after %s, claimed at about %s by its clock)",
							beforeStart, askedAt)
					.isGreaterThanOrEqualTo(beforeStart + 3_000);
				assertThat(after).as("claimed only once the floor had passed").isGreaterThanOrEqualTo(floor);
				assertThat(assignment.highWaterMarkMillis()).isGreaterThanOrEqualTo(floor);
			}
			finally {
				factory.destroy();
			}
		}
	}

	private static long redisTime(StringRedisTemplate template) {
		Long millis = template.execute((RedisCallback<Long>) (connection) -> connection.serverCommands()
			.time(TimeUnit.MILLISECONDS));
		return (millis != null) ? millis : -1;
	}

	/**
	 * Waits, at most two seconds, until a clock's milliseconds within the second are in {@code [from, to)}.
	 * @return the clock's reading then
	 */
	private static long awaitMillisWithinSecond(LongSupplier clock, int from, int to) {
		long[] reading = new long[1];
		await().atMost(Duration.ofSeconds(2)).pollInterval(Duration.ofMillis(2)).until(() -> {
			reading[0] = clock.getAsLong();
			long within = Math.floorMod(reading[0], 1000);
			return within >= from && within < to;
		});
		return reading[0];
	}

	/**
	 * Redis lost the registry while a holder's lease could not have expired: nobody else could take its worker ID, and
	 * with no generation key nobody has claimed since, so the renewal writes the lease and its mark again and the holder
	 * carries on, while newcomers wait the margin (other holders' records are gone).
	 */
	@Test
	void whenRedisLosesItsDataAHolderWhoseLeaseCannotHaveExpiredWritesItAgainAndNewcomersWaitTheMargin() {
		TestRedis.markNewRegistry(this.connectionFactory, hashTag());
		RedisWorkerIdAssigner holder = assigner("holder").registryLossMargin(Duration.ofMillis(700)).build();
		long workerId = holder.assign(1023).workerId();
		holder.renew(workerId, MARK);

		assertThat(TestRedis.wipe(this.connectionFactory, hashTag())).isNotEmpty();
		long wipedAt = System.currentTimeMillis();
		holder.renew(workerId, MARK + 1);
		assertThat(this.redis.opsForHash().get(hashTag() + ":marks", Long.toString(workerId)))
			.isEqualTo(Long.toString(MARK + 1));
		assertThat(this.redis.opsForHash().get(hashTag() + ":holders", Long.toString(workerId))).isEqualTo("holder");
		holder.renew(workerId, MARK + 2);

		WorkerAssignment next = assigner("next").registryLossMargin(Duration.ofMillis(700)).build().assign(1023);
		assertThat(System.currentTimeMillis()).as("the newcomer waited the margin").isGreaterThanOrEqualTo(wipedAt + 700);
		assertThat(next.workerId()).as("the holder's lease was written again").isNotEqualTo(workerId);
	}

	/** A lease that may have expired before the loss may have been someone else's since: it is lost, not re-created. */
	@Test
	void whenRedisLosesItsDataAHolderWhoseLeaseMayHaveExpiredLosesItAndNothingIsRecreated() {
		TestRedis.markNewRegistry(this.connectionFactory, hashTag());
		RedisWorkerIdAssigner holder = assigner("holder").leaseDuration(Duration.ofMillis(300))
			.heartbeatInterval(Duration.ofMillis(100))
			.build();
		long workerId = holder.assign(1023).workerId();
		holder.renew(workerId, MARK);
		await().atMost(Duration.ofSeconds(30))
			.until(() -> this.redis.opsForZSet().score(hashTag() + ":leases", Long.toString(workerId)),
					(expiry) -> expiry != null && redisTime() > expiry.longValue());

		assertThat(TestRedis.wipe(this.connectionFactory, hashTag())).isNotEmpty();
		assertThatExceptionOfType(WorkerLeaseLostException.class).isThrownBy(() -> holder.renew(workerId, MARK + 1))
			.withMessageContaining("data was lost");
		assertThat(this.redis.keys(hashTag() + "*")).isEmpty();
		holder.release(workerId, MARK + 2);
		assertThat(this.redis.keys(hashTag() + "*")).isEmpty();
	}

	/**
	 * With registry-trust none, a claim on a registry that lost its data waits the margin whatever holders do, and
	 * starts after it, even on its own previous worker ID.
	 */
	@Test
	void afterADataLossAClaimThatTrustsNoRegistryStartsNoEarlierThanTheMarginEvenForItsOwnPreviousWorkerId() {
		TestRedis.markNewRegistry(this.connectionFactory, hashTag());
		RedisWorkerIdAssigner before = assigner("survivor").build();
		long workerId = before.assign(1023).workerId();
		long borrowedAhead = System.currentTimeMillis() + 400;
		before.renew(workerId, borrowedAhead);
		TestRedis.wipe(this.connectionFactory, hashTag());

		long wipedAt = System.currentTimeMillis();
		WorkerAssignment after = assigner("survivor").registryLossMargin(Duration.ofMillis(600))
			.registryTrust(RegistryTrust.NONE)
			.build()
			.assign(1023);
		assertThat(after.workerId()).isEqualTo(workerId);
		assertThat(System.currentTimeMillis()).isGreaterThanOrEqualTo(wipedAt + 600).isGreaterThan(borrowedAhead);
		assertThat(after.highWaterMarkMillis()).isGreaterThanOrEqualTo(wipedAt + 600);
	}

	/**
	 * A registry flushed out of a Redis that kept running looks brand new to a newcomer, which claims at once; a
	 * holder that renews during the newcomer's probation finds its worker ID in the newcomer's hands, stops, raises
	 * the worker's mark past what it may have issued and makes claims wait the margin; the newcomer, seeing that at
	 * the end of its probation, starts after that mark.
	 */
	@Test
	void aRegistryFlushedWhileAHolderRunsIsNoticedByTheHolderWithinTheNewcomersProbation() throws Exception {
		TestRedis.markNewRegistry(this.connectionFactory, hashTag());
		RedisWorkerIdAssigner holder = assigner("holder").registryLossMargin(Duration.ofSeconds(2)).build();
		long workerId = holder.assign(1023).workerId();
		holder.renew(workerId, MARK);
		TestRedis.wipe(this.connectionFactory, hashTag());

		RedisWorkerIdAssigner newcomer = assigner("newcomer").registryLossMargin(Duration.ofSeconds(2)).build();
		CompletableFuture<WorkerAssignment> claim = CompletableFuture.supplyAsync(() -> newcomer.assign(1023));
		// The newcomer claims worker ID 0 of what looks like a new registry and stands its probation meanwhile.
		await().atMost(Duration.ofSeconds(30))
			.until(() -> this.redis.opsForHash().get(hashTag() + ":holders", Long.toString(workerId)), "newcomer"::equals);
		long renewedAt = System.currentTimeMillis();
		assertThatExceptionOfType(WorkerLeaseLostException.class).isThrownBy(() -> holder.renew(workerId, MARK + 1))
			.as("the newcomer holds its worker ID now: that is not the holder's to write again")
			.withMessageContaining("lost or rewound data");
		WorkerAssignment next = claim.get(60, TimeUnit.SECONDS);
		assertThat(next.workerId()).isEqualTo(workerId);
		assertThat(next.highWaterMarkMillis()).as("after every ID the holder may have issued")
			.isGreaterThanOrEqualTo(MARK + 1);
		assertThat(Long.parseLong(this.redis.opsForValue().get(hashTag() + ":generation")))
			.as("other claims wait the margin from the holder's renewal")
			.isGreaterThanOrEqualTo(renewedAt + 2_000 - 1_000);
	}

	private long redisTime() {
		return this.redis.execute((RedisCallback<Long>) (connection) -> connection.serverCommands().time());
	}

	@Test
	void aHolderWhoseRecordIsIntactCarriesOnWhenAnotherRedisProcessServesTheRegistryWhileNewcomersWaitTheMargin() {
		TestRedis.markNewRegistry(this.connectionFactory, hashTag());
		RedisWorkerIdAssigner holder = assigner("holder").registryLossMargin(Duration.ofMillis(700)).build();
		long workerId = holder.assign(1023).workerId();
		holder.renew(workerId, MARK);
		// What a restart, a failover or a slot moved to another node looks like to the registry.
		this.redis.opsForValue().set(hashTag() + ":server", "0123456789abcdef0123456789abcdef01234567 - -");

		long changedAt = System.currentTimeMillis();
		holder.renew(workerId, MARK + 1);
		WorkerAssignment next = assigner("next").registryLossMargin(Duration.ofMillis(700)).build().assign(1023);
		assertThat(System.currentTimeMillis()).as("the newcomer waited the margin").isGreaterThanOrEqualTo(changedAt + 700);
		assertThat(next.workerId()).as("the holder's lease is still live").isNotEqualTo(workerId);
		holder.renew(workerId, MARK + 2);
		assertThat(this.redis.opsForHash().get(hashTag() + ":marks", Long.toString(workerId)))
			.isEqualTo(Long.toString(MARK + 2));
	}

	/**
	 * The registry's keys written back from an older dump while the holder's lease could not have expired: its own
	 * token is still there, so nobody claimed the worker ID since, and the renewal raises the mark again and carries
	 * on; newcomers wait the margin, as other holders' records may have gone back too.
	 */
	@Test
	void aHolderWhoseRecordHoldsAnOlderMarkThanItRecordedWritesItAgainAndNewcomersWaitTheMargin() {
		TestRedis.markNewRegistry(this.connectionFactory, hashTag());
		RedisWorkerIdAssigner holder = assigner("holder").registryLossMargin(Duration.ofMillis(700)).build();
		long workerId = holder.assign(1023).workerId();
		holder.renew(workerId, MARK + 10);
		// The registry's keys written back from an older dump: the same process, an older mark.
		this.redis.opsForHash().put(hashTag() + ":marks", Long.toString(workerId), Long.toString(MARK));

		long rewoundAt = System.currentTimeMillis();
		holder.renew(workerId, MARK + 11);
		assertThat(this.redis.opsForHash().get(hashTag() + ":marks", Long.toString(workerId)))
			.isEqualTo(Long.toString(MARK + 11));
		WorkerAssignment next = assigner("next").registryLossMargin(Duration.ofMillis(700)).build().assign(1023);
		assertThat(System.currentTimeMillis()).as("the newcomer waited the margin").isGreaterThanOrEqualTo(rewoundAt + 700);
		assertThat(next.workerId()).isNotEqualTo(workerId);
	}

	/** The same, once the lease may have expired: the worker ID may have been another's meanwhile, so it is lost. */
	@Test
	void aHolderWhoseRecordHoldsAnOlderMarkAndWhoseLeaseMayHaveExpiredLosesItsLease() {
		TestRedis.markNewRegistry(this.connectionFactory, hashTag());
		RedisWorkerIdAssigner holder = assigner("holder").leaseDuration(Duration.ofMillis(300))
			.heartbeatInterval(Duration.ofMillis(100))
			.build();
		long workerId = holder.assign(1023).workerId();
		holder.renew(workerId, MARK + 10);
		this.redis.opsForHash().put(hashTag() + ":marks", Long.toString(workerId), Long.toString(MARK));
		await().atMost(Duration.ofSeconds(30))
			.until(() -> this.redis.opsForZSet().score(hashTag() + ":leases", Long.toString(workerId)),
					(expiry) -> expiry != null && redisTime() > expiry.longValue());

		assertThatExceptionOfType(WorkerLeaseLostException.class).isThrownBy(() -> holder.renew(workerId, MARK + 11))
			.withMessageContaining("went back in time")
			.withMessageContaining("older record of this lease");
	}

	@Test
	void aHolderWhoseClaimVanishedAlthoughItsLeaseCannotHaveExpiredNamesTheLossAndNewcomersWaitTheMargin() {
		TestRedis.markNewRegistry(this.connectionFactory, hashTag());
		RedisWorkerIdAssigner holder = assigner("holder").registryLossMargin(Duration.ofMillis(700)).build();
		long workerId = holder.assign(1023).workerId();
		holder.renew(workerId, MARK);
		this.redis.opsForHash().delete(hashTag() + ":tokens", Long.toString(workerId));

		long lostAt = System.currentTimeMillis();
		assertThatExceptionOfType(WorkerLeaseLostException.class).isThrownBy(() -> holder.renew(workerId, MARK + 1))
			.withMessageContaining("lost or rewound data")
			.withMessageContaining("cannot have expired");
		assigner("next").registryLossMargin(Duration.ofMillis(700)).build().assign(1023);
		assertThat(System.currentTimeMillis()).as("the newcomer waited the margin").isGreaterThanOrEqualTo(lostAt + 700);
	}

	@Test
	void aHolderWhoseLeaseExpiredAndWasTakenSaysSoWithoutBlamingTheRegistry() {
		TestRedis.markNewRegistry(this.connectionFactory, hashTag());
		RedisWorkerIdAssigner holder = assigner("holder").leaseDuration(Duration.ofMillis(300))
			.heartbeatInterval(Duration.ofMillis(100))
			.build();
		long workerId = holder.assign(0).workerId();
		// The only worker ID is leased until the holder's lease runs out, 300 ms after the claim by the Redis clock.
		RedisWorkerIdAssigner taker = assigner("taker").build();
		WorkerAssignment taken = await().atMost(Duration.ofSeconds(30))
			.pollInterval(Duration.ofMillis(50))
			.ignoreExceptionsInstanceOf(AllWorkerIdsLeasedException.class)
			.until(() -> taker.assign(0), (claimed) -> true);
		assertThat(taken.workerId()).isEqualTo(workerId);
		assertThatExceptionOfType(WorkerLeaseLostException.class).isThrownBy(() -> holder.renew(workerId, MARK))
			.withMessageContaining("the lease expired")
			.withMessageContaining("instance 'taker' holds it now");
	}

	@Test
	void unreachableRedisFailsAsStoreUnavailable() {
		LettuceConnectionFactory nowhere = TestRedis.connectionFactory(1);
		try {
			assertThatExceptionOfType(WorkerStoreUnavailableException.class)
				.isThrownBy(() -> RedisWorkerIdAssigner.builder(nowhere).build().assign(1023))
				.withMessageContaining("Cannot reach Redis");
		}
		finally {
			nowhere.destroy();
		}
	}

	@Test
	void defaults() {
		RedisWorkerIdAssigner assigner = RedisWorkerIdAssigner.builder(this.connectionFactory).build();
		assertThat(assigner.getKeyTag()).isEqualTo("{uid:default}");
		assertThat(assigner.getLeaseDuration()).isEqualTo(Duration.ofSeconds(30));
		assertThat(assigner.getHeartbeatInterval()).isEqualTo(Duration.ofMillis(1_500));
		assertThat(assigner.getRegistryLossMargin()).isEqualTo(Duration.ofSeconds(30));
		assertThat(assigner.leaseHold()).as("issue on the lease while Redis does not answer").isEqualTo(Duration.ofSeconds(30));
		assertThat(assigner.getInstanceId()).contains(":pid" + ProcessHandle.current().pid());
		assertThat(assigner.name()).isEqualTo("redis");
	}

	/**
	 * A claim on a live registry stands a probation: the holders' renewal interval, which is the heartbeat (1.5 s
	 * unless set, whatever the lease and mark reservation), plus a second for a renewal that reaches Redis late, plus
	 * half the interval for the round trip, at most 500 ms. With the defaults that is 3 s. A longer heartbeat, set for
	 * a fleet that should renew less often, is kept and lengthens the probation. Claims that wait the registry-loss
	 * margin anyway ({@code registry-trust none}) have none.
	 */
	@Test
	void aClaimIsOnProbationForTheHoldersRenewalIntervalALateRenewalAndARoundTripThreeSecondsByDefault() {
		RedisWorkerIdAssigner defaults = RedisWorkerIdAssigner.builder(this.connectionFactory).build();
		assertThat(defaults.renewInterval()).isEqualTo(Duration.ofMillis(1_500));
		assertThat(defaults.getClaimProbation()).isEqualTo(Duration.ofSeconds(3));
		RedisWorkerIdAssigner shortHeartbeat = assigner("short").heartbeatInterval(Duration.ofMillis(400)).build();
		assertThat(shortHeartbeat.renewInterval()).isEqualTo(Duration.ofMillis(400));
		assertThat(shortHeartbeat.getClaimProbation()).isEqualTo(Duration.ofMillis(1_600));
		RedisWorkerIdAssigner fleet = RedisWorkerIdAssigner.builder(this.connectionFactory)
			.heartbeatInterval(Duration.ofSeconds(3))
			.build();
		assertThat(fleet.renewInterval()).isEqualTo(Duration.ofSeconds(3));
		assertThat(fleet.getClaimProbation()).isEqualTo(Duration.ofMillis(4_500));
		assertThat(RedisWorkerIdAssigner.builder(this.connectionFactory)
			.leaseDuration(Duration.ofMillis(900))
			.build()
			.renewInterval()).as("a third of a lease shorter than 4.5 s").isEqualTo(Duration.ofMillis(300));
		RedisWorkerIdAssigner noTrust = RedisWorkerIdAssigner.builder(this.connectionFactory)
			.registryTrust(RegistryTrust.NONE)
			.build();
		assertThat(noTrust.getClaimProbation()).isZero();
	}

	/**
	 * Each claim declares its heartbeat to the namespace, and a claim stands the probation of the longest heartbeat
	 * declared by a claim not released since: a holder renewing every 2 s is heard by a newcomer that renews every
	 * 100 ms. Once that holder has released its worker ID, its heartbeat no longer counts.
	 */
	@Test
	void aClaimStandsTheProbationOfTheLongestHeartbeatDeclaredInTheNamespaceUntilItsHolderReleases() {
		TestRedis.markNewRegistry(this.connectionFactory, hashTag());
		RedisWorkerIdAssigner slow = assigner("slow").leaseDuration(Duration.ofSeconds(30))
			.heartbeatInterval(Duration.ofSeconds(2))
			.build();
		ListAppender<ILoggingEvent> logged = logged();
		try {
			long slowWorkerId = slow.assign(1023).workerId();
			String heartbeats = hashTag() + ":heartbeats";
			assertThat(this.redis.<String, String>opsForHash().get(heartbeats, Long.toString(slowWorkerId)))
				.isEqualTo("2000");
			long newcomerWorkerId = assigner("newcomer").build().assign(1023).workerId();
			assertThat(probations(logged)).containsExactly("waiting 3500 ms",
					"waiting 3500 ms, whose longest heartbeat is 2000 ms");
			slow.release(slowWorkerId, MARK);
			assertThat(this.redis.opsForHash().hasKey(heartbeats, Long.toString(slowWorkerId))).isFalse();
			logged.list.clear();
			assigner("third").build().assign(1023);
			assertThat(probations(logged))
				.as("the newcomer's 100 ms heartbeat is the longest left (%s)", newcomerWorkerId)
				.containsExactly("waiting 1200 ms");
		}
		finally {
			detach(logged);
		}
	}

	/**
	 * A holder's heartbeat that makes the probation outlast this instance's claim (a lease of 5 s, where the holders
	 * renew every 20 s) is refused with the settings to align, and the worker ID is given back at once. The holder's
	 * declaration is written as its claim writes it, which spares the test that claim's own 21.5 s probation.
	 */
	@Test
	void aProbationLongerThanTheClaimsLeaseIsRefusedAndTheWorkerIdGivenBack() {
		TestRedis.markNewRegistry(this.connectionFactory, hashTag());
		this.redis.opsForHash().put(hashTag() + ":heartbeats", "7", "20000");
		assertThatExceptionOfType(WorkerAssignmentException.class)
			.isThrownBy(() -> assigner("short").build().assign(1023))
			.withMessageContaining("declared a heartbeat of 20000 ms")
			.withMessageContaining("uid.worker.redis.heartbeat-interval");
		assertThat(this.redis.opsForHash().size(hashTag() + ":tokens")).as("the claim was given back").isZero();
	}

	/** Captures what the assigner logs, at INFO (where the probations are logged), and only here. */
	private static ListAppender<ILoggingEvent> logged() {
		ListAppender<ILoggingEvent> logged = new ListAppender<>();
		logged.start();
		Logger logger = (Logger) LoggerFactory.getLogger(RedisWorkerIdAssigner.class);
		logger.setLevel(Level.INFO);
		logger.setAdditive(false);
		logger.addAppender(logged);
		return logged;
	}

	private static void detach(ListAppender<ILoggingEvent> logged) {
		Logger logger = (Logger) LoggerFactory.getLogger(RedisWorkerIdAssigner.class);
		logger.detachAppender(logged);
		logger.setAdditive(true);
		logger.setLevel(null);
	}

	/** The probations the claims logged: how long each waited, and the longest heartbeat where it was not its own. */
	private static List<String> probations(ListAppender<ILoggingEvent> logged) {
		return logged.list.stream()
			.map(ILoggingEvent::getFormattedMessage)
			.filter((message) -> message.contains("the claim's probation"))
			.map((message) -> PROBATION.matcher(message).replaceAll("$1$2"))
			.toList();
	}

	/**
	 * A claim on a live, intact registry starts on the worker's stored mark after its probation: nothing in an intact
	 * registry makes it wait the registry-loss margin, and the probation leaves the mark as it was.
	 */
	@Test
	void aClaimOnALiveIntactRegistryStartsOnTheStoredMarkAfterItsProbation() {
		TestRedis.markNewRegistry(this.connectionFactory, hashTag());
		RedisWorkerIdAssigner first = assigner("first").registryLossMargin(Duration.ofSeconds(30)).build();
		long workerId = first.assign(1023).workerId();
		long mark = System.currentTimeMillis() + 500;
		first.renew(workerId, mark);
		first.release(workerId, mark);
		WorkerAssignment next = assigner("next").registryLossMargin(Duration.ofSeconds(30)).build().assign(1023);
		assertThat(next.workerId()).isEqualTo(workerId);
		assertThat(next.highWaterMarkMillis()).as("no margin, and the probation moved nothing").isEqualTo(mark);
	}

	@Test
	void keyPartsThatWouldBreakTheHashTagAreRefused() {
		assertThatExceptionOfType(InvalidSettingException.class)
			.isThrownBy(() -> RedisWorkerIdAssigner.builder(this.connectionFactory).keyPrefix("uid}{x"))
			.satisfies((ex) -> assertThat(ex.getSetting()).isEqualTo("keyPrefix"))
			.withMessageContaining("hash tag");
		assertThatExceptionOfType(InvalidSettingException.class)
			.isThrownBy(() -> RedisWorkerIdAssigner.builder(this.connectionFactory).namespace("a b"))
			.satisfies((ex) -> assertThat(ex.getSetting()).isEqualTo("namespace"));
		assertThatExceptionOfType(InvalidSettingException.class)
			.isThrownBy(() -> RedisWorkerIdAssigner.builder(this.connectionFactory).namespace(""));
	}

	@Test
	void aHeartbeatThatIsNotShorterThanTheLeaseIsRefused() {
		assertThatExceptionOfType(InvalidSettingException.class)
			.isThrownBy(() -> RedisWorkerIdAssigner.builder(this.connectionFactory)
				.leaseDuration(Duration.ofSeconds(3))
				.heartbeatInterval(Duration.ofSeconds(4))
				.build())
			.withMessageContaining("shorter than the lease duration");
	}

}
