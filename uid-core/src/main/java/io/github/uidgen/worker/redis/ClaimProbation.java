package io.github.uidgen.worker.redis;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import io.github.uidgen.worker.WorkerAssignment;
import io.github.uidgen.worker.WorkerAssignmentException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Holds a fresh claim back before the generator may issue with it: a registry written back into the running Redis
 * looks genuine to a newcomer, and only the holder whose claim it undid can tell, at its next renewal.
 */
final class ClaimProbation {

	/** Logs as the assigner, so one logger setting covers all of the assigner's parts. */
	private static final Logger logger = LoggerFactory.getLogger(RedisWorkerIdAssigner.class);

	private final RegistryNamespace registry;

	private final LeaseRenewals renewals;

	ClaimProbation(RegistryNamespace registry, LeaseRenewals renewals) {
		this.registry = registry;
		this.renewals = renewals;
	}

	/**
	 * Holds a trusted claim back for one renewal interval of the holders and a round trip before the generator may
	 * issue with it, then reads the worker's record again. The interval is the longest heartbeat any claim in the
	 * namespace declared (the claim script keeps them), if longer than this instance's own: a holder renewing less
	 * often must still be heard. A registry written back into the running Redis (a
	 * {@code RESTORE} of an older dump) may show a running holder's worker ID free; that holder renews within the
	 * interval, finds its claim gone although its lease cannot have expired, stops, raises the worker's mark to the one
	 * it recorded, and makes claims wait the registry-loss margin. So after the probation this claim starts after that
	 * mark; and when the margin was raised meanwhile but this worker's mark did not move (its holder, if any, did not
	 * answer: it may be cut off from Redis), the claim is given back and made again, which waits the margin.
	 * @param reply the claim script's reply
	 * @param claimed the assignment as claimed
	 * @param maxMarkLeadMillis how far ahead of the Redis clock the mark may lie for the generator to start on it
	 * @param latestMarkMillis the latest mark the worker ID may have (a claim for a clock that stepped back)
	 * @return the assignment to issue with, or {@code null} when the claim was given back and must be made again
	 */
	WorkerAssignment confirm(List<String> reply, WorkerAssignment claimed, long maxMarkLeadMillis,
			long latestMarkMillis) {
		long workerId = claimed.workerId();
		long markAtClaim = reply.get(2).isEmpty() ? WorkerAssignment.NO_MARK : Long.parseLong(reply.get(2));
		long claimedAt = Long.parseLong(reply.get(4));
		long longestHeartbeat = (reply.size() > 7) ? Long.parseLong(reply.get(7)) : 0;
		Duration probation = this.registry.probationFor(longestHeartbeat);
		// A longer probation, for a holder's longer heartbeat, may take at most half the lease from the claim's, so
		// that the claim still holds when the probation ends and its probe reaches Redis.
		Duration halfLease = this.registry.lease().leaseDuration().dividedBy(2);
		if (probation.minus(this.registry.probation()).compareTo(halfLease) > 0) {
			this.renewals.release(workerId, WorkerAssignment.NO_MARK);
			throw new WorkerAssignmentException("A claim in the uid worker registry " + this.registry.hashTag()
					+ " must stand a probation of " + probation.toMillis() + " ms, as a holder there declared a "
					+ "heartbeat of " + longestHeartbeat + " ms, but this instance's claim is leased for "
					+ this.registry.claimLease().toMillis() + " ms only. Give every instance of the namespace the same "
					+ "uid.worker.redis.heartbeat-interval and lease-duration.");
		}
		logger.info("uid worker ID {}: waiting {} ms (the claim's probation: one renewal interval of the holders{}, a "
				+ "second for a renewal that comes late, and a round trip) before issuing with it, so that a holder "
				+ "whose claim a registry written back into Redis undid can object", workerId, probation.toMillis(),
				(longestHeartbeat > this.registry.checkInterval().toMillis())
						? ", whose longest heartbeat is " + longestHeartbeat + " ms" : "");
		try {
			Thread.sleep(probation.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			this.renewals.release(workerId, WorkerAssignment.NO_MARK);
			throw new WorkerAssignmentException("Interrupted while waiting to issue with uid worker ID " + workerId, ex);
		}
		HeldLeases.Held held = this.registry.leases().require(workerId);
		List<String> probe;
		try {
			probe = this.registry.scripts()
				.renew(Long.toString(workerId), held.token(), "",
						Long.toString(this.registry.lease().leaseDuration().toMillis()), this.registry.marginArg(), "",
						Long.toString(held.expiresAt()), this.registry.lease().instanceId(),
						this.registry.lease().hostName(), Integer.toString(this.registry.lease().claimHistory()));
		}
		catch (RuntimeException ex) {
			// Nobody issues with it yet: give it back, so that it need not expire first.
			try {
				this.renewals.release(workerId, WorkerAssignment.NO_MARK);
			}
			catch (RuntimeException releaseFailure) {
				ex.addSuppressed(releaseFailure);
			}
			throw ex;
		}
		if (!"ok".equals(probe.get(0))) {
			this.registry.leases().lost(workerId, held);
			logger.warn("uid worker ID {} was lost from the registry {} while its claim was on probation ({}): "
					+ "claiming again", workerId, this.registry.hashTag(), probe);
			return null;
		}
		long expiresAt = Long.parseLong(probe.get(3));
		this.registry.leases().probed(workerId, held, expiresAt, probe.get(2));
		long redisNow = expiresAt - this.registry.lease().leaseDuration().toMillis();
		long mark = probe.get(4).isEmpty() ? WorkerAssignment.NO_MARK : Long.parseLong(probe.get(4));
		long floor = Long.parseLong(probe.get(5));
		boolean holderAnswered = mark != WorkerAssignment.NO_MARK && mark > markAtClaim;
		String giveBack = null;
		if (floor > claimedAt && !holderAnswered) {
			giveBack = "the registry was found lost or rewound meanwhile, and nobody raised this worker's mark";
		}
		else if (holderAnswered && (mark - redisNow > maxMarkLeadMillis || mark > latestMarkMillis)) {
			// Only a mark raised meanwhile: one the claim found far ahead (nothing else free) is waited for or refused
			// as at any claim.
			giveBack = "its previous holder found its claim undone and raised its mark to " + Instant.ofEpochMilli(mark)
					+ ", further ahead than this generator may start on";
		}
		if (giveBack != null) {
			logger.warn("uid worker ID {} is given back after its claim's probation: {}; claiming again", workerId,
					giveBack);
			this.renewals.release(workerId, WorkerAssignment.NO_MARK);
			return null;
		}
		if (holderAnswered) {
			logger.warn("uid worker ID {}: its previous holder, whose claim the registry {} no longer had, raised its "
					+ "mark to {} while this claim was on probation; issue starts after it", workerId,
					this.registry.hashTag(), Instant.ofEpochMilli(mark));
		}
		return new WorkerAssignment(workerId, Math.max(claimed.highWaterMarkMillis(), mark));
	}

	/**
	 * A claim from a registry that is not trusted however it looks ({@link RegistryTrust#NONE}): a holder whose claim
	 * was taken out of it may still issue with the worker ID, up to the mark it recorded before, which lies within the
	 * margin of now. Waits out the margin (the lease was claimed long enough to cover it), and starts after it.
	 * @param reply the claim script's reply
	 * @param startedNanos when the claim was answered, by {@link System#nanoTime()}
	 * @param assignment the assignment as claimed
	 * @return the assignment to issue with
	 */
	WorkerAssignment waitOutMargin(List<String> reply, long startedNanos, WorkerAssignment assignment) {
		long redisNow = Long.parseLong(reply.get(4));
		long afterMargin = redisNow + this.registry.registryLossMargin().toMillis();
		logger.info("uid worker ID {}: waiting the registry-loss margin ({} ms) before issuing with it, as the registry "
				+ "is not trusted at any claim (registry trust none)", assignment.workerId(),
				this.registry.registryLossMargin().toMillis());
		try {
			long left;
			while ((left = this.registry.registryLossMargin().toNanos() - (System.nanoTime() - startedNanos)) > 0) {
				Thread.sleep(Math.max(1, Duration.ofNanos(left).toMillis()));
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			this.renewals.release(assignment.workerId(), WorkerAssignment.NO_MARK);
			throw new WorkerAssignmentException("Interrupted while waiting to issue with uid worker ID "
					+ assignment.workerId(), ex);
		}
		long mark = assignment.hasMark() ? Math.max(assignment.highWaterMarkMillis(), afterMargin) : afterMargin;
		return new WorkerAssignment(assignment.workerId(), mark);
	}

}
