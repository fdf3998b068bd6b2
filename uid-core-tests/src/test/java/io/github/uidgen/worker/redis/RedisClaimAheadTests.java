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

	private ClaimAheadNamespace registry;

	@BeforeAll
	void connect() {
		this.connectionFactory = TestRedis.connectionFactory();
	}

	@BeforeEach
	void newNamespace() {
		this.registry = ClaimAheadNamespace.create(this.connectionFactory, "ahead");
	}

	@AfterEach
	void wipe() {
		this.registry.wipe();
	}

	@AfterAll
	void disconnect() {
		this.connectionFactory.destroy();
	}

	@Test
	void theFirstAssignReturnsTheClaimMadeAheadAndTheNextClaimsAnew() {
		RedisWorkerIdAssigner assigner = this.registry.assigner("ahead-a");
		assigner.claimAhead(1023).run();
		assertThat(this.registry.worker(0).state()).isEqualTo(WorkerState.HELD);

		WorkerAssignment first = assigner.assign(1023, Duration.ZERO);
		assertThat(first.workerId()).isZero();
		assertThat(this.registry.claimsOf(0)).as("claims of worker ID 0").isOne();
		WorkerAssignment second = assigner.assign(1023, Duration.ZERO);
		assertThat(second.workerId()).as("a claim of its own, beside the one it holds").isOne();
	}

	/**
	 * A cached generator that ran ahead of the clock leaves its worker ID with a mark ahead when it stops; the claim
	 * ahead must pick what a generator at its defaults would (that worker ID), not pass over it for a new one.
	 */
	@Test
	void aClaimAheadTakesAReleasedWorkerIdWhoseMarkLiesAheadAsTheGeneratorWould() {
		RedisWorkerIdAssigner previous = this.registry.assigner("previous");
		long workerId = previous.assign(1023).workerId();
		long ahead = System.currentTimeMillis() + 5_000;
		previous.renew(workerId, ahead);
		previous.release(workerId, ahead);

		RedisWorkerIdAssigner assigner = this.registry.assigner("ahead-e");
		assigner.claimAhead(1023).run();
		WorkerAssignment taken = assigner.assign(1023, Duration.ofSeconds(20));
		assertThat(taken.workerId()).as("the released worker ID").isEqualTo(workerId);
		assertThat(taken.highWaterMarkMillis()).isGreaterThanOrEqualTo(ahead);
		assertThat(this.registry.claimsOf(workerId))
			.as("claims of worker ID %s: the previous one and the claim ahead", workerId)
			.isEqualTo(2);
	}

	@Test
	void aClaimAheadBeyondTheLayoutIsGivenBackBeforeTheGeneratorClaims() {
		this.registry.assigner("holder").assign(1023);
		RedisWorkerIdAssigner assigner = this.registry.assigner("ahead-b");
		assigner.claimAhead(1023).run();
		assertThat(this.registry.worker(1).state()).isEqualTo(WorkerState.HELD);

		// A layout with one worker ID, held by someone else: the claim ahead (worker ID 1) does not fit.
		assertThatExceptionOfType(AllWorkerIdsLeasedException.class).isThrownBy(() -> assigner.assign(0));
		assertThat(this.registry.worker(1).state()).isEqualTo(WorkerState.RELEASED);
	}

	@Test
	void aClaimAheadNobodyTookIsGivenBack() {
		RedisWorkerIdAssigner assigner = this.registry.assigner("ahead-c");
		Runnable claim = assigner.claimAhead(1023);
		Thread thread = new Thread(claim, "claim-ahead");
		thread.start();
		// Waits for the claim under way, then gives it back.
		assigner.abandonClaimAhead();
		assertThat(this.registry.worker(0).state()).isEqualTo(WorkerState.RELEASED);
		assertThat(assigner.assign(1023, Duration.ZERO).workerId()).as("claims as if there had been none").isZero();
	}

	@Test
	void oneClaimAheadAtATime() {
		RedisWorkerIdAssigner assigner = this.registry.assigner("ahead-d");
		assigner.claimAhead(1023).run();
		assertThatExceptionOfType(IllegalStateException.class).isThrownBy(() -> assigner.claimAhead(1023));
		assigner.abandonClaimAhead();
	}

}
