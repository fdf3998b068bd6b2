package io.github.uidgen.worker.zookeeper;

import java.time.Duration;
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

	private static WorkerNode node(long workerId, String instanceId, String token, long markMillis,
			boolean leaseNode) {
		return new WorkerNode(workerId, new WorkerRecord(instanceId, token, 30_000, markMillis), 1, NOW - 1_000,
				leaseNode);
	}

}
