package io.github.uidgen.worker.fleet;

import java.time.Instant;

import io.github.uidgen.worker.WorkerAssignment;

/**
 * One worker ID as its store records it.
 *
 * @param workerId the worker ID
 * @param state held, released or expired
 * @param instanceId the instance that holds it, or held it last; {@code null} when the store does not say
 * @param host the host (or pod) that instance ran on; {@code null} when the store does not say
 * @param heldSince when the current (or last) holder claimed it, by the store's clock where it has one;
 * {@code null} when the store does not say
 * @param leaseExpiry when the lease runs out (or ran out) unless renewed; {@code null} for stores without leases
 * @param highWaterMarkMillis the latest time the worker may have issued IDs for, in epoch milliseconds;
 * {@link WorkerAssignment#NO_MARK} when it never issued any
 */
public record FleetWorker(long workerId, WorkerState state, String instanceId, String host, Instant heldSince,
		Instant leaseExpiry, long highWaterMarkMillis) {

	/**
	 * Returns whether the worker recorded a mark.
	 * @return whether there is a mark
	 */
	public boolean hasMark() {
		return this.highWaterMarkMillis != WorkerAssignment.NO_MARK;
	}

}
