package io.github.uidgen.worker.fleet;

import java.time.Instant;

import io.github.uidgen.worker.WorkerAssignment;

/**
 * One claim of a worker ID, as the store's history keeps it.
 *
 * <p>The claim issued IDs for times after {@code afterMarkMillis}, the mark it found: every earlier holder issued
 * for times up to that mark and no later (that is the high-water mark's promise), and this claimant for none up to
 * it. So the marks, not the wall-clock times of claim and release, tell which claim issued an ID, even when the
 * holders' clocks ran ahead or behind the store's.
 *
 * @param workerId the worker ID
 * @param instanceId the instance that claimed it
 * @param host the host (or pod) the instance ran on
 * @param from when it was claimed, by the store's clock where it has one
 * @param to when the claim ended (released, or the lease's expiry found by the next claim); {@code null} while open
 * @param afterMarkMillis the mark the claim found: it issued only for later times; {@link WorkerAssignment#NO_MARK}
 * for a worker ID that had never issued an ID
 * @param end how the claim ended
 */
public record WorkerClaim(long workerId, String instanceId, String host, Instant from, Instant to,
		long afterMarkMillis, ClaimEnd end) {

	/**
	 * Returns whether this claim may have issued an ID of the given time, judged by the mark it found alone: its
	 * IDs all lie after that mark.
	 * @param idTimeMillis the start of the ID's time unit, in epoch milliseconds
	 * @return whether the time lies after the mark the claim found
	 */
	public boolean startedBefore(long idTimeMillis) {
		return this.afterMarkMillis == WorkerAssignment.NO_MARK || this.afterMarkMillis < idTimeMillis;
	}

}
