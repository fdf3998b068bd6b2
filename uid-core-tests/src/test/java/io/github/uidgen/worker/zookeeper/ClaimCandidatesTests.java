package io.github.uidgen.worker.zookeeper;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import io.github.uidgen.worker.zookeeper.ClaimCandidates.Candidate;
import io.github.uidgen.worker.zookeeper.ClaimCandidates.Reads;
import io.github.uidgen.worker.zookeeper.WorkerRegistry.Listing;
import io.github.uidgen.worker.zookeeper.WorkerRegistry.Snapshot;
import io.github.uidgen.worker.zookeeper.WorkerRegistry.WorkerNode;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/**
 * The order in which a ZooKeeper claim tries worker IDs, read from a snapshot alone: no server needed.
 */
class ClaimCandidatesTests {

	private static final long NOW = 100_000;

	/** Held (0), free with a mark (1), this instance's own (2), free but far ahead (3); 4 and 5 never used. */
	private final Snapshot snapshot = new Snapshot(NOW,
			List.of(node(0, "other", "token-0", 50_000, true), node(1, "other", "", 50_000, false),
					node(2, "me", "", 60_000, false), node(3, "other", "", NOW + 3_600_000, false)),
			Set.of(0L, 5L));

	private final ClaimCandidates candidates = new ClaimCandidates("me");

	@Test
	void ownWorkerIdFirstThenLowestFreeThenNeverUsedThenFarAhead() {
		List<Candidate> preferred = this.candidates.preferred(this.snapshot, 5, Duration.ofSeconds(20));
		assertThat(preferred).extracting(Candidate::workerId).containsExactly(2L, 1L, 4L, 5L, 3L);
	}

	@Test
	void neverUsedWorkerIdWithALeftoverLeaseZnodeIsMarkedStale() {
		List<Candidate> preferred = this.candidates.preferred(this.snapshot, 5, Duration.ofSeconds(20));
		assertThat(preferred).filteredOn((candidate) -> candidate.node() == null)
			.extracting(Candidate::workerId, Candidate::staleLeaseNode)
			.containsExactly(tuple(4L, false), tuple(5L, true));
	}

	@Test
	void behindTakesOnlyFreeWorkerIdsWhoseMarkIsNoLaterThanTheBound() {
		List<Candidate> behind = this.candidates.behind(this.snapshot, 5, 55_000);
		assertThat(behind).extracting(Candidate::workerId).containsExactly(1L, 4L, 5L);
	}

	@Test
	void aRoundTriesAtMostPerRoundWorkerIds() {
		List<Candidate> preferred = this.candidates.preferred(new Snapshot(NOW, List.of(), Set.of()), 1_023,
				Duration.ofSeconds(20));
		assertThat(preferred).hasSize(ClaimCandidates.PER_ROUND);
	}

	@Test
	void theFirstRoundTriesTheLowestWorkerIdsInOrder() {
		for (int attempt = 0; attempt < 20; attempt++) {
			List<Candidate> preferred = this.candidates.preferred(new Snapshot(NOW, List.of(), Set.of()), 1_023,
					Duration.ofSeconds(20), 1);
			assertThat(preferred).extracting(Candidate::workerId).containsExactly(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L);
		}
	}

	/**
	 * A claim that lost its ranked rounds to others of the same moment spreads out over every worker ID the layout
	 * holds, and tries its pick in random order: tried lowest first, the claimants of a round all met at the lowest of
	 * each pick.
	 */
	@Test
	void roundsAfterTheRankedOnesPickAtRandomAmongEveryWorkerIdInRandomOrder() {
		int random = ClaimCandidates.RANKED_ROUNDS + 1;
		assertThat(ClaimCandidates.window(1)).isEqualTo(ClaimCandidates.window(ClaimCandidates.RANKED_ROUNDS))
			.isEqualTo(8);
		assertThat(ClaimCandidates.window(random)).isEqualTo(ClaimCandidates.window(random + 2)).isGreaterThan(1_024);
		Set<Long> seen = new HashSet<>();
		long firstTried = 0;
		int picks = 50;
		for (int attempt = 0; attempt < picks; attempt++) {
			List<Candidate> preferred = this.candidates.preferred(new Snapshot(NOW, List.of(), Set.of()), 63,
					Duration.ofSeconds(20), random);
			List<Long> ids = preferred.stream().map(Candidate::workerId).toList();
			assertThat(ids).hasSize(ClaimCandidates.PER_ROUND).doesNotHaveDuplicates().allMatch((id) -> id <= 63);
			seen.addAll(ids);
			firstTried += ids.get(0);
		}
		// 50 picks of 8 among 64 leave a given ID out with odds of (56/64)^50, about 1 in 800: at least 32 are seen
		// unless the pick is not random at all.
		assertThat(seen).hasSizeGreaterThan(32);
		// The first tried is uniform over 0..63 (mean 31.5, its mean over 50 picks within 2.6 of it at one standard
		// deviation); the lowest of each pick would average about 7.
		assertThat(firstTried / (double) picks).isGreaterThan(20);
	}

