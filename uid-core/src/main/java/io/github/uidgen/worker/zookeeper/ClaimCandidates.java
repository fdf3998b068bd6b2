package io.github.uidgen.worker.zookeeper;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.github.uidgen.worker.WorkerAssignment;
import io.github.uidgen.worker.zookeeper.WorkerRegistry.Snapshot;
import io.github.uidgen.worker.zookeeper.WorkerRegistry.WorkerNode;

/**
 * Picks, from a snapshot of the registry, the worker IDs a claim tries in one round, in the order it prefers them;
 * kept apart from the claim itself so the preference rules read in one place.
 */
final class ClaimCandidates {

	/** How many worker IDs one round of a claim tries before it reads the registry again. */
	static final int PER_ROUND = 8;

	private final String instanceId;

	ClaimCandidates(String instanceId) {
		this.instanceId = instanceId;
	}

	/**
	 * Orders the worker IDs worth trying: this instance's previous one, the lowest free ones, the lowest never used;
	 * then, only if none of those can be had, free ones whose mark lies beyond the lead.
	 */
	List<Candidate> preferred(Snapshot snapshot, long maxWorkerId, Duration maxMarkLead) {
		long now = snapshot.storeMillis();
		long markLimit = (now > Long.MAX_VALUE - maxMarkLead.toMillis()) ? Long.MAX_VALUE
				: now + maxMarkLead.toMillis();
		WorkerNode own = null;
		List<WorkerNode> free = new ArrayList<>();
		for (WorkerNode node : snapshot.nodes()) {
			if (node.free(now)) {
				free.add(node);
				if (node.record().instanceId().equals(this.instanceId)
						&& (own == null || node.modifiedMillis() > own.modifiedMillis())) {
					own = node;
				}
			}
		}
		List<Candidate> fine = new ArrayList<>();
		List<Candidate> ahead = new ArrayList<>();
		if (own != null) {
			(isAhead(own, markLimit, now) ? ahead : fine).add(new Candidate(own));
		}
		for (WorkerNode node : free) {
			if (node != own && fine.size() < PER_ROUND) {
				(isAhead(node, markLimit, now) ? ahead : fine).add(new Candidate(node));
			}
		}
		addNeverUsed(snapshot, maxWorkerId, fine);
		fine.addAll(ahead);
		return fine;
	}

	/** The lowest free worker IDs whose mark is no later than the bound, then the lowest never used. */
	List<Candidate> behind(Snapshot snapshot, long maxWorkerId, long latestMarkMillis) {
		List<Candidate> candidates = new ArrayList<>();
		for (WorkerNode node : snapshot.nodes()) {
			if (candidates.size() < PER_ROUND && node.free(snapshot.storeMillis())
					&& node.startMarkMillis(snapshot.storeMillis()) <= latestMarkMillis) {
				candidates.add(new Candidate(node));
			}
		}
		addNeverUsed(snapshot, maxWorkerId, candidates);
		return candidates;
	}

	/** Adds the lowest worker IDs without a znode, up to a round's worth of candidates. */
	private static void addNeverUsed(Snapshot snapshot, long maxWorkerId, List<Candidate> candidates) {
		int next = 0;
		for (long id = 0; id <= maxWorkerId && candidates.size() < PER_ROUND; id++) {
			while (next < snapshot.nodes().size() && snapshot.nodes().get(next).workerId() < id) {
				next++;
			}
			if (next >= snapshot.nodes().size() || snapshot.nodes().get(next).workerId() != id) {
				candidates.add(new Candidate(id, null, snapshot.leaseNodes().contains(id)));
			}
		}
	}

	private static boolean isAhead(WorkerNode node, long markLimit, long storeMillis) {
		long mark = node.startMarkMillis(storeMillis);
		return mark != WorkerAssignment.NO_MARK && mark > markLimit;
	}

	/** A worker ID worth trying: its znode as read ({@code null} if never used) and whether a lease znode was seen. */
	record Candidate(long workerId, WorkerNode node, boolean staleLeaseNode) {

		Candidate(WorkerNode node) {
			this(node.workerId(), node, node.leaseNode());
		}

	}

}
