package io.github.uidgen.worker.zookeeper;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

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
	 * Orders the worker IDs worth trying in a claim's first round: this instance's previous one, the lowest free
	 * ones, the lowest never used; then, only if none of those can be had, free ones whose mark lies beyond the lead.
	 */
	List<Candidate> preferred(Snapshot snapshot, long maxWorkerId, Duration maxMarkLead) {
		return preferred(snapshot, maxWorkerId, maxMarkLead, 1);
	}

	/**
	 * Orders the worker IDs worth trying in a round of a claim, as {@link #preferred(Snapshot, long, Duration)} does;
	 * from the second round on, the free and the never-used ones are a random pick, tried lowest first, among the
	 * lowest {@link #window(int)}: a claim that lost a race lost it to other claimants of the same moment, who would
	 * all try the same few lowest worker IDs again (a fleet of 1,000 starting at once needed hundreds of rounds, and
	 * with a window that doubled each round, 1,000 claims took 23 s, every attempt a write).
	 */
	List<Candidate> preferred(Snapshot snapshot, long maxWorkerId, Duration maxMarkLead, int round) {
		return preferred(snapshot, maxWorkerId, maxMarkLead, round, 0);
	}

	/**
	 * Orders the worker IDs worth trying in a round of a claim, as {@link #preferred(Snapshot, long, Duration, int)}
	 * does, a first round starting {@code queued} places down the free and never-used ones (wrapping round to the
	 * first): that many claims queued before this one are in flight and likely to take the ones before it, so the
	 * claims of a fleet starting at once each try another worker ID where all tried the lowest, and a claim that meets
	 * no other still takes the lowest. This instance's previous worker ID stays first, far-ahead marks last.
	 * @param queued how many claims in flight queued before this one
	 */
	List<Candidate> preferred(Snapshot snapshot, long maxWorkerId, Duration maxMarkLead, int round, int queued) {
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
		int skip = (round <= 1) ? Math.max(0, Math.min(queued, PER_ROUND << 16)) : 0;
		int window = window(round) + skip;
		List<Candidate> freeFine = new ArrayList<>();
		List<Candidate> ahead = new ArrayList<>();
		for (WorkerNode node : free) {
			if (node != own && freeFine.size() < window) {
				if (!isAhead(node, markLimit, now)) {
					freeFine.add(new Candidate(node));
				}
				else if (ahead.size() < PER_ROUND) {
					ahead.add(new Candidate(node));
				}
			}
		}
		List<Candidate> fine = new ArrayList<>();
		if (own != null) {
			(isAhead(own, markLimit, now) ? ahead : fine).add(new Candidate(own));
		}
		List<Candidate> neverUsed = new ArrayList<>();
		addNeverUsed(snapshot, maxWorkerId, neverUsed, window);
		if (skip > 0) {
			List<Candidate> queue = new ArrayList<>(freeFine);
			queue.addAll(neverUsed);
			if (!queue.isEmpty()) {
				int from = skip % queue.size();
				List<Candidate> rotated = new ArrayList<>(queue.subList(from, queue.size()));
				rotated.addAll(queue.subList(0, from));
				fine.addAll(rotated.subList(0, Math.min(rotated.size(), Math.max(0, PER_ROUND - fine.size()))));
			}
			fine.addAll(ahead);
			return fine;
		}
		fine.addAll(pick(freeFine, PER_ROUND - fine.size(), round));
		fine.addAll(pick(neverUsed, PER_ROUND - fine.size(), round));
		fine.addAll(ahead);
		return fine;
	}

	/**
	 * How many of the lowest worker IDs a round picks among: a round's worth in the first, then every one up to
	 * 524,288 (a layout of 19 worker bits), so that claimants who met in the first round spread out at once.
	 */
	static int window(int round) {
		return (round <= 1) ? PER_ROUND : PER_ROUND << 16;
	}

	/**
	 * Up to {@code count} of the candidates, lowest first: the lowest in a first round, a random pick after.
	 */
	private static List<Candidate> pick(List<Candidate> candidates, int count, int round) {
		if (count <= 0) {
			return List.of();
		}
		if (candidates.size() <= count) {
			return candidates;
		}
		if (round <= 1) {
			return candidates.subList(0, count);
		}
		List<Candidate> shuffled = new ArrayList<>(candidates);
		Collections.shuffle(shuffled, ThreadLocalRandom.current());
		List<Candidate> picked = new ArrayList<>(shuffled.subList(0, count));
		picked.sort(Comparator.comparingLong(Candidate::workerId));
		return picked;
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
		addNeverUsed(snapshot, maxWorkerId, candidates, PER_ROUND);
		return candidates;
	}

	/** Adds the lowest worker IDs without a znode, until there are {@code limit} candidates. */
	private static void addNeverUsed(Snapshot snapshot, long maxWorkerId, List<Candidate> candidates, int limit) {
		for (long id = 0; id <= maxWorkerId && candidates.size() < limit; id++) {
			if (!snapshot.existing().contains(id)) {
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
