package io.github.uidgen.worker.redis;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.github.uidgen.worker.WorkerLeaseLostException;

/**
 * What this instance knows about each lease it holds in the registry: the claim's token, the mark it last recorded,
 * and the expiry Redis last gave it, by the Redis clock. A renewal hands both to the registry script, which compares
 * the mark with what the registry holds, and tells by its own clock a lease that may have expired from one that cannot
 * have.
 */
final class HeldLeases {

	private final Map<Long, Held> leases = new ConcurrentHashMap<>();

	/**
	 * Records a successful claim.
	 * @param workerId the claimed worker ID
	 * @param token the claim's token
	 * @param expiresAt the lease's expiry, Redis clock
	 */
	void claimed(long workerId, String token, long expiresAt) {
		int at = token.lastIndexOf('@');
		this.leases.put(workerId, new Held(token, null, expiresAt, (at >= 0) ? token.substring(at + 1) : ""));
	}

	/**
	 * Returns the lease to renew.
	 * @param workerId the worker ID
	 * @return what is known of it
	 * @throws WorkerLeaseLostException when this assigner holds no lease on the worker ID
	 */
	Held require(long workerId) {
		Held held = this.leases.get(workerId);
		if (held == null) {
			throw new WorkerLeaseLostException(workerId, "this assigner holds no lease on it");
		}
		return held;
	}

	/**
	 * Returns what is known now of a lease.
	 * @param workerId the worker ID
	 * @return the lease, or {@code null} when this assigner holds none on the worker ID
	 */
	Held current(long workerId) {
		return this.leases.get(workerId);
	}

	/**
	 * Records a successful renewal, unless the lease was released or replaced meanwhile: the entry is replaced only if
	 * it is still the very one the renewal started from. Renewals may be outstanding side by side (one the client
	 * holds while the next goes out), so one that comes back late must not overwrite what a later one recorded, nor a
	 * newer claim.
	 * @param workerId the worker ID
	 * @param renewed the lease as it was when the renewal started
	 * @param markMillis the mark it recorded
	 * @param expiresAt the new expiry, Redis clock
	 * @param server the {@code run_id} of the Redis process that renewed it
	 */
	void renewed(long workerId, Held renewed, long markMillis, long expiresAt, String server) {
		this.leases.computeIfPresent(workerId, (id, current) -> (current == renewed)
				? new Held(renewed.token(), markMillis, expiresAt, server) : current);
	}

	/**
	 * Records that a claim on probation was confirmed without recording a mark, unless it was replaced meanwhile.
	 * @param workerId the worker ID
	 * @param probed the lease as it was before
	 * @param expiresAt the new expiry, Redis clock
	 * @param server the {@code run_id} of the Redis process that confirmed it
	 */
	void probed(long workerId, Held probed, long expiresAt, String server) {
		this.leases.computeIfPresent(workerId, (id, current) -> (current == probed)
				? new Held(probed.token(), probed.recordedMark(), expiresAt, server) : current);
	}

	/**
	 * Forgets a lease that turned out to be lost, unless a newer claim replaced it meanwhile.
	 * @param workerId the worker ID
	 * @param lost the lease as it was when the renewal failed
	 */
	void lost(long workerId, Held lost) {
		this.leases.computeIfPresent(workerId, (id, current) -> (current == lost) ? null : current);
	}

	/**
	 * Removes the lease to release it.
	 * @param workerId the worker ID
	 * @return what was known of it, or {@code null} when this assigner holds no lease on the worker ID
	 */
	Held release(long workerId) {
		return this.leases.remove(workerId);
	}

	/**
	 * One lease held.
	 *
	 * @param token the claim's token
	 * @param recordedMark the mark the last successful renewal recorded, or {@code null} before the first
	 * @param expiresAt the expiry Redis last gave the lease (ms, Redis clock)
	 * @param server the {@code run_id} of the Redis process that last confirmed the lease
	 */
	record Held(String token, Long recordedMark, long expiresAt, String server) {
	}

}