	/**
	 * Every ranked round starts as many places down as claims queued before it are in flight, read afresh: a claim
	 * whose place was taken by a claim outside the queue tries the place its next reading gives it, not a random one.
	 */
	@Test
	void everyRankedRoundStartsAtTheClaimsPlaceInTheQueue() {
		for (int round = 1; round <= ClaimCandidates.RANKED_ROUNDS; round++) {
			List<Candidate> preferred = this.candidates.preferred(new Snapshot(NOW, List.of(), Set.of()), 1_023,
					Duration.ofSeconds(20), round, 5);
			assertThat(preferred).extracting(Candidate::workerId).startsWith(5L, 6L, 7L);
		}
	}

	/** Own and far-ahead worker IDs keep their places in the random rounds too. */
	@Test
	void laterRoundsKeepTheOwnWorkerIdFirstAndFarAheadOnesLast() {
		List<Candidate> preferred = this.candidates.preferred(this.snapshot, 5, Duration.ofSeconds(20),
				ClaimCandidates.RANKED_ROUNDS + 1);
		assertThat(preferred).extracting(Candidate::workerId).hasSize(5).startsWith(2L, 1L).endsWith(3L)
			.containsExactlyInAnyOrder(2L, 1L, 4L, 5L, 3L);
	}

	/** A snapshot that read only the unleased znodes still knows which worker IDs exist: none is taken as new. */
	@Test
	void workerIdsWhoseZnodesWereNotReadAreNotTakenForNeverUsed() {
		Snapshot unleased = new Snapshot(NOW, List.of(node(1, "other", "", 50_000, false)), Set.of(0L, 2L),
				Set.of(0L, 1L, 2L), WorkerOwners.NONE, 0, false);
		List<Candidate> preferred = this.candidates.preferred(unleased, 5, Duration.ofSeconds(20));
		assertThat(preferred).extracting(Candidate::workerId).containsExactly(1L, 3L, 4L, 5L);
	}

	/**
	 * A registry small enough is read whole in a first round, and a snapshot of all of it is complete; a later round
	 * reads no leased worker znode.
	 */
	@Test
	void aRegistryOfUpToReadWholeUpToOfEachKindIsReadWholeInAFirstRound() {
		Listing listing = listing(ClaimCandidates.READ_WHOLE_UP_TO, ClaimCandidates.READ_WHOLE_UP_TO, 0,
				WorkerOwners.NONE);
		Reads reads = this.candidates.toRead(listing, 1_023, 1);
		assertThat(reads.ids()).isEqualTo(listing.workerIds());
		assertThat(reads.complete()).isTrue();
		assertThat(reads.unreadBefore()).isZero();
		assertThat(reads.claimsToo()).isEmpty();
		Reads later = this.candidates.toRead(listing, 1_023, 2);
		assertThat(later.ids()).isEqualTo(listing.workerIds().subList(0, ClaimCandidates.READ_WHOLE_UP_TO));
		assertThat(later.complete()).isFalse();
	}

	/**
	 * A thousand leased worker IDs, this instance's own among them: every round reads its own, with its claims, and
	 * none of the others (a first round read 16 at random); a claim that finds nothing to take reads them all.
	 */
	@Test
	void aLeasedRegistryIsNotReadButTheInstancesOwnWorkerIdAndItsClaimsAlways() {
		WorkerOwners owners = WorkerOwners.of(List.of(WorkerOwners.entry(700, "me"), WorkerOwners.entry(3, "other")));
		Listing listing = listing(0, 1_000, 0, owners);
		Reads first = this.candidates.toRead(listing, 1_023, 1);
		assertThat(first.ids()).containsExactly(700L);
		assertThat(first.claimsToo()).containsExactly(700L);
		assertThat(first.complete()).isFalse();
		assertThat(this.candidates.toRead(listing, 1_023, 2).ids()).containsExactly(700L);
		Reads beyond = this.candidates.toRead(listing, 699, 1);
		assertThat(beyond.ids()).as("beyond the layout's maximum").isEmpty();
		assertThat(beyond.claimsToo()).isEmpty();
		Snapshot nothing = snapshot(listing, beyond.ids(), 0, false);
		assertThat(this.candidates.worthReadingAll(nothing,
				this.candidates.preferred(nothing, 699, Duration.ofSeconds(20)), Duration.ofSeconds(20)))
			.as("every worker ID up to the maximum is leased or unread: read them all")
			.isTrue();
	}

