package io.github.uidgen.worker;

import java.time.Duration;
import java.util.Optional;

import io.github.uidgen.UidLayout;
import io.github.uidgen.worker.fleet.WorkerFleet;

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
	 * Records in the store the layout its worker IDs are used with, or, when the store records one already, refuses
	 * another: on one store, worker ID 300 without data-center bits issues the IDs of data center 1, worker 44 with
	 * two. The first caller on a store writes the record atomically; a racing one compares with what won. A store
	 * that has workers but no record (written by an older version) adopts the layout of its first caller. The
	 * generator calls this once at start, before it claims.
	 * <p>The default records nothing: a fixed worker ID, Leaf's nodes (whose layout is Leaf's) and assigners of one's
	 * own keep no layout.
	 * @param layout the generator's layout, data-center bits included
	 * @throws LayoutMismatchException when the store records another layout
	 * @throws WorkerAssignmentException when the store cannot be asked
	 */
	default void recordLayout(UidLayout layout) {
	}

	/**
	 * Claims a worker ID for this instance.
	 * @param maxWorkerId the largest worker ID the layout holds
	 * @return the worker ID and its high-water mark
	 * @throws WorkerIdOutOfRangeException when the ID to hand out is larger than {@code maxWorkerId}
	 * @throws WorkerAssignmentException when no ID can be claimed
	 */
	WorkerAssignment assign(long maxWorkerId);

	/**
	 * Claims a worker ID for this instance, preferring, among the free ones, those whose high-water mark lies no
	 * further ahead of the store's clock than {@code maxMarkLead}: a host whose clock ran fast may have left a mark
	 * minutes in the future on a worker ID, and a generator that gets it must wait for its clock to pass the mark or
	 * refuse to start. Only when no other worker ID is free (nor a new one) may such an ID be handed out.
	 * <p>The default ignores the preference; assigners that reuse worker IDs override it.
	 * @param maxWorkerId the largest worker ID the layout holds
	 * @param maxMarkLead how far ahead of the clock a mark may lie for the generator to start without refusing
	 * @return the worker ID and its high-water mark
	 * @throws WorkerIdOutOfRangeException when the ID to hand out is larger than {@code maxWorkerId}
	 * @throws WorkerAssignmentException when no ID can be claimed
	 */
	default WorkerAssignment assign(long maxWorkerId, Duration maxMarkLead) {
		return assign(maxWorkerId);
	}

	/**
	 * Claims a further worker ID for this instance, one whose high-water mark is no later than
	 * {@code latestMarkMillis} (or that never issued an ID), while the instance keeps the worker IDs it holds. A
	 * generator whose clock stepped back behind its own worker's mark asks for one, so it can go on issuing with a
	 * worker ID that never issued IDs for the times its clock now reads.
	 * <p>The lease assigners take the lowest free worker ID with such a mark, else the lowest never used; the static
	 * assigner its first backup worker ID with such a mark. A live lease is never taken, nor a worker ID whose mark lies
	 * later than the bound. The default claims nothing: assigners that cannot tell (a fixed worker ID, an assigner of
	 * one's own) leave the generator to fail as it did before.
	 * @param maxWorkerId the largest worker ID the layout holds
	 * @param latestMarkMillis the latest mark the worker ID may have, in wall-clock milliseconds of the caller's clock
	 * @return the worker ID and its mark, or empty when no such worker ID is free (or the assigner cannot tell)
	 * @throws WorkerAssignmentException when the store cannot be asked
	 */
	default Optional<WorkerAssignment> assignBehind(long maxWorkerId, long latestMarkMillis) {
		return Optional.empty();
	}

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
	 * Returns how long after a successful {@link #renew(long, long)} was sent the worker ID stays this instance's by
	 * the store's own rules, even when no later renewal reaches the store: the lease. While the store does not answer,
	 * the generator goes on issuing beyond its recorded mark, up to this long (less the clock skew it allows) after the
	 * last renewal it sent that succeeded, so an outage shorter than that costs no refused call.
	 * <p>An assigner that returns more than zero promises two things: nobody else is handed the worker ID before that
	 * time, not even an instance with the same instance ID; and whoever takes it after its lease ran out starts after
	 * the lease's expiry, as the store counts it (the assigner hands it out with a mark no earlier than the expiry).
	 * A store that may lose its data must make claims wait at least this long after the loss.
	 * <p>The default is zero: the generator never issues beyond the mark it recorded (a state file, a fixed worker ID,
	 * Leaf's nodes, assigners of one's own).
	 * @return the lease, {@link Duration#ZERO} when the worker ID is not held beyond the recorded mark
	 */
	default Duration leaseHold() {
		return Duration.ZERO;
	}

	/**
	 * Returns what the store knows of every instance claiming from it, for operators: the fleet, and each worker
	 * ID's history of claims. Reads only; never called on the path that issues IDs.
	 * <p>The default has none: a fixed worker ID and assigners of one's own keep no shared record.
	 * @return the store's reader, or empty when the assigner keeps no shared record
	 */
	default Optional<WorkerFleet> fleet() {
		return Optional.empty();
	}

	/**
	 * Returns a short name for endpoints and logs.
	 * @return for example {@code static}, {@code db} or {@code redis}
	 */
	String name();

}
