package io.github.uidgen.worker.zookeeper;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import io.github.uidgen.worker.zookeeper.ClaimCandidates.Candidate;
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

	/** A claim that lost a round to others of the same moment spreads out over every worker ID the layout holds. */
	@Test
	void laterRoundsPickAtRandomAmongEveryWorkerIdLowestFirst() {
		assertThat(ClaimCandidates.window(1)).isEqualTo(8);
		assertThat(ClaimCandidates.window(2)).isEqualTo(ClaimCandidates.window(4)).isGreaterThan(1_024);
		Set<Long> seen = new HashSet<>();
		for (int attempt = 0; attempt < 50; attempt++) {
			List<Candidate> preferred = this.candidates.preferred(new Snapshot(NOW, List.of(), Set.of()), 63,
					Duration.ofSeconds(20), 2);
			List<Long> ids = preferred.stream().map(Candidate::workerId).toList();
			assertThat(ids).hasSize(ClaimCandidates.PER_ROUND).isSorted().doesNotHaveDuplicates()
				.allMatch((id) -> id <= 63);
			seen.addAll(ids);
		}
		// 50 picks of 8 among 64 leave a given ID out with odds of (56/64)^50, about 1 in 800: at least 32 are seen
		// unless the pick is not random at all.
		assertThat(seen).hasSizeGreaterThan(32);
	}

	/** Own and far-ahead worker IDs keep their places in later rounds too. */
	@Test
	void laterRoundsKeepTheOwnWorkerIdFirstAndFarAheadOnesLast() {
		List<Candidate> preferred = this.candidates.preferred(this.snapshot, 5, Duration.ofSeconds(20), 3);
		assertThat(preferred).extracting(Candidate::workerId).containsExactly(2L, 1L, 4L, 5L, 3L);
	}

	/** A snapshot that read only the unleased znodes still knows which worker IDs exist: none is taken as new. */
	@Test
	void workerIdsWhoseZnodesWereNotReadAreNotTakenForNeverUsed() {
		Snapshot unleased = new Snapshot(NOW, List.of(node(1, "other", "", 50_000, false)), Set.of(0L, 2L),
				Set.of(0L, 1L, 2L));
		List<Candidate> preferred = this.candidates.preferred(unleased, 5, Duration.ofSeconds(20));
		assertThat(preferred).extracting(Candidate::workerId).containsExactly(1L, 3L, 4L, 5L);
	}

	private static WorkerNode node(long workerId, String instanceId, String token, long markMillis,
			boolean leaseNode) {
		return new WorkerNode(workerId, new WorkerRecord(instanceId, token, 30_000, markMillis), 1, NOW - 1_000,
				leaseNode);
	}

}
