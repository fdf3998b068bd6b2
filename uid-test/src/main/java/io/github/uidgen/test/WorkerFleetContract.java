package io.github.uidgen.test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.github.uidgen.worker.WorkerAssignment;
import io.github.uidgen.worker.WorkerIdAssigner;
import io.github.uidgen.worker.fleet.ClaimEnd;
import io.github.uidgen.worker.fleet.ClaimHistory;
import io.github.uidgen.worker.fleet.FleetSnapshot;
import io.github.uidgen.worker.fleet.FleetWorker;
import io.github.uidgen.worker.fleet.WorkerClaim;
import io.github.uidgen.worker.fleet.WorkerFleet;
import io.github.uidgen.worker.fleet.WorkerState;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The part of the lease contract an operator relies on: the store lists every worker ID with its holder, state and
 * mark ({@link WorkerFleet#read(int)}), and keeps each worker ID's claims, written with the claim and closed with the
 * release or by the claim that found the lease expired, bounded in number, so that
 * {@link ClaimHistory#issuerAt(long)} names the instance that issued an ID. Runs as a {@code @Nested} part of
 * {@link AbstractLeaseWorkerIdAssignerContractTests}, on the store (and the fresh namespace) of each test.
 */
public abstract class WorkerFleetContract {

	private static final long MAX_WORKER_ID = AbstractWorkerIdAssignerContractTests.MAX_WORKER_ID;

	private static final long MARK = AbstractWorkerIdAssignerContractTests.MARK;

	/** The lease of the holders these tests let expire. */
	private static final Duration LEASE = AbstractLeaseWorkerIdAssignerContractTests.LEASE;

	private static final Duration PAST_EXPIRY = AbstractLeaseWorkerIdAssignerContractTests.PAST_EXPIRY;

	/** Claims kept per worker ID, unless a test asks for fewer: more than any test makes. */
	private static final int KEEP_MANY = 100;

	/**
	 * Builds an assigner of the store under test.
	 * @param instanceId the instance ID it claims for
	 * @param lease how long its leases last
	 * @param claimHistory how many claims of each worker ID the store keeps
	 * @return a new assigner
	 */
	protected abstract WorkerIdAssigner newAssigner(String instanceId, Duration lease, int claimHistory);

	private WorkerIdAssigner live(String instanceId) {
		return newAssigner(instanceId, AbstractLeaseWorkerIdAssignerContractTests.LIVE_LEASE, KEEP_MANY);
	}

	private static WorkerFleet fleetOf(WorkerIdAssigner assigner) {
		assertThat(assigner.fleet()).as("the fleet of the %s assigner", assigner.name()).isPresent();
		return assigner.fleet().get();
	}

	/** Every holder is listed with its instance, host, claim time, lease expiry and mark; the counts match. */
	@Test
	public void theFleetListsEveryHolderWithItsInstanceHostLeaseAndMark() {
		WorkerIdAssigner a = live("fleet-a");
		WorkerIdAssigner b = live("fleet-b");
		long aId = AbstractWorkerIdAssignerContractTests.claim(a, MAX_WORKER_ID);
		long bId = AbstractWorkerIdAssignerContractTests.claim(b, MAX_WORKER_ID);
		a.renew(aId, MARK + 5);

		FleetSnapshot fleet = fleetOf(a).read(100);
		assertThat(fleet.store()).isNotBlank();
		assertThat(fleet.location()).isNotBlank();
		assertThat(fleet.held()).isEqualTo(2);
		assertThat(fleet.known()).isEqualTo(2);
		assertThat(fleet.truncated()).isFalse();
		assertThat(fleet.workers()).extracting(FleetWorker::workerId).containsExactly(Math.min(aId, bId),
				Math.max(aId, bId));
		FleetWorker held = worker(fleet, aId);
		assertThat(held.state()).isEqualTo(WorkerState.HELD);
		assertThat(held.instanceId()).isEqualTo("fleet-a");
		assertThat(held.host()).isNotBlank();
		assertThat(held.heldSince()).isNotNull();
		assertThat(held.leaseExpiry()).isAfter(held.heldSince());
		assertThat(held.highWaterMarkMillis()).isEqualTo(MARK + 5);
		assertThat(worker(fleet, bId).instanceId()).isEqualTo("fleet-b");
		assertThat(worker(fleet, bId).hasMark()).isFalse();
	}

	/** A released worker ID is listed as released, with the mark of its release; it is no longer counted held. */
	@Test
	public void aReleasedWorkerIdIsListedReleasedWithItsMark() {
		WorkerIdAssigner a = live("leaving");
		long id = AbstractWorkerIdAssignerContractTests.claim(a, MAX_WORKER_ID);
		a.renew(id, MARK);
		a.release(id, MARK + 9);

		FleetSnapshot fleet = fleetOf(a).read(100);
		assertThat(fleet.held()).isZero();
		FleetWorker released = worker(fleet, id);
		assertThat(released.state()).isEqualTo(WorkerState.RELEASED);
		assertThat(released.instanceId()).isEqualTo("leaving");
		assertThat(released.highWaterMarkMillis()).isEqualTo(MARK + 9);
	}

	/** A lease that ran out is listed as expired, with its mark, and no longer counted held. */
	@Test
	public void anExpiredLeaseIsListedExpiredWithItsMark() throws InterruptedException {
		WorkerIdAssigner crashed = newAssigner("crashed", LEASE, KEEP_MANY);
		long id = AbstractWorkerIdAssignerContractTests.claim(crashed, MAX_WORKER_ID);
		crashed.renew(id, MARK + 3);
		Thread.sleep(PAST_EXPIRY.toMillis());

		FleetSnapshot fleet = fleetOf(live("operator")).read(100);
		assertThat(fleet.held()).isZero();
		FleetWorker expired = worker(fleet, id);
		assertThat(expired.state()).isEqualTo(WorkerState.EXPIRED);
		assertThat(expired.instanceId()).isEqualTo("crashed");
		assertThat(expired.highWaterMarkMillis()).isEqualTo(MARK + 3);
	}

	/** The list stops at the number asked for, lowest worker IDs first, while the counts cover every one. */
	@Test
	public void theListIsBoundedButTheCountsAreWhole() {
		List<Long> ids = new ArrayList<>();
		for (int i = 0; i < 3; i++) {
			ids.add(AbstractWorkerIdAssignerContractTests.claim(live("many-" + i), MAX_WORKER_ID));
		}
		ids.sort(null);
		FleetSnapshot fleet = fleetOf(live("operator")).read(2);
		assertThat(fleet.held()).isEqualTo(3);
		assertThat(fleet.known()).isEqualTo(3);
		assertThat(fleet.truncated()).isTrue();
		assertThat(fleet.workers()).extracting(FleetWorker::workerId).containsExactly(ids.get(0), ids.get(1));
	}

	/**
	 * Each claim is kept with the mark it found; a release closes it. The marks tell which claim issued an ID: the one
	 * before the hand-over for times up to the released mark, the newcomer for later ones.
	 */
	@Test
	public void theHistoryNamesTheClaimThatIssuedAnIdByTheMarks() {
		WorkerIdAssigner first = live("first-holder");
		long id = AbstractWorkerIdAssignerContractTests.claim(first, MAX_WORKER_ID);
		first.renew(id, MARK);
		first.release(id, MARK + 10);
		WorkerIdAssigner second = live("second-holder");
		WorkerAssignment again = second.assign(MAX_WORKER_ID);
		assertThat(again.workerId()).as("the released worker ID is reused").isEqualTo(id);

		ClaimHistory history = fleetOf(second).history(id);
		assertThat(history.workerId()).isEqualTo(id);
		assertThat(history.claims()).extracting(WorkerClaim::instanceId).containsExactly("second-holder",
				"first-holder");
		WorkerClaim open = history.claims().get(0);
		WorkerClaim released = history.claims().get(1);
		assertThat(open.end()).isEqualTo(ClaimEnd.OPEN);
		assertThat(open.to()).isNull();
		assertThat(open.afterMarkMillis()).isEqualTo(MARK + 10);
		assertThat(open.host()).isNotBlank();
		assertThat(released.end()).isEqualTo(ClaimEnd.RELEASED);
		assertThat(released.afterMarkMillis()).isEqualTo(WorkerAssignment.NO_MARK);
		assertThat(released.to()).isNotNull().isAfterOrEqualTo(released.from());
		assertThat(open.from()).isAfterOrEqualTo(released.to());

		assertThat(history.issuerAt(MARK - 1_000)).contains(released);
		assertThat(history.issuerAt(MARK + 10)).contains(released);
		assertThat(history.issuerAt(MARK + 11)).contains(open);
	}

	/** A lease that ran out is closed as expired by the claim that finds it so, in the same step. */
	@Test
	public void anExpiredClaimIsClosedByTheNextClaim() throws InterruptedException {
		WorkerIdAssigner crashed = newAssigner("gone", LEASE, KEEP_MANY);
		long id = AbstractWorkerIdAssignerContractTests.claim(crashed, MAX_WORKER_ID);
		long renewing = System.currentTimeMillis();
		crashed.renew(id, MARK + 20);
		Thread.sleep(PAST_EXPIRY.toMillis());
		WorkerIdAssigner next = live("successor");
		WorkerAssignment taken = next.assign(MAX_WORKER_ID);
		assertThat(taken.workerId()).as("the expired worker ID is reused").isEqualTo(id);

		ClaimHistory history = fleetOf(next).history(id);
		assertThat(history.claims()).extracting(WorkerClaim::instanceId).containsExactly("successor", "gone");
		WorkerClaim expired = history.claims().get(1);
		assertThat(expired.end()).isEqualTo(ClaimEnd.EXPIRED);
		assertThat(expired.to()).isNotNull().isAfterOrEqualTo(expired.from());
		long startsAfter = history.claims().get(0).afterMarkMillis();
		AbstractLeaseWorkerIdAssignerContractTests.assertStartsAfterTheExpiredLease(crashed,
				new WorkerAssignment(id, startsAfter), MARK + 20, renewing);
		assertThat(startsAfter).as("the claim starts where its assignment does").isEqualTo(taken.highWaterMarkMillis());
		assertThat(history.issuerAt(startsAfter)).contains(expired);
		assertThat(history.issuerAt(startsAfter + 1)).contains(history.claims().get(0));
	}

	/**
	 * The store keeps as many claims per worker ID as configured, the newest; an ID older than the oldest one kept
	 * is said to lie beyond the history rather than pinned on the wrong holder.
	 */
	@Test
	public void theHistoryKeepsTheNewestClaimsAndSaysWhenItNoLongerReachesBack() {
		long id = -1;
		for (int round = 0; round < 5; round++) {
			WorkerIdAssigner holder = newAssigner("round-" + round, AbstractLeaseWorkerIdAssignerContractTests.LIVE_LEASE,
					3);
			long claimed = AbstractWorkerIdAssignerContractTests.claim(holder, MAX_WORKER_ID);
			if (round > 0) {
				assertThat(claimed).as("the released worker ID is reused").isEqualTo(id);
			}
			id = claimed;
			holder.renew(id, MARK + round * 100L);
			holder.release(id, MARK + round * 100L);
		}
		ClaimHistory history = fleetOf(live("operator")).history(id);
		assertThat(history.claims()).extracting(WorkerClaim::instanceId).containsExactly("round-4", "round-3",
				"round-2");
		assertThat(history.issuerAt(MARK + 150)).map(WorkerClaim::instanceId).contains("round-2");
		assertThat(history.issuerAt(MARK + 100)).as("issued in round 1, no longer kept").isEmpty();
		assertThat(history.issuerAt(MARK)).isEmpty();
	}

	/** A worker ID never claimed has no history. */
	@Test
	public void aWorkerIdNeverClaimedHasNoHistory() {
		ClaimHistory history = fleetOf(live("operator")).history(MAX_WORKER_ID);
		assertThat(history.claims()).isEmpty();
		assertThat(history.issuerAt(MARK)).isEmpty();
	}

	/**
	 * Claims racing for worker IDs each leave exactly one open claim in the history of the worker ID they won, naming
	 * the winner: the history is written in the claim's own atomic step, so it cannot disagree with it.
	 */
	@Test
	public void racingClaimsEachLeaveOneOpenClaimNamingTheWinner() throws Exception {
		int claimants = 8;
		ExecutorService pool = Executors.newFixedThreadPool(claimants);
		try {
			List<Future<Long>> claims = new ArrayList<>();
			for (int i = 0; i < claimants; i++) {
				WorkerIdAssigner assigner = live("racer-" + i);
				claims.add(pool.submit(() -> assigner.assign(MAX_WORKER_ID).workerId()));
			}
			WorkerFleet fleet = fleetOf(live("operator"));
			for (int i = 0; i < claimants; i++) {
				long id = claims.get(i).get(30, TimeUnit.SECONDS);
				ClaimHistory history = fleet.history(id);
				assertThat(history.claims()).as("claims of worker %d", id).hasSize(1);
				assertThat(history.claims().get(0).instanceId()).isEqualTo("racer-" + i);
				assertThat(history.claims().get(0).end()).isEqualTo(ClaimEnd.OPEN);
			}
			assertThat(fleet.read(100).held()).isEqualTo(claimants);
		}
		finally {
			pool.shutdownNow();
		}
	}

	private static FleetWorker worker(FleetSnapshot fleet, long workerId) {
		return fleet.workers()
			.stream()
			.filter((worker) -> worker.workerId() == workerId)
			.findFirst()
			.orElseThrow(() -> new AssertionError("worker " + workerId + " is not listed in " + fleet));
	}

}
