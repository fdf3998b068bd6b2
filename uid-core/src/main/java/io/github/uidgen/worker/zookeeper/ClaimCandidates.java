package io.github.uidgen.worker.zookeeper;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
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

	/**
	 * How many rounds of a claim try the one worker ID at the claim's place in the queue of claims in flight, read
	 * afresh each round; later rounds pick at random. Read from one state of the registry, the places of the claims of
	 * a moment never meet (each claim ahead takes the free worker ID at its own place, so those behind move up by as
	 * many places as worker IDs went); a place taken all the same means a claim outside the queue (an older uid, a
	 * claim of a further worker ID) or a claim that gave up, and the next round's reading counts them.
	 */
	static final int RANKED_ROUNDS = 3;

	/**
	 * How many worker znodes of a kind (with a lease znode, or without) a round reads at most, where there are more:
	 * a registry of up to this many is read whole.
	 */
	static final int READ_WHOLE_UP_TO = 64;

	/** How many of one kind a round reads where there are more than {@link #READ_WHOLE_UP_TO}. */
	static final int READ_SAMPLE = 2 * PER_ROUND;

	private final String instanceId;

	ClaimCandidates(String instanceId) {
		this.instanceId = instanceId;
	}

	/**
	 * The worker znodes a round of a claim reads, chosen from a listing.
	 * @param ids the worker IDs, ascending
	 * @param unreadBefore how many worker IDs without a lease znode, below those read, are left unread
	 * @param complete whether they are every worker ID listed up to the maximum
	 * @param claimsToo the worker IDs whose claims znodes to read with them: this instance's own, which its claim
	 * most likely takes back
	 */
	record Reads(List<Long> ids, int unreadBefore, boolean complete, List<Long> claimsToo) {
	}

	/**
	 * Chooses the worker znodes a round reads, so that a claim reads a few dozen however large the registry: this
	 * instance's own (told by the owner znodes), with their claims znodes; those without a lease znode (free, but for
	 * a corrupt record or a mark far ahead) from as many places down as claims queued before this one, the first
	 * round's candidates, all of them where there are no more than {@link #READ_WHOLE_UP_TO}; and in the first round
	 * those with a lease znode where there are no more than that, to find a lease that ran out under a session that
	 * lives on (its holder stopped renewing, its client did not), which is preferred to a new worker ID. Where there
	 * are more, none is read: such a lease is then taken only when nothing else is free, as a claim that finds
	 * nothing to take in what it read reads everything before it gives up, so a free worker ID is never missed, only
	 * tried later. A first round read a random 16 of them, which at a fleet's start in a new namespace was a round
	 * trip of its own for nothing: its worker znodes are all leased, by the claims of the moment.
	 * @param listing the round's listing
	 * @param maxWorkerId the largest worker ID the layout holds
	 * @param round the round, from 1
	 * @return the reads
	 */
	Reads toRead(WorkerRegistry.Listing listing, long maxWorkerId, int round) {
		Listed listed = listed(listing, maxWorkerId);
		List<Long> unleased = listed.unleased();
		List<Long> leased = listed.leased();
		Set<Long> ids = new TreeSet<>(listed.own());
		List<Long> claimsToo = listed.own();
		int unreadBefore = 0;
		if (unleased.size() <= READ_WHOLE_UP_TO) {
			ids.addAll(unleased);
		}
		else if (ranked(round)) {
			unreadBefore = Math.min(listing.ahead(), unleased.size());
			ids.addAll(unleased.subList(unreadBefore, Math.min(unleased.size(), unreadBefore + READ_SAMPLE)));
		}
		else {
			ids.addAll(randomly(unleased));
		}
		if (round <= 1 && leased.size() <= READ_WHOLE_UP_TO) {
			ids.addAll(leased);
		}
		return new Reads(List.copyOf(ids), unreadBefore, ids.size() == listed.count(), claimsToo);
	}

	/**
	 * The worker IDs listed up to the maximum, by kind, each ascending: this instance's own (told by the owner
	 * znodes), the others with a lease znode and those without.
	 */
	private record Listed(List<Long> own, List<Long> leased, List<Long> unleased) {

		int count() {
			return this.own.size() + this.leased.size() + this.unleased.size();
		}

	}

	private Listed listed(WorkerRegistry.Listing listing, long maxWorkerId) {
		Set<Long> owners = listing.owners().claimedBy(this.instanceId);
		List<Long> own = new ArrayList<>();
		List<Long> leased = new ArrayList<>();
		List<Long> unleased = new ArrayList<>();
		for (long id : listing.workerIds(maxWorkerId)) {
			(owners.contains(id) ? own : listing.leaseNodes().contains(id) ? leased : unleased).add(id);
		}
		return new Listed(List.copyOf(own), leased, unleased);
	}

	/**
	 * This instance's own worker IDs that a claim tries alone before its first round, reading nothing else: where
	 * more than {@link #READ_WHOLE_UP_TO} worker IDs are without a lease znode (a registry a round would only sample,
	 * such as a fleet's, stopped and started again at once), the instance most likely takes its own back, and the
	 * 16 others a first round reads beside it were most of what the server received from such a fleet. None where
	 * the registry is small, which a first round reads whole as before.
	 * @param listing the first round's listing
	 * @param maxWorkerId the largest worker ID the layout holds
	 * @return the worker IDs, ascending; empty for none
	 */
	List<Long> ownToTryFirst(WorkerRegistry.Listing listing, long maxWorkerId) {
		Listed listed = listed(listing, maxWorkerId);
		return (listed.unleased().size() > READ_WHOLE_UP_TO) ? listed.own() : List.of();
	}

	/**
	 * This instance's own worker IDs among what a snapshot read that a claim may take: free, their mark no further
	 * ahead than the lead; the one it held last first.
	 */
	List<Candidate> ownFree(Snapshot snapshot, Duration maxMarkLead) {
		long now = snapshot.storeMillis();
		long markLimit = markLimit(now, maxMarkLead);
		return freeOwn(snapshot).stream()
			.filter((node) -> !isAhead(node, markLimit, now))
			.map((node) -> new Candidate(node, snapshot))
			.toList();
	}

	/** This instance's own free worker znodes among what a snapshot read, the one it held last first. */
	private List<WorkerNode> freeOwn(Snapshot snapshot) {
		List<WorkerNode> own = new ArrayList<>();
		for (WorkerNode node : snapshot.nodes()) {
			if (node.free(snapshot.storeMillis()) && node.record().instanceId().equals(this.instanceId)) {
				own.add(node);
			}
		}
		// A stable sort: of two held last at the same time, the first read stays first.
		own.sort(Comparator.comparingLong(WorkerNode::modifiedMillis).reversed());
		return own;
	}

	/**
	 * Returns whether a round tries the worker ID at the claim's place in the queue (and only it) rather than a
	 * random pick.
	 */
	static boolean ranked(int round) {
		return round <= RANKED_ROUNDS;
	}

	/** {@link #READ_SAMPLE} of the worker IDs, picked at random. */
	private static List<Long> randomly(List<Long> ids) {
		List<Long> shuffled = new ArrayList<>(ids);
		Collections.shuffle(shuffled, ThreadLocalRandom.current());
		return shuffled.subList(0, Math.min(READ_SAMPLE, shuffled.size()));
	}

	/**
	 * Returns whether a round should read every worker znode before it takes from these candidates: it read only
	 * some, and found nothing to take, or only worker IDs whose mark lies far ahead, which may be passed over for
	 * one it did not read.
	 */
	boolean worthReadingAll(Snapshot snapshot, List<Candidate> candidates, Duration maxMarkLead) {
		if (snapshot.complete()) {
			return false;
		}
		long markLimit = markLimit(snapshot.storeMillis(), maxMarkLead);
		return candidates.stream()
			.allMatch((candidate) -> candidate.node() != null
					&& isAhead(candidate.node(), markLimit, snapshot.storeMillis()));
	}

	private static long markLimit(long storeMillis, Duration maxMarkLead) {
		return (storeMillis > Long.MAX_VALUE - maxMarkLead.toMillis()) ? Long.MAX_VALUE
				: storeMillis + maxMarkLead.toMillis();
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
	 * from the second round on, the free and the never-used ones are a random pick, tried in random order, among the
	 * lowest {@link #window(int)}: a claim that lost a race lost it to other claimants of the same moment, who would
	 * all try the same few lowest worker IDs again (a fleet of 1,000 starting at once needed hundreds of rounds, and
	 * with a window that doubled each round, 1,000 claims took 23 s, every attempt a write). Tried lowest first, the
	 * picks of a round's claimants would meet at the lowest of each (the lowest of 8 among 500 lies among the lowest
	 * 60 or so); in random order the first tried is spread over all of them. (At a fleet's start of 1,000 the claims
	 * at p99 lost 13 races either way, 10 and 15 in two runs after: what is left there is the machine.)
	 */
	List<Candidate> preferred(Snapshot snapshot, long maxWorkerId, Duration maxMarkLead, int round) {
		return preferred(snapshot, maxWorkerId, maxMarkLead, round, 0);
	}

	/**
	 * Orders the worker IDs worth trying in a round of a claim, as {@link #preferred(Snapshot, long, Duration, int)}
	 * does, a {@linkplain #ranked(int) ranked} round starting {@code queued} places down the free and never-used ones
	 * (wrapping round to the first): that many claims queued before this one are in flight and take the ones before
	 * it, so the claims of a fleet starting at once each try another worker ID where all tried the lowest, and a claim
	 * that meets no other still takes the lowest. This instance's previous worker ID stays first, far-ahead marks
	 * last.
	 * @param queued how many claims in flight queued before this one
	 */
	List<Candidate> preferred(Snapshot snapshot, long maxWorkerId, Duration maxMarkLead, int round, int queued) {
		long now = snapshot.storeMillis();
		long markLimit = markLimit(now, maxMarkLead);
		List<WorkerNode> owned = freeOwn(snapshot);
		WorkerNode own = owned.isEmpty() ? null : owned.get(0);
		List<WorkerNode> free = snapshot.nodes().stream().filter((node) -> node.free(now)).toList();
		// The worker IDs without a lease znode that were left unread below those read are places already skipped.
		int skip = ranked(round) ? Math.max(0, Math.min(queued, PER_ROUND << 16) - snapshot.unreadBefore()) : 0;
		int window = window(round) + skip;
		List<Candidate> freeFine = new ArrayList<>();
		List<Candidate> ahead = new ArrayList<>();
		for (WorkerNode node : free) {
			if (node != own && freeFine.size() < window) {
				if (!isAhead(node, markLimit, now)) {
					freeFine.add(new Candidate(node, snapshot));
				}
				else if (ahead.size() < PER_ROUND) {
					ahead.add(new Candidate(node, snapshot));
				}
			}
		}
		List<Candidate> fine = new ArrayList<>();
		if (own != null) {
			(isAhead(own, markLimit, now) ? ahead : fine).add(new Candidate(own, snapshot));
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
	 * How many of the lowest worker IDs a round picks among: a round's worth in the ranked rounds, then every one up
	 * to 524,288 (a layout of 19 worker bits), so that claimants who kept meeting spread out at once.
	 */
	static int window(int round) {
		return ranked(round) ? PER_ROUND : PER_ROUND << 16;
	}

	/**
	 * Up to {@code count} of the candidates: the lowest, lowest first, in a ranked round; a random pick in random
	 * order after.
	 */
	private static List<Candidate> pick(List<Candidate> candidates, int count, int round) {
		if (count <= 0) {
			return List.of();
		}
		if (ranked(round)) {
			return candidates.subList(0, Math.min(count, candidates.size()));
		}
		List<Candidate> shuffled = new ArrayList<>(candidates);
		Collections.shuffle(shuffled, ThreadLocalRandom.current());
		return shuffled.subList(0, Math.min(count, shuffled.size()));
	}

	/** The lowest free worker IDs whose mark is no later than the bound, then the lowest never used. */
	List<Candidate> behind(Snapshot snapshot, long maxWorkerId, long latestMarkMillis) {
		List<Candidate> candidates = new ArrayList<>();
		for (WorkerNode node : snapshot.nodes()) {
			if (candidates.size() < PER_ROUND && node.free(snapshot.storeMillis())
					&& node.startMarkMillis(snapshot.storeMillis()) <= latestMarkMillis) {
				candidates.add(new Candidate(node, snapshot));
			}
		}
		addNeverUsed(snapshot, maxWorkerId, candidates, PER_ROUND);
		return candidates;
	}

	/** Adds the lowest worker IDs without a znode, until there are {@code limit} candidates. */
	private static void addNeverUsed(Snapshot snapshot, long maxWorkerId, List<Candidate> candidates, int limit) {
		for (long id = 0; id <= maxWorkerId && candidates.size() < limit; id++) {
			if (!snapshot.existing().contains(id)) {
				candidates.add(new Candidate(id, null, snapshot.leaseNodes().contains(id), snapshot.owners().entryOf(id)));
			}
		}
	}

	private static boolean isAhead(WorkerNode node, long markLimit, long storeMillis) {
		long mark = node.startMarkMillis(storeMillis);
		return mark != WorkerAssignment.NO_MARK && mark > markLimit;
	}

	/**
	 * A worker ID worth trying: its znode as read ({@code null} if never used), whether a lease znode was seen, and
	 * the name of its owner znode as listed ({@code null} for none).
	 */
	record Candidate(long workerId, WorkerNode node, boolean staleLeaseNode, String owner) {

		Candidate(WorkerNode node, Snapshot snapshot) {
			this(node.workerId(), node, node.leaseNode(), snapshot.owners().entryOf(node.workerId()));
		}

	}

}
