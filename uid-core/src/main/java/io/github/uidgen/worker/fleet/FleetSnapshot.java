package io.github.uidgen.worker.fleet;

import java.util.List;

/**
 * What a worker store holds at one moment.
 *
 * @param store the kind of store: {@code db}, {@code redis}, {@code zookeeper}, {@code zookeeper-leaf}, …
 * @param location where in it the worker IDs live (a table, a key prefix, a path), for the operator to look
 * @param held how many worker IDs are held, all of them counted
 * @param known how many worker IDs the store has a record of (held, released or expired), all of them counted
 * @param workers the worker IDs, lowest first, at most as many as asked for
 */
public record FleetSnapshot(String store, String location, long held, long known, List<FleetWorker> workers) {

	/**
	 * Returns whether the list stops short of every worker ID the store knows.
	 * @return whether workers were left out
	 */
	public boolean truncated() {
		return this.workers.size() < this.known;
	}

}