	/**
	 * Five hundred released worker IDs and a hundred claims queued ahead: the first round reads from the hundredth
	 * released one on, and tries the same worker ID it would have tried had it read them all.
	 */
	@Test
	void theFirstRoundReadsTheReleasedWorkerIdsFromAsManyPlacesDownAsClaimsAreQueuedAhead() {
		Listing listing = listing(500, 0, 100, WorkerOwners.NONE);
		Reads reads = this.candidates.toRead(listing, 1_023, 1);
		assertThat(reads.ids())
			.containsExactlyElementsOf(listing.workerIds().subList(100, 100 + ClaimCandidates.READ_SAMPLE));
		assertThat(reads.unreadBefore()).isEqualTo(100);
		Snapshot partial = snapshot(listing, reads.ids(), reads.unreadBefore(), false);
		Snapshot whole = snapshot(listing, listing.workerIds(), 0, true);
		Duration lead = Duration.ofSeconds(20);
		assertThat(this.candidates.preferred(partial, 1_023, lead, 1, 100).get(0))
			.isEqualTo(this.candidates.preferred(whole, 1_023, lead, 1, 100).get(0))
			.extracting(Candidate::workerId)
			.isEqualTo(listing.workerIds().get(100));
		assertThat(this.candidates.worthReadingAll(partial, this.candidates.preferred(partial, 1_023, lead, 1, 100),
				lead)).isFalse();
	}

	/** Nothing to take among what a round read, or only far-ahead marks: the round reads everything first. */
	@Test
	void aPartialReadWithNothingFineToTakeIsReadWhole() {
		Listing listing = listing(200, 0, 0, WorkerOwners.NONE);
		Duration lead = Duration.ofSeconds(20);
		Snapshot partial = snapshot(listing, List.of(), 0, false);
		assertThat(this.candidates.worthReadingAll(partial, List.of(), lead)).isTrue();
		Snapshot farAhead = new Snapshot(NOW, List.of(node(0, "other", "", NOW + 3_600_000, false)), Set.of(),
				Set.copyOf(listing.workerIds()), WorkerOwners.NONE, 0, false);
		assertThat(this.candidates.worthReadingAll(farAhead, this.candidates.preferred(farAhead, 199, lead), lead))
			.isTrue();
		Snapshot complete = snapshot(listing, listing.workerIds(), 0, true);
		assertThat(this.candidates.worthReadingAll(complete, List.of(), lead)).isFalse();
	}

	/** The owner znodes tell an instance's worker IDs by name, whatever characters its instance ID holds. */
	@Test
	void ownerZnodesNameTheWorkerIdAndTheInstance() {
		String instanceId = "pod-7/eu west:8080 ü%";
		String entry = WorkerOwners.entry(42, instanceId);
		assertThat(entry).startsWith("42-").doesNotContain("/");
		WorkerOwners owners = WorkerOwners.of(List.of(entry, WorkerOwners.entry(7, instanceId),
				WorkerOwners.entry(8, "pod-7"), "not-an-owner", "-1-x"));
		assertThat(owners.claimedBy(instanceId)).containsExactly(7L, 42L);
		assertThat(owners.entryOf(8)).isEqualTo(WorkerOwners.entry(8, "pod-7"));
		assertThat(owners.entryOf(9)).isNull();
	}

	/** {@code unleased} worker znodes without a lease znode, then {@code leased} with one, all released long ago. */
	private static Listing listing(int unleased, int leased, int ahead, WorkerOwners owners) {
		List<Long> ids = new ArrayList<>();
		Set<Long> leaseNodes = new HashSet<>();
		for (long id = 0; id < unleased + leased; id++) {
			ids.add(id);
			if (id >= unleased) {
				leaseNodes.add(id);
			}
		}
		return new Listing(NOW, leaseNodes, ids, owners, ahead);
	}

	private static Snapshot snapshot(Listing listing, List<Long> read, int unreadBefore, boolean complete) {
		List<WorkerNode> nodes = read.stream()
			.map((id) -> node(id, "other", listing.leaseNodes().contains(id) ? "token" : "", 50_000,
					listing.leaseNodes().contains(id)))
			.toList();
		return new Snapshot(NOW, nodes, listing.leaseNodes(), Set.copyOf(listing.workerIds()), listing.owners(),
				unreadBefore, complete);
	}

	private static WorkerNode node(long workerId, String instanceId, String token, long markMillis,
			boolean leaseNode) {
		return new WorkerNode(workerId, new WorkerRecord(instanceId, token, 30_000, markMillis), 1, NOW - 1_000,
				leaseNode);
	}

}
