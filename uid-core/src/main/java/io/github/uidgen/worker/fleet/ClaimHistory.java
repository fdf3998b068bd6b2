package io.github.uidgen.worker.fleet;

import java.util.List;
import java.util.Optional;

/**
 * The claims of one worker ID its store keeps, newest first, and which of them issued an ID of a given time.
 *
 * @param workerId the worker ID
 * @param claims its claims, newest first; the store keeps a bounded number of them
 */
public record ClaimHistory(long workerId, List<WorkerClaim> claims) {

	public ClaimHistory {
		claims = List.copyOf(claims);
	}

	/**
	 * Returns the claim that issued IDs of the given time: the newest one that started after an earlier holder's
	 * mark below that time. Empty when the kept history does not reach back so far: its oldest claim found a mark at
	 * or after the time, so an older claim, no longer kept, issued it (or there is no claim on record).
	 * @param idTimeMillis the start of the ID's time unit, in epoch milliseconds
	 * @return the claim, if the history reaches back to it
	 */
	public Optional<WorkerClaim> issuerAt(long idTimeMillis) {
		for (WorkerClaim claim : this.claims) {
			if (claim.startedBefore(idTimeMillis)) {
				return Optional.of(claim);
			}
		}
		return Optional.empty();
	}

	/**
	 * Returns the oldest claim kept.
	 * @return the oldest claim, empty when there is none on record
	 */
	public Optional<WorkerClaim> oldest() {
		return this.claims.isEmpty() ? Optional.empty() : Optional.of(this.claims.get(this.claims.size() - 1));
	}

}
