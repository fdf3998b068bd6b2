package io.github.uidgen.snowflake;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.github.uidgen.UidClock;
import io.github.uidgen.testsupport.Duplicates;
import io.github.uidgen.testsupport.TestRedis;
import io.github.uidgen.worker.WorkerAssignment;
import io.github.uidgen.worker.WorkerIdAssigner;
import io.github.uidgen.worker.WorkerStoreUnavailableException;
import io.github.uidgen.worker.redis.RedisWorkerIdAssigner;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

import static io.github.uidgen.snowflake.TestGenerators.minUnit;
import static io.github.uidgen.snowflake.TestGenerators.take;
import static io.github.uidgen.snowflake.TestGenerators.unitOf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A generator's mark keeper is frozen past the lease (SIGSTOP, a VM pause, a long GC), while its callers go on or resume
 * before it does, and another instance takes its worker ID meanwhile. Whatever the frozen generator hands out lies
 * within its recorded mark or its lease (the renewal's send time plus the lease less the clock skew), and the newcomer
 * starts after the stored mark and after the lease's expiry, so nothing is issued twice: the cached generator may hand
 * out its ring, the default one issues on the lease, and both stop once the keeper finds the lease lost. Their
 * recovery (on by default) then lets them issue again.
 */
class ResumedAfterPauseTests {

	private static final Duration LEASE = Duration.ofSeconds(1);

	/** Small enough that issue on the lease reaches past the recorded mark before the lease runs out. */
	private static final Duration SKEW = Duration.ofMillis(200);

	private LettuceConnectionFactory connectionFactory;

	private String namespace;

	@BeforeEach
	void connect() {
		this.connectionFactory = TestRedis.connectionFactory();
		this.namespace = TestRedis.uniqueNamespace("pause");
		TestRedis.markNewRegistry(this.connectionFactory, "{uid-test:" + this.namespace + "}");
	}

	@AfterEach
	void wipe() {
		TestRedis.wipe(this.connectionFactory, "{uid-test:" + this.namespace + "}");
		this.connectionFactory.destroy();
	}

	@ParameterizedTest
	@EnumSource(TestGenerators.Kind.class)
	void whatAGeneratorHandsOutWhileItsKeeperIsFrozenNeverMeetsWhatTheNextHolderIssues(TestGenerators.Kind kind)
			throws Exception {
		FreezableAssigner frozen = new FreezableAssigner(assigner("paused"));
		AbstractUidGenerator paused = build(kind, frozen);
		AbstractUidGenerator successor = null;
		try {
			paused.getUID();
			long held = paused.status().worker().id();
			Issuer pausedIssuing = Issuer.throughRefusals(paused, "paused");

			frozen.freeze();
			// The lease runs out by the Redis clock; a newcomer then takes the lowest expired worker ID: this one.
			StringRedisTemplate redis = new StringRedisTemplate(this.connectionFactory);
			String leases = "{uid-test:" + this.namespace + "}:leases";
			await().atMost(Duration.ofSeconds(30))
				.until(() -> redis.opsForZSet().score(leases, Long.toString(held)),
						(expiry) -> expiry != null && redisTime(redis) > expiry.longValue());
			successor = build(kind, assigner("successor"));
			assertThat(successor.status().worker().id()).as("the lease expired and another instance took the worker ID")
				.isEqualTo(held);
			long[] bySuccessor = take(successor, 20_000);
			// The recovery (on by default) may not claim before the loss is looked at.
			frozen.holdClaims();
			frozen.thaw();
			await().atMost(Duration.ofSeconds(30))
				.until(() -> paused.status().worker().leaseLost() || paused.status().worker().id() != held);
			long[] byPaused = pausedIssuing.stop();

			assertThat(byPaused).as("the paused generator issued while frozen").isNotEmpty();
			assertThat(Duplicates.count(byPaused, bySuccessor)).as("IDs issued by both").isZero();
			assertThat(minUnit(bySuccessor)).as("the successor starts after everything the paused one may issue")
				.isGreaterThan(maxUnitOf(byPaused, held));
			frozen.allowClaims();
			// Once claims succeed it issues again, on whatever worker ID is free by then.
			await().atMost(Duration.ofSeconds(30)).until(() -> paused.status().failure() == null);
			paused.getUID();
		}
		finally {
			frozen.thaw();
			paused.close();
			if (successor != null) {
				successor.close();
			}
		}
	}

	private AbstractUidGenerator build(TestGenerators.Kind kind, WorkerIdAssigner assigner) {
		return switch (kind) {
			case DEFAULT -> DefaultUidGenerator.builder()
				.layout(TestGenerators.LAYOUT)
				.clock(UidClock.SYSTEM)
				.workerIdAssigner(assigner)
				.markReservation(Duration.ofMillis(200))
				.maxClockSkew(SKEW)
				.build();
			case CACHED -> CachedUidGenerator.builder()
				.layout(TestGenerators.LAYOUT)
				.clock(UidClock.SYSTEM)
				.workerIdAssigner(assigner)
				.markReservation(Duration.ofMillis(200))
				.maxAhead(TestGenerators.MAX_AHEAD)
				.maxClockSkew(SKEW)
				.build();
		};
	}

	/** The latest unit among the IDs of one worker. */
	private static long maxUnitOf(long[] ids, long workerId) {
		long max = Long.MIN_VALUE;
		for (long id : ids) {
			if (TestGenerators.LAYOUT.decode(id).workerId() == workerId) {
				max = Math.max(max, unitOf(id));
			}
		}
		return max;
	}

	private static long redisTime(StringRedisTemplate redis) {
		return redis.execute((RedisCallback<Long>) (connection) -> connection.serverCommands().time());
	}

	private WorkerIdAssigner assigner(String instanceId) {
		return RedisWorkerIdAssigner.builder(this.connectionFactory)
			.keyPrefix("uid-test")
			.namespace(this.namespace)
			.leaseDuration(LEASE)
			.heartbeatInterval(Duration.ofMillis(200))
			.instanceId(instanceId)
			.build();
	}

	/**
	 * A real assigner whose renewals can be held back, standing for a mark keeper frozen with the rest of its
	 * process.
	 */
	private static final class FreezableAssigner implements WorkerIdAssigner {

		private final WorkerIdAssigner delegate;

		private volatile CountDownLatch frozen = new CountDownLatch(0);

		private volatile boolean claimsHeld;

		FreezableAssigner(WorkerIdAssigner delegate) {
			this.delegate = delegate;
		}

		void freeze() {
			this.frozen = new CountDownLatch(1);
		}

		void thaw() {
			this.frozen.countDown();
		}

		/** Claims fail as the store being out of reach until {@link #allowClaims()}. */
		void holdClaims() {
			this.claimsHeld = true;
		}

		void allowClaims() {
			this.claimsHeld = false;
		}

		@Override
		public WorkerAssignment assign(long maxWorkerId, Duration maxMarkLead) {
			checkClaimsAllowed();
			return this.delegate.assign(maxWorkerId, maxMarkLead);
		}

		@Override
		public WorkerAssignment assign(long maxWorkerId) {
			checkClaimsAllowed();
			return this.delegate.assign(maxWorkerId);
		}

		private void checkClaimsAllowed() {
			if (this.claimsHeld) {
				throw new WorkerStoreUnavailableException("claims are held by the test", null);
			}
		}

		@Override
		public void renew(long workerId, long highWaterMarkMillis) {
			try {
				this.frozen.await(30, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			this.delegate.renew(workerId, highWaterMarkMillis);
		}

		@Override
		public void release(long workerId, long highWaterMarkMillis) {
			this.delegate.release(workerId, highWaterMarkMillis);
		}

		@Override
		public Duration renewInterval() {
			return this.delegate.renewInterval();
		}

		@Override
		public Duration leaseHold() {
			return this.delegate.leaseHold();
		}

		@Override
		public String name() {
			return this.delegate.name();
		}

	}

}
