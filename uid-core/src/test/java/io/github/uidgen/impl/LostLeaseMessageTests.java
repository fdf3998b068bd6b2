package io.github.uidgen.impl;

import io.github.uidgen.worker.FixedWorkerIdAssigner;
import io.github.uidgen.worker.WorkerLeaseLostException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The keeper stops issue the moment a renewal finds the lease lost and tells the generator's recovery right after, on
 * its own thread. A caller that meets the loss in between is told what every later caller is told: what the assigner
 * said and what the generator does about it, not the assigner's words alone (seen in a CI run of
 * {@code RedisRestoredFromSnapshotTests}).
 */
class LostLeaseMessageTests {

	private final WorkerLeaseLostException reported = new WorkerLeaseLostException(5, "the store shows it free");

	@Test
	void aCallerWhoMeetsTheLossBeforeTheRecoveryHeardOfItIsToldThatAWorkerIdIsClaimedAgain() {
		try (DefaultUidGenerator generator = DefaultUidGenerator.builder()
			.workerIdAssigner(new FixedWorkerIdAssigner(5))
			.build()) {
			assertThat(generator.lostLease(this.reported)).hasMessageContaining("the store shows it free")
				.hasMessageContaining("Claiming a worker ID again since");
		}
	}

	@Test
	void withReclaimingOffTheCallerIsToldToRestart() {
		try (CachedUidGenerator generator = CachedUidGenerator.builder()
			.workerIdAssigner(new FixedWorkerIdAssigner(5))
			.reclaimLostLease(false)
			.build()) {
			assertThat(generator.lostLease(this.reported)).hasMessageContaining("the store shows it free")
				.hasMessageContaining("Restart the instance to claim a worker ID again");
		}
	}

}
