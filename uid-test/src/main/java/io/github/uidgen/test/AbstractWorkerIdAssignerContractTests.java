package io.github.uidgen.test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.github.uidgen.worker.WorkerAssignment;
import io.github.uidgen.worker.WorkerAssignmentException;
import io.github.uidgen.worker.WorkerIdAssigner;
import io.github.uidgen.worker.WorkerIdOutOfRangeException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.fail;

/**
 * The contract every {@link WorkerIdAssigner} passes against its real store: claim, renew, release, reuse by the
 * same instance, marks that persist and never decrease, concurrent claimants that never share an ID, and overflow.
 * Assigners that lease worker IDs pass {@link AbstractLeaseWorkerIdAssignerContractTests} on top.
 *
 * <p>To check an assigner of your own, extend this class (or the lease one) in your tests, say how an instance
 * creates its assigner on the store the test uses, and run it with JUnit Jupiter:
 *
 * <pre class="code">
 * class FileWorkerIdAssignerContractTests extends AbstractWorkerIdAssignerContractTests {
 *
 *     &#64;TempDir
 *     Path folder;
 *
 *     &#64;Override
 *     protected WorkerIdAssigner newAssigner(String instanceId) {
 *         return new FileWorkerIdAssigner(this.folder.resolve("workers"), instanceId);
 *     }
 *
 *     &#64;Override
 *     protected WorkerIdAssigner overflowingAssigner(long maxWorkerId) {
 *         for (long i = 0; i &lt;= maxWorkerId; i++) {
 *             claim(newAssigner("filler-" + i), maxWorkerId);
 *         }
 *         return newAssigner("one-too-many");
 *     }
 *
 *     &#64;Override
 *     protected int concurrentWinnersOf(int claimants) {
 *         return claimants;
 *     }
 *
 * }
 * </pre>
 *
 * Each test starts from the store as the test class leaves it, so give every test a store of its own (a fresh
 * table, namespace or folder, in {@code @BeforeEach}) and clean it up afterwards. The tests assume nothing about which
 * worker ID a claim gets beyond what the contract says, and take at most {@value #MAX_WORKER_ID} + 1 worker IDs.
 */
public abstract class AbstractWorkerIdAssignerContractTests {

	/** A layout's largest worker ID, roomy enough for every claim a test makes. */
	protected static final long MAX_WORKER_ID = 1023;

	/** A high-water mark in epoch milliseconds, late 2025, that the tests record and read back. */
	protected static final long MARK = 1_760_000_000_000L;

	/**
	 * Creates an assigner as an instance starting on this test's store would. Assigners created with the same
	 * instance ID stand for restarts of one instance; different IDs for different instances.
	 * @param instanceId the instance's identity; the same after a restart
	 * @return a new assigner on the test's store
	 */
	protected abstract WorkerIdAssigner newAssigner(String instanceId);

	/**
	 * Returns an assigner whose claim must overflow a layout with the given largest worker ID, after taking what
	 * it takes to get there (claiming every worker ID for a lease assigner, configuring one beyond the maximum for
	 * a fixed one).
	 * @param maxWorkerId the layout's largest worker ID
	 * @return the assigner whose claim must fail
	 */
	protected abstract WorkerIdAssigner overflowingAssigner(long maxWorkerId);

	/**
	 * Returns how many of several instances claiming at once on an empty store get a worker ID: all of them for
	 * an assigner that hands out distinct IDs, one for an assigner configured with a single fixed ID.
	 * @param claimants how many claim at once (16)
	 * @return how many must succeed; the others must fail with {@link WorkerAssignmentException}
	 */
	protected abstract int concurrentWinnersOf(int claimants);

