package io.github.uidgen.worker.redis;

import java.time.Duration;

import io.github.uidgen.testsupport.TestRedis;
import io.github.uidgen.worker.AllWorkerIdsLeasedException;
import io.github.uidgen.worker.WorkerAssignment;
import io.github.uidgen.worker.fleet.WorkerState;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A claim made ahead of the generator ({@link RedisWorkerIdAssigner#claimAhead(long)}, which the starter runs while
 * the application context is built) is what the first {@code assign} returns when it fits, is given back when it does
 * not, and is given back when nobody takes it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RedisClaimAheadTests {

	private LettuceConnectionFactory connectionFactory;

	private String namespace;

	@BeforeAll
	void connect() {
		this.connectionFactory = TestRedis.connectionFactory();
	}

	@BeforeEach
	void newNamespace() {
		this.namespace = TestRedis.uniqueNamespace("ahead");
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

	@Test
	void theFirstAssignReturnsTheClaimMadeAheadAndTheNextClaimsAnew() {
		RedisWorkerIdAssigner assigner = assigner("ahead-a");
		assigner.claimAhead(1023).run();
		assertThat(state(0)).isEqualTo(WorkerState.HELD);

		WorkerAssignment first = assigner.assign(1023, Duration.ZERO);
		assertThat(first.workerId()).isZero();
		assertThat(claimsOf(0)).as("claims of worker ID 0").isOne();
		WorkerAssignment second = assigner.assign(1023, Duration.ZERO);
		assertThat(second.workerId()).as("a claim of its own, beside the one it holds").isOne();
	}

	/**
	 * A cached generator that ran ahead of the clock leaves its worker ID with a mark ahead when it stops; the claim
	 * ahead must pick what a generator at its defaults would (that worker ID), not pass over it for a new one.
	 */
	@Test
	void aClaimAheadTakesAReleasedWorkerIdWhoseMarkLiesAheadAsTheGeneratorWould() {
		RedisWorkerIdAssigner previous = assigner("previous");
		long workerId = previous.assign(1023).workerId();
		long ahead = System.currentTimeMillis() + 5_000;
		previous.renew(workerId, ahead);
		previous.release(workerId, ahead);

		RedisWorkerIdAssigner assigner = assigner("ahead-e");
		assigner.claimAhead(1023).run();
		WorkerAssignment taken = assigner.assign(1023, Duration.ofSeconds(20));
		assertThat(taken.workerId()).as("the released worker ID").isEqualTo(workerId);
		assertThat(taken.highWaterMarkMillis()).isGreaterThanOrEqualTo(ahead);
		assertThat(claimsOf(workerId)).as("claims of worker ID %s: the previous one and the claim ahead", workerId)
			.isEqualTo(2);
	}

	@Test
	void aClaimAheadBeyondTheLayoutIsGivenBackBeforeTheGeneratorClaims() {
		assigner("holder").assign(1023);
		RedisWorkerIdAssigner assigner = assigner("ahead-b");
		assigner.claimAhead(1023).run();
		assertThat(state(1)).isEqualTo(WorkerState.HELD);

		// A layout with one worker ID, held by someone else: the claim ahead (worker ID 1) does not fit.
		assertThatExceptionOfType(AllWorkerIdsLeasedException.class).isThrownBy(() -> assigner.assign(0));
		assertThat(state(1)).isEqualTo(WorkerState.RELEASED);
	}

	@Test
	void aClaimAheadNobodyTookIsGivenBack() {
		RedisWorkerIdAssigner assigner = assigner("ahead-c");
		Runnable claim = assigner.claimAhead(1023);
		Thread thread = new Thread(claim, "claim-ahead");
		thread.start();
		// Waits for the claim under way, then gives it back.
		assigner.abandonClaimAhead();
		assertThat(state(0)).isEqualTo(WorkerState.RELEASED);
		assertThat(assigner.assign(1023, Duration.ZERO).workerId()).as("claims as if there had been none").isZero();
	}

	@Test
	void oneClaimAheadAtATime() {
		RedisWorkerIdAssigner assigner = assigner("ahead-d");
		assigner.claimAhead(1023).run();
		assertThatExceptionOfType(IllegalStateException.class).isThrownBy(() -> assigner.claimAhead(1023));
		assigner.abandonClaimAhead();
	}

	private String hashTag() {
		return "{uid-test:" + this.namespace + "}";
	}

	/** A 100 ms heartbeat keeps each claim's probation short (1.2 s). */
	private RedisWorkerIdAssigner assigner(String instanceId) {
		return RedisWorkerIdAssigner.builder(this.connectionFactory)
			.keyPrefix("uid-test")
			.namespace(this.namespace)
			.leaseDuration(Duration.ofSeconds(5))
			.heartbeatInterval(Duration.ofMillis(100))
			.instanceId(instanceId)
			.build();
	}

	private WorkerState state(long workerId) {
		return assigner("reader").fleet()
			.orElseThrow()
			.read(10)
			.workers()
			.stream()
			.filter((worker) -> worker.workerId() == workerId)
			.findFirst()
			.orElseThrow()
			.state();
	}

	private int claimsOf(long workerId) {
		return assigner("reader").fleet().orElseThrow().history(workerId).claims().size();
	}

}
