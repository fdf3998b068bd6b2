package io.github.uidgen.worker;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The part of the contract only lease assigners have: leases expire unless renewed, expired and released worker
 * IDs are reused with their marks, a live lease is never taken, and a holder that lost its lease can neither renew
 * nor touch the next holder's mark.
 */
abstract class AbstractLeaseWorkerIdAssignerContractTests extends AbstractWorkerIdAssignerContractTests {

	/** Short, so expiry tests stay quick. */
	static final Duration LEASE = Duration.ofMillis(800);

	/** Long enough past {@link #LEASE} for any lease taken before to have expired. */
	static final Duration PAST_EXPIRY = LEASE.plusMillis(300);

	/** How far ahead of the clock a fast host's mark lies in the fast-clock tests. */
	static final Duration FAST_CLOCK_LEAD = Duration.ofMinutes(10);

	/** How far ahead of the clock a mark may lie for a generator to start: its start-up wait, say. */
	static final Duration MARK_LEAD = Duration.ofSeconds(10);

	@Override
	WorkerIdAssigner overflowingAssigner(long maxWorkerId) {
		for (long i = 0; i <= maxWorkerId; i++) {
			claim(newAssigner("filler-" + i), maxWorkerId);
		}
		return newAssigner("one-too-many");
	}

	@Override
	int concurrentWinnersOf(int claimants) {
		return claimants;
	}

	@Test
	void renewsMoreOftenThanTheLeaseExpires() {
		Duration interval = newAssigner("interval").renewInterval();
		assertThat(interval).isPositive().isLessThan(LEASE);
	}

	@Test
	void overflowMessageCountsTheLiveLeases() {
		WorkerIdAssigner assigner = overflowingAssigner(1);
		assertThatExceptionOfType(AllWorkerIdsLeasedException.class).isThrownBy(() -> assigner.assign(1))
			.withMessageContaining("All 2 worker IDs are leased")
			.withMessageContaining("2 live leases")
			.withMessageContaining("held by 'filler-0', 'filler-1'")
			.withMessageContaining("more worker bits");
	}

	@Test
	void aLiveLeaseIsNeverTakenNotEvenByTheSameInstanceId() {
		WorkerIdAssigner first = newAssigner("twin");
		WorkerIdAssigner second = newAssigner("twin");
		long firstId = claim(first, MAX_WORKER_ID);
		long secondId = claim(second, MAX_WORKER_ID);
		assertThat(secondId).isNotEqualTo(firstId);
		first.renew(firstId, MARK);
		second.renew(secondId, MARK);
	}

	@Test
	void aRenewedLeaseDoesNotExpire() throws InterruptedException {
		WorkerIdAssigner holder = newAssigner("heartbeating");
		long workerId = claim(holder, MAX_WORKER_ID);
		long deadline = System.nanoTime() + PAST_EXPIRY.toNanos();
		while (System.nanoTime() < deadline) {
			holder.renew(workerId, MARK);
			Thread.sleep(LEASE.toMillis() / 4);
		}
		holder.renew(workerId, MARK);
		long other = claim(newAssigner("newcomer"), MAX_WORKER_ID);
		assertThat(other).isNotEqualTo(workerId);
		holder.renew(workerId, MARK + 1);
	}

	@Test
	void aReleasedWorkerIdGoesToTheNextClaimantWithItsMark() {
		WorkerIdAssigner first = newAssigner("leaving");
		long workerId = claim(first, MAX_WORKER_ID);
		first.renew(workerId, MARK + 7);
		first.release(workerId, MARK + 9);

		WorkerAssignment next = newAssigner("arriving").assign(MAX_WORKER_ID);
		assertThat(next.workerId()).isEqualTo(workerId);
		assertThat(next.highWaterMarkMillis()).isEqualTo(MARK + 9);
	}

	@Test
	void anExpiredLeaseIsReusedWithTheMarkItsCrashedHolderRecorded() throws InterruptedException {
		WorkerIdAssigner crashed = newAssigner("crashing");
		long workerId = claim(crashed, MAX_WORKER_ID);
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
		assertThat(reused.highWaterMarkMillis()).isEqualTo(MARK + 500);
	}

	@Test
	void theSameInstanceGetsItsPreviousWorkerIdBackAfterItsLeaseExpired() throws InterruptedException {
		WorkerIdAssigner other = newAssigner("other-crashing");
		long otherId = claim(other, MAX_WORKER_ID);
		WorkerIdAssigner mine = newAssigner("me");
		long myId = claim(mine, MAX_WORKER_ID);
		mine.renew(myId, MARK + 1_000);
		Thread.sleep(PAST_EXPIRY.toMillis());

		WorkerAssignment again = newAssigner("me").assign(MAX_WORKER_ID);
		assertThat(again.workerId()).as("own previous ID preferred over the other expired one " + otherId)
			.isEqualTo(myId);
		assertThat(again.highWaterMarkMillis()).isEqualTo(MARK + 1_000);
	}

	@Test
	void aHolderThatLostItsLeaseCanNeitherRenewNorOverwriteTheNextHoldersMark() throws InterruptedException {
		WorkerIdAssigner stale = newAssigner("stale");
		long workerId = claim(stale, MAX_WORKER_ID);
		stale.renew(workerId, MARK + 100);
		Thread.sleep(PAST_EXPIRY.toMillis());

		WorkerIdAssigner successor = newAssigner("successor");
		WorkerAssignment taken = successor.assign(MAX_WORKER_ID);
		assertThat(taken.workerId()).isEqualTo(workerId);
		assertThat(taken.highWaterMarkMillis()).isEqualTo(MARK + 100);
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
		assertThat(next.highWaterMarkMillis()).isEqualTo(MARK + 300);
	}

	@Test
	void aFreeWorkerIdWhoseMarkLiesFarInTheFutureIsPassedOverForAnotherFreeOne() {
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

	@Test
	void aNewWorkerIdIsPreferredToTheOnlyFreeOneWhoseMarkLiesFarInTheFuture() {
		WorkerIdAssigner fastHost = newAssigner("fast-clock-only");
		long future = claim(fastHost, MAX_WORKER_ID);
		fastHost.release(future, System.currentTimeMillis() + FAST_CLOCK_LEAD.toMillis());

		WorkerAssignment claimed = newAssigner("newcomer-only").assign(MAX_WORKER_ID, MARK_LEAD);
		assertThat(claimed.workerId()).isNotEqualTo(future);
		assertThat(claimed.hasMark()).isFalse();
	}

	@Test
	void aFreeWorkerIdWhoseMarkLiesFarInTheFutureIsHandedOutWhenNothingElseIsFree() {
		WorkerIdAssigner fastHost = newAssigner("fast-clock-last");
		long future = claim(fastHost, 1);
		long other = claim(newAssigner("holding-the-other"), 1);
		long mark = System.currentTimeMillis() + FAST_CLOCK_LEAD.toMillis();
		fastHost.release(future, mark);

		WorkerAssignment claimed = newAssigner("newcomer-last").assign(1, MARK_LEAD);
		assertThat(claimed.workerId()).as("the other worker ID " + other + " is leased").isEqualTo(future);
		assertThat(claimed.highWaterMarkMillis()).isEqualTo(mark);
	}

	@Test
	void renewingAWorkerIdThisAssignerNeverClaimedIsALostLease() {
		WorkerIdAssigner assigner = newAssigner("stranger");
		assertThatExceptionOfType(WorkerLeaseLostException.class).isThrownBy(() -> assigner.renew(5, MARK));
	}

}
