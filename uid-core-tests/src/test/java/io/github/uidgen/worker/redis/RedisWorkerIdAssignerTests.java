package io.github.uidgen.worker.redis;

import java.time.Duration;
import java.util.Set;
import java.util.stream.Collectors;

import io.github.uidgen.InvalidSettingException;
import io.github.uidgen.testsupport.TestRedis;
import io.github.uidgen.worker.AllWorkerIdsLeasedException;
import io.github.uidgen.worker.WorkerAssignment;
import io.github.uidgen.worker.WorkerLeaseLostException;
import io.github.uidgen.worker.WorkerStoreUnavailableException;
import io.lettuce.core.cluster.SlotHash;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
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

	private RedisWorkerIdAssigner.Builder assigner(String instanceId) {
		return RedisWorkerIdAssigner.builder(this.connectionFactory)
			.keyPrefix("uid-test")
			.namespace(this.namespace)
			.leaseDuration(Duration.ofSeconds(5))
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
				hashTag() + ":server", hashTag() + ":claims");
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

	@Test
	void theFirstClaimOfABrandNewRegistryWaitsOutTheMarginByTheRedisClock() {
		long before = System.currentTimeMillis();
		WorkerAssignment assignment = assigner("first-ever").registryLossMargin(Duration.ofMillis(700))
			.build()
			.assign(1023);
		long after = System.currentTimeMillis();

		long floor = Long.parseLong(this.redis.opsForValue().get(hashTag() + ":generation"));
		assertThat(floor).isGreaterThanOrEqualTo(before + 700);
		assertThat(after).as("claimed only once the margin had passed").isGreaterThanOrEqualTo(floor);
		assertThat(assignment.workerId()).isZero();
		if (assignment.hasMark()) {
			assertThat(assignment.highWaterMarkMillis()).isEqualTo(floor);
		}
	}

	@Test
	void whenRedisLosesItsDataTheHolderLosesItsLeaseAndNothingIsRecreated() {
		TestRedis.markNewRegistry(this.connectionFactory, hashTag());
		RedisWorkerIdAssigner holder = assigner("holder").build();
		long workerId = holder.assign(1023).workerId();
		holder.renew(workerId, MARK);

		assertThat(TestRedis.wipe(this.connectionFactory, hashTag())).isNotEmpty();
		assertThatExceptionOfType(WorkerLeaseLostException.class).isThrownBy(() -> holder.renew(workerId, MARK + 1))
			.withMessageContaining("data was lost");
		assertThat(this.redis.keys(hashTag() + "*")).isEmpty();
		holder.release(workerId, MARK + 2);
		assertThat(this.redis.keys(hashTag() + "*")).isEmpty();
	}

	@Test
	void afterADataLossTheNextClaimStartsNoEarlierThanTheMarginEvenForItsOwnPreviousWorkerId() {
		TestRedis.markNewRegistry(this.connectionFactory, hashTag());
		RedisWorkerIdAssigner before = assigner("survivor").build();
		long workerId = before.assign(1023).workerId();
		long borrowedAhead = System.currentTimeMillis() + 400;
		before.renew(workerId, borrowedAhead);
		TestRedis.wipe(this.connectionFactory, hashTag());

		long wipedAt = System.currentTimeMillis();
		WorkerAssignment after = assigner("survivor").registryLossMargin(Duration.ofMillis(600))
			.build()
			.assign(1023);
		assertThat(after.workerId()).isEqualTo(workerId);
		assertThat(System.currentTimeMillis()).isGreaterThanOrEqualTo(wipedAt + 600).isGreaterThan(borrowedAhead);
		if (after.hasMark()) {
			assertThat(after.highWaterMarkMillis()).isGreaterThanOrEqualTo(wipedAt + 600);
		}
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

	@Test
	void aHolderWhoseRecordHoldsAnOlderMarkThanItRecordedLosesItsLeaseAndNewcomersWaitTheMargin() {
		TestRedis.markNewRegistry(this.connectionFactory, hashTag());
		RedisWorkerIdAssigner holder = assigner("holder").registryLossMargin(Duration.ofMillis(700)).build();
		long workerId = holder.assign(1023).workerId();
		holder.renew(workerId, MARK + 10);
		// The registry's keys written back from an older dump: the same process, an older mark.
		this.redis.opsForHash().put(hashTag() + ":marks", Long.toString(workerId), Long.toString(MARK));

		long rewoundAt = System.currentTimeMillis();
		assertThatExceptionOfType(WorkerLeaseLostException.class).isThrownBy(() -> holder.renew(workerId, MARK + 11))
			.withMessageContaining("went back in time")
			.withMessageContaining("older record of this lease");
		assigner("next").registryLossMargin(Duration.ofMillis(700)).build().assign(1023);
		assertThat(System.currentTimeMillis()).as("the newcomer waited the margin").isGreaterThanOrEqualTo(rewoundAt + 700);
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
		assertThat(assigner.getHeartbeatInterval()).isEqualTo(Duration.ofSeconds(10));
		assertThat(assigner.getRegistryLossMargin()).isEqualTo(Duration.ofSeconds(15));
		assertThat(assigner.getInstanceId()).contains(":pid" + ProcessHandle.current().pid());
		assertThat(assigner.name()).isEqualTo("redis");
	}

	/**
	 * A claim on a live registry costs one probation more than it did: the holders' renewal interval, which is the
	 * heartbeat but never more than 1.5 s (whatever the mark reservation), plus half of it for the round trip, at most
	 * 500 ms. With the defaults that is 2 s, and holders renew every 1.5 s although the heartbeat is 10 s. Claims that
	 * wait the registry-loss margin anyway ({@code registry-trust none}) have none.
	 */
	@Test
	void aClaimIsOnProbationForTheHoldersRenewalIntervalAndARoundTripTwoSecondsByDefault() {
		RedisWorkerIdAssigner defaults = RedisWorkerIdAssigner.builder(this.connectionFactory).build();
		assertThat(defaults.renewInterval()).isEqualTo(Duration.ofMillis(1_500));
		assertThat(defaults.getClaimProbation()).isEqualTo(Duration.ofSeconds(2));
		RedisWorkerIdAssigner shortHeartbeat = assigner("short").heartbeatInterval(Duration.ofMillis(400)).build();
		assertThat(shortHeartbeat.renewInterval()).isEqualTo(Duration.ofMillis(400));
		assertThat(shortHeartbeat.getClaimProbation()).isEqualTo(Duration.ofMillis(600));
		RedisWorkerIdAssigner noTrust = RedisWorkerIdAssigner.builder(this.connectionFactory)
			.registryTrust(RegistryTrust.NONE)
			.build();
		assertThat(noTrust.getClaimProbation()).isZero();
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
