package io.github.uidgen.worker;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.fail;

/**
 * The contract every worker-ID assigner passes against its real store: claim, renew, release, reuse by the same
 * instance, marks that persist and never decrease, concurrent claimants that never share an ID, and overflow.
 * Lease assigners pass {@link AbstractLeaseWorkerIdAssignerContractTests} on top.
 */
abstract class AbstractWorkerIdAssignerContractTests {

	/** A layout's largest worker ID, roomy enough for every claim a test makes. */
	static final long MAX_WORKER_ID = 1023;

	static final long MARK = 1_760_000_000_000L;

	/**
	 * Creates an assigner as an instance starting on this test's store would.
	 * @param instanceId the instance's identity; the same after a restart
	 */
	abstract WorkerIdAssigner newAssigner(String instanceId);

	/**
	 * Returns an assigner whose claim must overflow a layout with the given largest worker ID, after taking what
	 * it takes to get there.
	 */
	abstract WorkerIdAssigner overflowingAssigner(long maxWorkerId);

	/** How many of 16 concurrent claimants get a worker ID. */
	abstract int concurrentWinnersOf(int claimants);

	@Test
	void claimsAWorkerIdWithinTheLayoutAndWithoutAMarkAtFirst() {
		WorkerIdAssigner assigner = newAssigner("first");
		WorkerAssignment assignment = assigner.assign(MAX_WORKER_ID);
		try {
			assertThat(assignment.workerId()).isBetween(0L, MAX_WORKER_ID);
			assertThat(assignment.hasMark()).isFalse();
			assertThat(assigner.name()).isNotBlank();
		}
		finally {
			assigner.release(assignment.workerId(), WorkerAssignment.NO_MARK);
		}
	}

	@Test
	void renewedMarkIsPersistedAndReadBackByTheNextClaimOfTheSameInstance() {
		WorkerIdAssigner first = newAssigner("restarting");
		long workerId = first.assign(MAX_WORKER_ID).workerId();
		first.renew(workerId, MARK);
		first.renew(workerId, MARK + 3_000);
		first.release(workerId, MARK + 2_000);

		WorkerIdAssigner restarted = newAssigner("restarting");
		WorkerAssignment again = restarted.assign(MAX_WORKER_ID);
		try {
			assertThat(again.workerId()).isEqualTo(workerId);
			assertThat(again.highWaterMarkMillis()).isEqualTo(MARK + 3_000);
		}
		finally {
			restarted.release(again.workerId(), WorkerAssignment.NO_MARK);
		}
	}

	@Test
	void marksNeverDecrease() {
		WorkerIdAssigner assigner = newAssigner("monotonic");
		long workerId = assigner.assign(MAX_WORKER_ID).workerId();
		assigner.renew(workerId, MARK + 10_000);
		assigner.renew(workerId, MARK + 5_000);
		assigner.release(workerId, MARK);

		WorkerIdAssigner restarted = newAssigner("monotonic");
		WorkerAssignment again = restarted.assign(MAX_WORKER_ID);
		try {
			assertThat(again.workerId()).isEqualTo(workerId);
			assertThat(again.highWaterMarkMillis()).isEqualTo(MARK + 10_000);
		}
		finally {
			restarted.release(again.workerId(), WorkerAssignment.NO_MARK);
		}
	}

	@Test
	void releaseWithoutAMarkKeepsTheStoredMark() {
		WorkerIdAssigner assigner = newAssigner("no-final-mark");
		long workerId = assigner.assign(MAX_WORKER_ID).workerId();
		assigner.renew(workerId, MARK + 42);
		assigner.release(workerId, WorkerAssignment.NO_MARK);

		WorkerIdAssigner restarted = newAssigner("no-final-mark");
		WorkerAssignment again = restarted.assign(MAX_WORKER_ID);
		try {
			assertThat(again.highWaterMarkMillis()).isEqualTo(MARK + 42);
		}
		finally {
			restarted.release(again.workerId(), WorkerAssignment.NO_MARK);
		}
	}

	@Test
	void sixteenConcurrentClaimantsNeverShareAWorkerId() throws Exception {
		int claimants = 16;
		ExecutorService pool = Executors.newFixedThreadPool(claimants);
		CountDownLatch start = new CountDownLatch(1);
		List<WorkerIdAssigner> assigners = new ArrayList<>();
		List<Future<Long>> claims = new ArrayList<>();
		for (int i = 0; i < claimants; i++) {
			WorkerIdAssigner assigner = newAssigner("concurrent-" + i);
			assigners.add(assigner);
			claims.add(pool.submit(() -> {
				start.await();
				return assigner.assign(MAX_WORKER_ID).workerId();
			}));
		}
		start.countDown();
		List<Long> won = new ArrayList<>();
		Long[] winners = new Long[claimants];
		List<Throwable> lost = new ArrayList<>();
		for (int i = 0; i < claimants; i++) {
			try {
				winners[i] = claims.get(i).get(60, TimeUnit.SECONDS);
				won.add(winners[i]);
			}
			catch (ExecutionException ex) {
				lost.add(ex.getCause());
			}
		}
		pool.shutdown();
		try {
			assertThat(won).hasSize(concurrentWinnersOf(claimants));
			assertThat(new HashSet<>(won)).hasSameSizeAs(won);
			assertThat(lost).allSatisfy((ex) -> assertThat(ex).isInstanceOf(WorkerAssignmentException.class));
		}
		finally {
			for (int i = 0; i < claimants; i++) {
				if (winners[i] != null) {
					assigners.get(i).release(winners[i], WorkerAssignment.NO_MARK);
				}
			}
		}
	}

	@Test
	void claimBeyondTheLayoutFailsWithTheCountAndTheFix() {
		long maxWorkerId = 3;
		WorkerIdAssigner assigner = overflowingAssigner(maxWorkerId);
		assertThatExceptionOfType(WorkerIdOutOfRangeException.class).isThrownBy(() -> assigner.assign(maxWorkerId))
			.satisfies((ex) -> {
				assertThat(ex.getMaxWorkerId()).isEqualTo(maxWorkerId);
				assertThat(ex.getWorkerId()).isGreaterThan(maxWorkerId);
				assertThat(ex.getMessage()).contains("0 to 3", "(4 workers)", "worker bits");
			});
	}

	/** Claims and fails the test if the claim fails, for readable setup code. */
	static long claim(WorkerIdAssigner assigner, long maxWorkerId) {
		try {
			return assigner.assign(maxWorkerId).workerId();
		}
		catch (RuntimeException ex) {
			return fail("claim failed", ex);
		}
	}

}
