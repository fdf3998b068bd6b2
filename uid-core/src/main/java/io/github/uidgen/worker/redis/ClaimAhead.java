package io.github.uidgen.worker.redis;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import io.github.uidgen.worker.WorkerAssignment;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A claim made before the generator asked for one, so that the claim and its probation pass while the rest of the
 * application starts. The generator's first claim takes it when it still fits what the generator asks for; otherwise
 * it is given back and the generator claims as if there had been none.
 */
final class ClaimAhead {

	/** Logs as the assigner, so one logger setting covers all of the assigner's parts. */
	private static final Logger logger = LoggerFactory.getLogger(RedisWorkerIdAssigner.class);

	private final CompletableFuture<WorkerAssignment> claim = new CompletableFuture<>();

	/** When the claim was prepared, before it was sent: its lease runs out no earlier than a lease after this. */
	private final long sentAtNanos = System.nanoTime();

	/** Gives the claim back when nobody takes it. */
	private final LeaseRenewals renewals;

	ClaimAhead(LeaseRenewals renewals) {
		this.renewals = renewals;
	}

	void claimed(WorkerAssignment assignment) {
		this.claim.complete(assignment);
	}

	void failed(RuntimeException ex) {
		this.claim.completeExceptionally(ex);
	}

	/**
	 * Waits for the claim and returns it when it fits: a worker ID within the layout, a mark within the lead the
	 * generator allows (by this host's clock), and made less than half a lease ago, so that the generator's first
	 * renewal comes well inside it. A claim that failed, or does not fit, returns {@code null}; one that does not fit
	 * is given back first.
	 * @param maxWorkerId the largest worker ID the generator's layout holds
	 * @param maxMarkLead how far ahead of the clock the worker's mark may lie
	 * @param lease the lease a claim gets
	 * @return the claim, or {@code null} when the generator must claim itself
	 */
	WorkerAssignment take(long maxWorkerId, Duration maxMarkLead, Duration lease) {
		WorkerAssignment assignment = await();
		if (assignment == null) {
			return null;
		}
		String unfit = unfit(assignment, maxWorkerId, maxMarkLead, lease);
		if (unfit == null) {
			return assignment;
		}
		logger.info("uid worker ID {}, claimed before the application started, is given back: {}; claiming again",
				assignment.workerId(), unfit);
		giveBack(assignment);
		return null;
	}

	/** Waits for the claim and gives it back: nobody took it. */
	void abandon() {
		WorkerAssignment assignment = await();
		if (assignment != null) {
			logger.info("uid worker ID {}, claimed before the application started, is given back: the application "
					+ "does not use it", assignment.workerId());
			giveBack(assignment);
		}
	}

	private WorkerAssignment await() {
		try {
			return this.claim.join();
		}
		catch (CompletionException ex) {
			logger.info("uid could not claim a worker ID before the application started: {}",
					ex.getCause().toString());
			logger.debug("uid's claim before the application started failed", ex.getCause());
			return null;
		}
	}

	private String unfit(WorkerAssignment assignment, long maxWorkerId, Duration maxMarkLead, Duration lease) {
		if (assignment.workerId() > maxWorkerId) {
			return "its worker ID lies beyond the layout's " + maxWorkerId;
		}
		long mark = assignment.highWaterMarkMillis();
		if (mark != WorkerAssignment.NO_MARK && mark > System.currentTimeMillis() + maxMarkLead.toMillis()) {
			return "its mark lies further ahead of the clock than " + maxMarkLead.toMillis() + " ms";
		}
		long ageMillis = (System.nanoTime() - this.sentAtNanos) / 1_000_000;
		if (ageMillis >= lease.toMillis() / 2) {
			return "it was made " + ageMillis + " ms ago, half its lease or more";
		}
		return null;
	}

	private void giveBack(WorkerAssignment assignment) {
		try {
			this.renewals.release(assignment.workerId(), WorkerAssignment.NO_MARK);
		}
		catch (RuntimeException ex) {
			// Its lease runs out by itself; nobody issued with it.
			logger.warn("uid could not give back worker ID {}: {}; its lease runs out by itself",
					assignment.workerId(), ex.getMessage());
		}
	}

}
