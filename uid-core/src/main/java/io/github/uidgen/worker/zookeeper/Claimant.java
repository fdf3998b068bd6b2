package io.github.uidgen.worker.zookeeper;

import java.util.List;

import org.apache.curator.utils.ZKPaths;

/**
 * A claim's place in the queue of claims in flight: an ephemeral sequential znode {@code claimants/c-<sequence>}
 * that the claim creates at its start, whose {@code mtime} is the claim's time (so it stands for the write to the
 * clock znode), and that the transaction taking a worker ID deletes. The claims queued before it that are still in
 * flight are likely to take the free worker IDs before it: a claim starts its first round that many places down the
 * list of candidates, so a fleet starting at once spreads over the worker IDs instead of all trying the lowest.
 */
final class Claimant {

	private volatile String path;

	private volatile long sequence = -1;

	String path() {
		return this.path;
	}

	void queued(String path) {
		this.path = path;
		this.sequence = sequenceOf(ZKPaths.getNodeFromPath(path));
	}

	void dequeued() {
		this.path = null;
	}

	/** How many of the listed claimants queued before this one. */
	int ahead(List<String> claimants) {
		if (this.sequence < 0) {
			return 0;
		}
		int ahead = 0;
		for (String name : claimants) {
			long other = sequenceOf(name);
			if (other >= 0 && other < this.sequence) {
				ahead++;
			}
		}
		return ahead;
	}

	private static long sequenceOf(String name) {
		int dash = name.lastIndexOf('-');
		try {
			return (dash >= 0) ? Long.parseLong(name.substring(dash + 1)) : -1;
		}
		catch (NumberFormatException ex) {
			return -1;
		}
	}

}
