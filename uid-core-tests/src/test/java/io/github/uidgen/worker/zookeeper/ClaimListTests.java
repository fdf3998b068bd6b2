package io.github.uidgen.worker.zookeeper;

import java.nio.charset.StandardCharsets;
import java.time.Instant;

import io.github.uidgen.worker.WorkerAssignment;
import io.github.uidgen.worker.fleet.ClaimEnd;
import io.github.uidgen.worker.fleet.WorkerClaim;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The text of a claims znode, which both ZooKeeper assigners rewrite in their claim's transaction: it reads back as
 * written, stays within what ZooKeeper takes in one request however many claims are asked for, and a line edited
 * by hand costs only that line.
 */
class ClaimListTests {

	@Test
	void readsBackAsWrittenNewestFirstWithTabsInTheInstanceId() {
		ClaimList list = ClaimList.EMPTY.open(1_000, WorkerAssignment.NO_MARK, "host-a", "first", 10)
			.closeNewest(ClaimEnd.RELEASED, 2_000)
			.open(3_000, 1_999, "host-b", "second\twith a tab", 10);
		ClaimList read = ClaimList.decode(list.encode());
		assertThat(read).isEqualTo(list);
		assertThat(read.toWorkerClaims(7)).containsExactly(
				new WorkerClaim(7, "second\twith a tab", "host-b", Instant.ofEpochMilli(3_000), null, 1_999,
						ClaimEnd.OPEN),
				new WorkerClaim(7, "first", "host-a", Instant.ofEpochMilli(1_000),
						Instant.ofEpochMilli(2_000), WorkerAssignment.NO_MARK, ClaimEnd.RELEASED));
	}

	@Test
	void keepsTheNewestAsManyAsAskedAndNeverMoreTextThanZooKeeperTakes() {
		ClaimList list = ClaimList.EMPTY;
		for (int i = 0; i < 5; i++) {
			list = list.open(i, i - 1, "host", "claim-" + i, 3);
		}
		assertThat(list.claims()).extracting(ClaimList.Claim::instanceId).containsExactly("claim-4", "claim-3",
				"claim-2");

		String longName = "x".repeat(1_000);
		ClaimList big = ClaimList.EMPTY;
		for (int i = 0; i < 2_000; i++) {
			big = big.open(i, i - 1, longName, longName, 10_000);
		}
		assertThat(big.encode().length).isLessThanOrEqualTo(ClaimList.MAX_BYTES);
		assertThat(big.claims().size()).as("cut to 255 characters, about 1,500 fit").isBetween(1_000, 2_000);
		assertThat(big.claims().get(0).instanceId()).hasSize(1_000);
		assertThat(ClaimList.decode(big.encode()).claims().get(0).instanceId()).as("cut when written").hasSize(255);
	}

	@Test
	void aLineEditedByHandIsLeftOutAndAnotherFormatReadsAsNoHistory() {
		String text = "format=1\n1000\t\t\tOPEN\thost\tkept\nnot a claim\n900\t950\t\tGONE\thost\tbad end\n";
		assertThat(ClaimList.decode(text.getBytes(StandardCharsets.UTF_8)).claims())
			.extracting(ClaimList.Claim::instanceId)
			.containsExactly("kept");
		assertThat(ClaimList.decode("something else".getBytes(StandardCharsets.UTF_8))).isEqualTo(ClaimList.EMPTY);
		assertThat(ClaimList.decode(null)).isEqualTo(ClaimList.EMPTY);
	}

}