	/** A first claim gets a worker ID within the layout, without a mark. */
	@Test
	public void claimsAWorkerIdWithinTheLayoutAndWithoutAMarkAtFirst() {
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

	/** A renewed mark is stored, and the next claim of the same instance gets the worker ID back with it. */
	@Test
	public void renewedMarkIsPersistedAndReadBackByTheNextClaimOfTheSameInstance() {
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

	/** A lower mark, renewed or at release, never replaces a higher one. */
	@Test
	public void marksNeverDecrease() {
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

	/** A release without a mark keeps the mark stored before. */
	@Test
	public void releaseWithoutAMarkKeepsTheStoredMark() {
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

	/** Sixteen instances claiming at once never share a worker ID; those that get none fail cleanly. */
	@Test
	public void sixteenConcurrentClaimantsNeverShareAWorkerId() throws Exception {
		int claimants = 16;
		ExecutorService pool = Executors.newFixedThreadPool(claimants);
		CountDownLatch start = new CountDownLatch(1);
		List<WorkerIdAssigner> assigners = new ArrayList<>();
		List<Future<Claim>> claims = new ArrayList<>();
		for (int i = 0; i < claimants; i++) {
			WorkerIdAssigner assigner = newAssigner("concurrent-" + i);
			assigners.add(assigner);
			claims.add(pool.submit(() -> {
				start.await();
				long began = System.nanoTime();
				long workerId = assigner.assign(MAX_WORKER_ID).workerId();
				return new Claim(workerId, began, System.nanoTime());
			}));
		}
		start.countDown();
		List<Claim> won = new ArrayList<>();
		Claim[] winners = new Claim[claimants];
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
			for (int i = 0; i < won.size(); i++) {
				for (int j = i + 1; j < won.size(); j++) {
					Claim one = won.get(i);
					Claim other = won.get(j);
					if (one.workerId() == other.workerId()) {
						// Whichever came first, its lease must have had time to run out before the other returned.
						assertThat(mayHaveExpiredBetween(one.began(), other.ended())
								|| mayHaveExpiredBetween(other.began(), one.ended()))
							.as("worker ID %d claimed twice before either claim could have expired", one.workerId())
							.isTrue();
					}
				}
			}
			assertThat(lost).allSatisfy((ex) -> assertThat(ex).isInstanceOf(WorkerAssignmentException.class));
		}
		finally {
			for (int i = 0; i < claimants; i++) {
				if (winners[i] != null) {
					assigners.get(i).release(winners[i].workerId(), WorkerAssignment.NO_MARK);
				}
			}
		}
	}

	/**
	 * Returns whether a claim that began at one instant may have expired by another, so that its worker ID could
	 * rightly be claimed again in between: never for an assigner whose claims do not expire; for a lease assigner
	 * once its lease could have run out (a loaded machine can take longer than a short test lease to finish sixteen
	 * concurrent claims, and nothing renews them here).
	 * @param claimBegan {@link System#nanoTime()} when the first claim was asked for
	 * @param otherClaimEnded {@link System#nanoTime()} when the second claim of the same worker ID returned
	 * @return whether the first claim's lease may have run out in between
	 */
	protected boolean mayHaveExpiredBetween(long claimBegan, long otherClaimEnded) {
		return false;
	}

	private record Claim(long workerId, long began, long ended) {
	}

	/** A claim that would hand out a worker ID beyond the layout fails, saying how many fit and what to change. */
	@Test
	public void claimBeyondTheLayoutFailsWithTheCountAndTheFix() {
		long maxWorkerId = 3;
		WorkerIdAssigner assigner = overflowingAssigner(maxWorkerId);
		assertThatExceptionOfType(WorkerIdOutOfRangeException.class).isThrownBy(() -> assigner.assign(maxWorkerId))
			.satisfies((ex) -> {
				assertThat(ex.getMaxWorkerId()).isEqualTo(maxWorkerId);
				assertThat(ex.getWorkerId()).isGreaterThan(maxWorkerId);
				assertThat(ex.getMessage()).contains("0 to 3", "(4 workers)", "worker bits");
			});
	}

	/**
	 * Claims, and fails the test if the claim fails, for readable setup code.
	 * @param assigner the assigner
	 * @param maxWorkerId the layout's largest worker ID
	 * @return the claimed worker ID
	 */
	protected static long claim(WorkerIdAssigner assigner, long maxWorkerId) {
		try {
			return assigner.assign(maxWorkerId).workerId();
		}
		catch (RuntimeException ex) {
			return fail("claim failed", ex);
		}
	}

}
