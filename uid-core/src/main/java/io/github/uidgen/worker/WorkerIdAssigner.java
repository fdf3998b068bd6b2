package io.github.uidgen.worker;

import java.time.Duration;

/**
 * Hands a generator a worker ID no other running instance holds, together with the worker's high-water mark:
 * the latest time this worker may already have issued IDs for.
 *
 * <p>The generator calls {@link #assign(long)} once at start, then {@link #renew(long, long)} from a background
 * thread to record each new mark <em>before</em> it issues IDs beyond the previous one (and, for leases, to
 * heartbeat), and {@link #release(long, long)} once on close. Marks are wall-clock milliseconds, so they stay
 * meaningful if the layout changes.
 */
public interface WorkerIdAssigner {

	/**
	 * Claims a worker ID for this instance.
	 * @param maxWorkerId the largest worker ID the layout holds
	 * @return the worker ID and its high-water mark
	 * @throws WorkerIdOutOfRangeException when the ID to hand out is larger than {@code maxWorkerId}
	 * @throws WorkerAssignmentException when no ID can be claimed
	 */
	WorkerAssignment assign(long maxWorkerId);

	/**
	 * Durably records that the worker may issue IDs up to and including the time unit starting at
	 * {@code highWaterMarkMillis}, and renews its lease where it has one. Returns only once the mark is stored.
	 * @param workerId the worker ID from {@link #assign(long)}
	 * @param highWaterMarkMillis the new mark, never lower than the previous one
	 * @throws WorkerLeaseLostException when this instance no longer holds the worker ID
	 */
	void renew(long workerId, long highWaterMarkMillis);

	/**
	 * Records the final mark and gives the worker ID back.
	 * @param workerId the worker ID from {@link #assign(long)}
	 * @param highWaterMarkMillis the latest time the worker issued IDs for
	 */
	void release(long workerId, long highWaterMarkMillis);

	/**
	 * Returns the longest the generator may go without calling {@link #renew(long, long)}; leases expire when
	 * they are not renewed in time.
	 * @return the renewal interval, {@link Duration#ZERO} when renewing is only needed to move the mark
	 */
	default Duration renewInterval() {
		return Duration.ZERO;
	}

	/**
	 * Returns a short name for endpoints and logs.
	 * @return for example {@code static}, {@code db} or {@code redis}
	 */
	String name();

}
