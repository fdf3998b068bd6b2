package io.github.uidgen.test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.Optional;

import io.github.uidgen.worker.AllWorkerIdsLeasedException;
import io.github.uidgen.worker.WorkerAssignment;
import io.github.uidgen.worker.WorkerIdAssigner;
import io.github.uidgen.worker.WorkerLeaseLostException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The part of the contract only lease assigners have: leases expire unless renewed, expired and released worker
 * IDs are reused with their marks, a live lease is never taken, a holder that lost its lease can neither renew nor
 * touch the next holder's mark, and a free worker ID whose mark a fast-clock host left far in the future is handed
 * out last, and a further worker ID claimed for a clock that stepped back has its mark behind the bound asked for.
 * Extends {@link AbstractWorkerIdAssignerContractTests}, so a lease assigner passes both.
 *
 * <p>{@link #newAssigner(String, Duration)} builds an assigner whose lease lasts as long as asked: the tests that
 * need a lease to run out ask for {@link #LEASE}, short so that they stay quick; every other test asks for
 * {@link #LIVE_LEASE}, so long that no stalled test machine lets a lease run out before the test is done with it
 * (an 800 ms lease claimed, then counted on a second later, fails the test on a loaded machine). Overflow and
 * concurrency come implemented (every worker ID is claimed to overflow; every concurrent
 * claimant wins). Assigners whose store keeps a lease for as long as a session lives must free it only by expiry
 * here: share one session among the assigners of a test, as a crashed holder's session would live on.
 */
public abstract class AbstractLeaseWorkerIdAssignerContractTests extends AbstractWorkerIdAssignerContractTests {

	/** How long the leases last in the tests that wait for one to run out: short, so they stay quick. */
	protected static final Duration LEASE = Duration.ofMillis(800);

	/** How long the leases last in every other test: longer than any test, however slow the machine. */
	protected static final Duration LIVE_LEASE = Duration.ofMinutes(5);

	/** Long enough past {@link #LEASE} for any lease taken before to have expired. */
	protected static final Duration PAST_EXPIRY = LEASE.plusMillis(300);

	/**
	 * How soon after the previous renewal (or the claim) began a renewal must have ended for the lease to be sure to
	 * have been live meanwhile: the lease less a little for the store's clock.
	 */
	private static final Duration IN_TIME = LEASE.minusMillis(100);

	/** How long {@link #aRenewedLeaseDoesNotExpire()} may take to find a run not stalled by the machine. */
	private static final Duration IN_TIME_RUN_BOUND = Duration.ofSeconds(60);

	/** How far the store's clock may read from this machine's, in milliseconds: rounding, nothing more. */
	private static final long CLOCK_TOLERANCE_MILLIS = 50;

	/** How far ahead of the clock a fast host's mark lies in the fast-clock tests. */
	protected static final Duration FAST_CLOCK_LEAD = Duration.ofMinutes(10);

	/** How far ahead of the clock a mark may lie for a generator to start: its start-up wait, say. */
	protected static final Duration MARK_LEAD = Duration.ofSeconds(10);

	/**
	 * Builds an assigner of the store under test.
	 * @param instanceId the instance ID the assigner claims for
	 * @param lease how long its leases last
	 * @return a new assigner
	 */
	protected abstract WorkerIdAssigner newAssigner(String instanceId, Duration lease);

	/** An assigner whose leases outlive the test ({@link #LIVE_LEASE}). */
	@Override
	protected final WorkerIdAssigner newAssigner(String instanceId) {
		return newAssigner(instanceId, LIVE_LEASE);
	}

	/**
	 * An assigner whose leases run out after {@link #LEASE} unless renewed.
	 * @param instanceId the instance ID the assigner claims for
	 * @return a new assigner
	 */
	protected final WorkerIdAssigner newExpiringAssigner(String instanceId) {
		return newAssigner(instanceId, LEASE);
	}

	/** Claims every worker ID up to the maximum, each as another instance. */
	@Override
	protected WorkerIdAssigner overflowingAssigner(long maxWorkerId) {
		for (long i = 0; i <= maxWorkerId; i++) {
			claim(newAssigner("filler-" + i), maxWorkerId);
		}
		return newAssigner("one-too-many");
	}

	/** Every concurrent claimant gets a worker ID of its own. */
	@Override
	protected int concurrentWinnersOf(int claimants) {
		return claimants;
	}

	/** A lease may have run out once {@link #LIVE_LEASE} has passed since its claim began. */
	@Override
	protected boolean mayHaveExpiredBetween(long claimBegan, long otherClaimEnded) {
		return otherClaimEnded - claimBegan >= LIVE_LEASE.toNanos();
	}

	/** The assigner asks to be renewed more often than its lease expires. */
	@Test
	public void renewsMoreOftenThanTheLeaseExpires() {
		Duration interval = newExpiringAssigner("interval").renewInterval();
		assertThat(interval).isPositive().isLessThan(LEASE);
	}

	/** When every worker ID is leased, the failure counts the live leases, names their holders and the fix. */
	@Test
	public void overflowMessageCountsTheLiveLeases() {
		WorkerIdAssigner assigner = overflowingAssigner(1);
		assertThatExceptionOfType(AllWorkerIdsLeasedException.class).isThrownBy(() -> assigner.assign(1))
			.withMessageContaining("All 2 worker IDs are leased")
			.withMessageContaining("2 live leases")
			.withMessageContaining("held by 'filler-0', 'filler-1'")
			.withMessageContaining("more worker bits");
	}

	/** A live lease is never taken, not even by an instance with the same instance ID. */
	@Test
	public void aLiveLeaseIsNeverTakenNotEvenByTheSameInstanceId() {
		WorkerIdAssigner first = newAssigner("twin");
		WorkerIdAssigner second = newAssigner("twin");
		long firstId = claim(first, MAX_WORKER_ID);
		long secondId = claim(second, MAX_WORKER_ID);
		assertThat(secondId).isNotEqualTo(firstId);
		first.renew(firstId, MARK);
		second.renew(secondId, MARK);
	}

	/**
	 * A lease renewed in time outlives its duration. A renewal is in time when it ended less than {@link #LEASE}
	 * (less a little for the store's clock) after the previous one, or the claim, began: only then was the lease live
	 * throughout, whatever the store's latency. A machine that stalls the test's thread past that may lose the lease
	 * by the contract itself; that run is then told apart and the scenario starts over with another holder, so the
	 * assertions are made on a run whose every renewal was in time, however slow the machine.
	 */
	@Test
	public void aRenewedLeaseDoesNotExpire() throws InterruptedException {
		long giveUpAt = System.nanoTime() + IN_TIME_RUN_BOUND.toNanos();
		for (int run = 1; !renewedPastExpiry(run); run++) {
			assertThat(System.nanoTime() - giveUpAt).as("a run whose every renewal was in time, within %s",
					IN_TIME_RUN_BOUND)
				.isNegative();
		}
	}

	/**
	 * Claims, renews every quarter lease until past the first expiry, lets a newcomer claim and renews once more.
	 * @return whether every renewal was in time, so that the assertions were made; {@code false} when the lease may
	 * have run out by the contract while the thread was stalled
	 */
	private boolean renewedPastExpiry(int run) throws InterruptedException {
		WorkerIdAssigner holder = newExpiringAssigner("heartbeating-" + run);
		long workerId = claim(holder, MAX_WORKER_ID);
		// A claim's lease runs from when it returns at the earliest (a claim on probation holds it that much longer).
		long began = System.nanoTime();
		long pastExpiry = began + PAST_EXPIRY.toNanos();
		for (boolean last = false; !last;) {
			last = System.nanoTime() >= pastExpiry;
			long renewing = System.nanoTime();
			if (!renewedInTime(holder, workerId, MARK, began)) {
				return false;
			}
			began = renewing;
			if (!last) {
				Thread.sleep(LEASE.toMillis() / 4);
			}
		}
		// The newcomer's claim may take a while (a probation): the holder renews in time meanwhile.
		CompletableFuture<Long> newcomer = CompletableFuture
			.supplyAsync(() -> claim(newAssigner("newcomer-" + run), MAX_WORKER_ID));
		while (!newcomer.isDone()) {
			long renewing = System.nanoTime();
			if (!renewedInTime(holder, workerId, MARK, began)) {
				newcomer.join();
				return false;
			}
			began = renewing;
			Thread.sleep(LEASE.toMillis() / 4);
		}
		long other = newcomer.join();
		if (System.nanoTime() - began >= IN_TIME.toNanos()) {
			return false;
		}
		assertThat(other).isNotEqualTo(workerId);
		return renewedInTime(holder, workerId, MARK + 1, began);
	}

	/**
	 * Renews; a renewal that comes too late may find the lease lost, as the contract allows, and one in time must not.
	 * @return whether the renewal was in time
	 */
	private static boolean renewedInTime(WorkerIdAssigner holder, long workerId, long mark, long previousBegan) {
		try {
			holder.renew(workerId, mark);
		}
		catch (WorkerLeaseLostException ex) {
			if (System.nanoTime() - previousBegan < IN_TIME.toNanos()) {
				throw ex;
			}
			return false;
		}
		return System.nanoTime() - previousBegan < IN_TIME.toNanos();
	}

	/** A released worker ID goes to the next claimant, with the mark recorded at release. */
	@Test
	public void aReleasedWorkerIdGoesToTheNextClaimantWithItsMark() {
		WorkerIdAssigner first = newAssigner("leaving");
		long workerId = claim(first, MAX_WORKER_ID);
		first.renew(workerId, MARK + 7);
		first.release(workerId, MARK + 9);

		WorkerAssignment next = newAssigner("arriving").assign(MAX_WORKER_ID);
		assertThat(next.workerId()).isEqualTo(workerId);
		assertThat(next.highWaterMarkMillis()).isEqualTo(MARK + 9);
	}

	/**
	 * A lease that expired (its holder crashed) is reused, with the last mark its holder recorded, and, by an assigner
	 * that lets a holder issue on its lease ({@link WorkerIdAssigner#leaseHold()}), a mark no earlier than the lease's
	 * expiry, which lies no later than the claim: the crashed holder may have issued up to it while the store did not
	 * answer it.
	 */
	@Test
	public void anExpiredLeaseIsReusedWithTheMarkItsCrashedHolderRecorded() throws InterruptedException {
		WorkerIdAssigner crashed = newExpiringAssigner("crashing");
		long workerId = claim(crashed, MAX_WORKER_ID);
		long renewing = System.currentTimeMillis();
		crashed.renew(workerId, MARK + 500);
		// The holder dies: no more renewals, no release.
		long whileLeased = claim(newAssigner("too-early"), MAX_WORKER_ID);
		assertThat(whileLeased).isNotEqualTo(workerId);

		Thread.sleep(PAST_EXPIRY.toMillis());
		List<Long> claimed = new ArrayList<>();
		WorkerAssignment reused = null;
		for (int i = 0; i < 2 && reused == null; i++) {
			WorkerAssignment assignment = newAssigner("later-" + i).assign(MAX_WORKER_ID);
			claimed.add(assignment.workerId());
			if (assignment.workerId() == workerId) {
				reused = assignment;
			}
		}
		assertThat(claimed).contains(workerId);
		assertStartsAfterTheExpiredLease(crashed, reused, MARK + 500, renewing);
	}

	/**
	 * Checks the mark an expired lease is handed out with: the one its holder recorded, and for an assigner with a
	 * lease to issue on, no earlier than that lease's expiry (the holder's last renewal plus the lease, by the
	 * store's clock, which on this machine is the test's) and no later than now.
	 * @param holder the holder whose lease expired
	 * @param reused the claim that reused its worker ID
	 * @param recorded the mark the holder recorded last
	 * @param renewedAt when the holder's last renewal began, by this machine's clock
	 */
	protected static void assertStartsAfterTheExpiredLease(WorkerIdAssigner holder, WorkerAssignment reused,
			long recorded, long renewedAt) {
		Duration hold = holder.leaseHold();
		if (hold.isZero()) {
			assertThat(reused.highWaterMarkMillis()).isEqualTo(recorded);
			return;
		}
		assertThat(reused.highWaterMarkMillis()).as("the lease's expiry")
			.isGreaterThanOrEqualTo(Math.max(recorded, renewedAt + hold.toMillis() - CLOCK_TOLERANCE_MILLIS))
			.isLessThanOrEqualTo(System.currentTimeMillis() + CLOCK_TOLERANCE_MILLIS);
	}

	/** An instance gets its previous worker ID back after its lease expired, before other free ones. */
	@Test
	public void theSameInstanceGetsItsPreviousWorkerIdBackAfterItsLeaseExpired() throws InterruptedException {
		WorkerIdAssigner other = newExpiringAssigner("other-crashing");
		long otherId = claim(other, MAX_WORKER_ID);
		WorkerIdAssigner mine = newExpiringAssigner("me");
		long myId = claim(mine, MAX_WORKER_ID);
		long renewing = System.currentTimeMillis();
		mine.renew(myId, MARK + 1_000);
		Thread.sleep(PAST_EXPIRY.toMillis());

		WorkerAssignment again = newAssigner("me").assign(MAX_WORKER_ID);
		assertThat(again.workerId()).as("own previous ID preferred over the other expired one " + otherId)
			.isEqualTo(myId);
		assertStartsAfterTheExpiredLease(mine, again, MARK + 1_000, renewing);
	}

	/** A holder whose lease expired and was taken can neither renew it nor overwrite the new holder's mark. */
	@Test
	public void aHolderThatLostItsLeaseCanNeitherRenewNorOverwriteTheNextHoldersMark() throws InterruptedException {
		WorkerIdAssigner stale = newExpiringAssigner("stale");
		long workerId = claim(stale, MAX_WORKER_ID);
		long renewing = System.currentTimeMillis();
		stale.renew(workerId, MARK + 100);
		Thread.sleep(PAST_EXPIRY.toMillis());

		WorkerIdAssigner successor = newAssigner("successor");
		WorkerAssignment taken = successor.assign(MAX_WORKER_ID);
		assertThat(taken.workerId()).isEqualTo(workerId);
		assertStartsAfterTheExpiredLease(stale, taken, MARK + 100, renewing);
		successor.renew(workerId, MARK + 200);

		assertThatExceptionOfType(WorkerLeaseLostException.class)
			.isThrownBy(() -> stale.renew(workerId, MARK + 900_000))
			.satisfies((ex) -> assertThat(ex.getWorkerId()).isEqualTo(workerId))
			.withMessageContaining("successor");
		stale.release(workerId, MARK + 950_000);
		successor.renew(workerId, MARK + 300);
		successor.release(workerId, MARK + 300);

		WorkerAssignment next = newAssigner("third").assign(MAX_WORKER_ID);
		assertThat(next.workerId()).isEqualTo(workerId);
		// The release's mark, or the mark the successor started after when the store kept that one (marks only grow).
		assertThat(next.highWaterMarkMillis()).isGreaterThanOrEqualTo(MARK + 300)
			.isLessThanOrEqualTo(Math.max(MARK + 300, taken.highWaterMarkMillis()));
	}

	/** A free worker ID whose mark lies far ahead of the clock is passed over for another free one. */
	@Test
	public void aFreeWorkerIdWhoseMarkLiesFarInTheFutureIsPassedOverForAnotherFreeOne() {
		WorkerIdAssigner fastHost = newAssigner("fast-clock");
		WorkerIdAssigner rightHost = newAssigner("right-clock");
		long future = claim(fastHost, MAX_WORKER_ID);
		long sane = claim(rightHost, MAX_WORKER_ID);
		fastHost.renew(future, System.currentTimeMillis() + FAST_CLOCK_LEAD.toMillis());
		fastHost.release(future, System.currentTimeMillis() + FAST_CLOCK_LEAD.toMillis());
		rightHost.release(sane, System.currentTimeMillis());

		WorkerAssignment claimed = newAssigner("newcomer").assign(MAX_WORKER_ID, MARK_LEAD);
		assertThat(claimed.workerId()).as("free worker IDs: " + future + " (mark 10 min ahead) and " + sane)
			.isEqualTo(sane);
		assertThat(claimed.highWaterMarkMillis()).isLessThanOrEqualTo(System.currentTimeMillis());
	}

	/** A never-used worker ID is preferred to the only free one whose mark lies far ahead of the clock. */
	@Test
	public void aNewWorkerIdIsPreferredToTheOnlyFreeOneWhoseMarkLiesFarInTheFuture() {
		WorkerIdAssigner fastHost = newAssigner("fast-clock-only");
		long future = claim(fastHost, MAX_WORKER_ID);
		fastHost.release(future, System.currentTimeMillis() + FAST_CLOCK_LEAD.toMillis());

		WorkerAssignment claimed = newAssigner("newcomer-only").assign(MAX_WORKER_ID, MARK_LEAD);
		assertThat(claimed.workerId()).isNotEqualTo(future);
		assertThat(claimed.hasMark()).isFalse();
	}

	/** A free worker ID whose mark lies far ahead of the clock is handed out, with its mark, when nothing else is free. */
	@Test
	public void aFreeWorkerIdWhoseMarkLiesFarInTheFutureIsHandedOutWhenNothingElseIsFree() {
		WorkerIdAssigner fastHost = newAssigner("fast-clock-last");
		long future = claim(fastHost, 1);
		long other = claim(newAssigner("holding-the-other"), 1);
		long mark = System.currentTimeMillis() + FAST_CLOCK_LEAD.toMillis();
		fastHost.release(future, mark);

		WorkerAssignment claimed = newAssigner("newcomer-last").assign(1, MARK_LEAD);
		assertThat(claimed.workerId()).as("the other worker ID " + other + " is leased").isEqualTo(future);
		assertThat(claimed.highWaterMarkMillis()).isEqualTo(mark);
	}

	/**
	 * An instance whose clock stepped back behind its worker's mark gets a further worker ID whose mark lies behind the
	 * bound it gives, while it keeps the first: never its own live lease, nor a free one whose mark lies later.
	 */
	@Test
	public void aFurtherWorkerIdIsClaimedOnlyWithAMarkBehindTheBoundWhileTheFirstIsKept() {
		long now = System.currentTimeMillis();
		long ahead = now + FAST_CLOCK_LEAD.toMillis();
		WorkerIdAssigner old = newAssigner("left-long-ago");
		WorkerIdAssigner late = newAssigner("left-ahead");
		WorkerIdAssigner stepped = newAssigner("stepped-back");
		long behindId = claim(old, MAX_WORKER_ID);
		long aheadId = claim(late, MAX_WORKER_ID);
		long ownId = claim(stepped, MAX_WORKER_ID);
		stepped.renew(ownId, ahead);
		late.release(aheadId, ahead);
		old.release(behindId, MARK);

		Optional<WorkerAssignment> further = stepped.assignBehind(MAX_WORKER_ID, now);
		assertThat(further).as("free: " + behindId + " (mark behind) and " + aheadId + " (mark ahead); held: " + ownId)
			.hasValueSatisfying((assignment) -> {
				assertThat(assignment.workerId()).isEqualTo(behindId);
				assertThat(assignment.highWaterMarkMillis()).isEqualTo(MARK);
			});
		stepped.renew(ownId, ahead + 1);
		stepped.renew(behindId, now);
		stepped.release(ownId, ahead + 1);
		stepped.release(behindId, now);

		WorkerAssignment restarted = newAssigner("stepped-back").assign(MAX_WORKER_ID);
		assertThat(restarted.workerId()).isIn(ownId, behindId);
	}

	/** A never-used worker ID counts as behind any bound. */
	@Test
	public void aFurtherWorkerIdMayBeOneNeverUsed() {
		WorkerIdAssigner stepped = newAssigner("stepped-back-alone");
		long ownId = claim(stepped, MAX_WORKER_ID);
		stepped.renew(ownId, System.currentTimeMillis() + FAST_CLOCK_LEAD.toMillis());

		Optional<WorkerAssignment> further = stepped.assignBehind(MAX_WORKER_ID, System.currentTimeMillis());
		assertThat(further).hasValueSatisfying((assignment) -> {
			assertThat(assignment.workerId()).isNotEqualTo(ownId).isBetween(0L, MAX_WORKER_ID);
			assertThat(assignment.hasMark()).isFalse();
		});
		stepped.renew(further.get().workerId(), System.currentTimeMillis());
	}

	/** Without a free worker ID whose mark lies behind the bound, nothing is claimed and the held lease stays. */
	@Test
	public void noFurtherWorkerIdIsClaimedWhenEveryFreeOneHasAMarkLaterThanTheBound() {
		long ahead = System.currentTimeMillis() + FAST_CLOCK_LEAD.toMillis();
		WorkerIdAssigner late = newAssigner("left-ahead-only");
		WorkerIdAssigner stepped = newAssigner("stepped-back-full");
		long aheadId = claim(late, 1);
		long ownId = claim(stepped, 1);
		stepped.renew(ownId, ahead);
		late.release(aheadId, ahead);

		assertThat(stepped.assignBehind(1, System.currentTimeMillis())).isEmpty();
		stepped.renew(ownId, ahead + 1);
		WorkerAssignment next = newAssigner("after-the-refusal").assign(1, MARK_LEAD);
		assertThat(next.workerId()).as("the refused claim left worker " + aheadId + " free").isEqualTo(aheadId);
	}

	/** Renewing a worker ID the assigner never claimed fails as a lost lease. */
	@Test
	public void renewingAWorkerIdThisAssignerNeverClaimedIsALostLease() {
		WorkerIdAssigner assigner = newAssigner("stranger");
		assertThatExceptionOfType(WorkerLeaseLostException.class).isThrownBy(() -> assigner.renew(5, MARK));
	}

}
