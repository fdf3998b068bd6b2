package io.github.uidgen.worker.redis;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.github.uidgen.worker.WorkerLeaseLostException;

/**
 * What this instance knows about each lease it holds in the registry: the claim's token, the mark it last recorded,
 * and when its lease was last set, by this process's monotonic clock. A renewal hands the mark to the registry script,
 * which compares it with what the registry holds, and the time tells a lease that may have expired from one that
 * cannot have: the registry sets the expiry one lease after it receives a call sent at that time.
 */
final class HeldLeases {

	private final Map<Long, Held> leases = new ConcurrentHashMap<>();

	/**
	 * Records a successful claim.
	 * @param workerId the claimed worker ID
	 * @param token the claim's token
	 * @param sentNanos {@link System#nanoTime()} when the claim was sent
	 */
	void claimed(long workerId, String token, long sentNanos) {
		int at = token.lastIndexOf('@');
		this.leases.put(workerId, new Held(token, null, sentNanos, (at >= 0) ? token.substring(at + 1) : ""));
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
	 * Records a successful renewal, unless the lease was released or replaced meanwhile.
	 * @param workerId the worker ID
	 * @param renewed the lease as renewed
	 * @param markMillis the mark it recorded
	 * @param sentNanos when the renewal was sent
	 * @param server the {@code run_id} of the Redis process that renewed it
	 */
	void renewed(long workerId, Held renewed, long markMillis, long sentNanos, String server) {
		this.leases.replace(workerId, renewed, new Held(renewed.token(), markMillis, sentNanos, server));
	}

	/**
	 * Forgets a lease that turned out to be lost, unless a newer claim replaced it meanwhile.
	 * @param workerId the worker ID
	 * @param lost the lease as it was when the renewal failed
	 */
	void lost(long workerId, Held lost) {
		this.leases.remove(workerId, lost);
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
	 * @param setAtNanos {@link System#nanoTime()} when the call that last set the lease's expiry was sent
	 * @param server the {@code run_id} of the Redis process that last confirmed the lease
	 */
	record Held(String token, Long recordedMark, long setAtNanos, String server) {

		/**
		 * Returns whether the lease cannot have expired by now: less than one lease has passed since the call that set
		 * its expiry was sent, and Redis set it no earlier than that.
		 * @param leaseNanos the lease duration
		 * @return whether it is still certainly held
		 */
		boolean certainlyUnexpired(long leaseNanos) {
			return System.nanoTime() - this.setAtNanos < leaseNanos;
		}

		long sinceSetMillis() {
			return (System.nanoTime() - this.setAtNanos) / 1_000_000;
		}

	}

}
