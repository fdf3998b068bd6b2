package io.github.uidgen.worker.fleet;

/**
 * Reads what a worker store knows of every instance that claims from it, for operators ({@code /actuator/uid/fleet}
 * and {@code /actuator/uid/parse}). An assigner offers one through
 * {@link io.github.uidgen.worker.WorkerIdAssigner#fleet()}.
 *
 * <p>Implementations only read: they take no lock a claim or renewal waits for and use the store client's own time
 * bounds. The caller bounds the whole read again and answers partly when the store does not answer in time.
 */
public interface WorkerFleet {

	/**
	 * Reads every worker ID the store has a record of: held, released or expired.
	 * @param maxWorkers how many worker IDs to list at most (the lowest first); the counts cover all of them
	 * @return what the store holds
	 * @throws io.github.uidgen.worker.WorkerStoreUnavailableException when the store cannot be read
	 */
	FleetSnapshot read(int maxWorkers);

	/**
	 * Reads the claims of one worker ID the store keeps, newest first: each claim written in the same atomic step as
	 * the claim itself and closed in the same step as the release (or by the claim that found its lease expired).
	 * @param workerId the worker ID
	 * @return its claims; empty when the store has none on record
	 * @throws io.github.uidgen.worker.WorkerStoreUnavailableException when the store cannot be read
	 */
	ClaimHistory history(long workerId);

}
