package io.github.uidgen.worker;

import java.time.Duration;
import java.util.List;

/**
 * Thrown when a lease assigner finds every worker ID the layout holds leased by a live instance, so there is none
 * to hand out; the message says how many leases are live, whose, and what to change.
 */
public class AllWorkerIdsLeasedException extends WorkerIdOutOfRangeException {

	private static final long serialVersionUID = 1L;

	/** How many holders the message names before it only counts the rest. */
	private static final int NAMED_HOLDERS = 8;

	private final long liveLeases;

	private final transient List<String> holders;

	/**
	 * Creates the exception.
	 * @param maxWorkerId the layout's largest worker ID
	 * @param liveLeases how many leases are live
	 * @param holders instance IDs of (some of) the live holders
	 * @param store where the leases are kept, for example a table name or a Redis hash tag
	 * @param leaseDuration how long a lease lasts without a heartbeat
	 */
	public AllWorkerIdsLeasedException(long maxWorkerId, long liveLeases, List<String> holders, String store,
			Duration leaseDuration) {
		super(message(maxWorkerId, liveLeases, holders, store, leaseDuration), maxWorkerId + 1, maxWorkerId);
		this.liveLeases = liveLeases;
		this.holders = List.copyOf(holders);
	}

	private static String message(long maxWorkerId, long liveLeases, List<String> holders, String store,
			Duration leaseDuration) {
		long workers = maxWorkerId + 1;
		StringBuilder message = new StringBuilder("All ").append(workers)
			.append(" worker IDs are leased: the layout holds worker IDs 0 to ")
			.append(maxWorkerId)
			.append(" (")
			.append(workers)
			.append(" workers), and there are ")
			.append(liveLeases)
			.append(" live leases in ")
			.append(store);
		if (!holders.isEmpty()) {
			message.append(", held by ");
			int named = Math.min(NAMED_HOLDERS, holders.size());
			for (int i = 0; i < named; i++) {
				message.append((i > 0) ? ", '" : "'").append(holders.get(i)).append('\'');
			}
			if (liveLeases > named) {
				message.append(" and ").append(liveLeases - named).append(" more");
			}
		}
		return message.append(". Give the layout more worker bits, or run fewer instances at once; the lease of a ")
			.append("stopped instance frees up ")
			.append(leaseDuration.toSeconds())
			.append(" s after its last heartbeat.")
			.toString();
	}

	/**
	 * Returns how many leases were live.
	 * @return the count
	 */
	public long getLiveLeases() {
		return this.liveLeases;
	}

	/**
	 * Returns the instance IDs of (up to a handful of) the live holders.
	 * @return the holders
	 */
	public List<String> getHolders() {
		return this.holders;
	}

}
