package io.github.uidgen.snowflake;

import java.time.Duration;
import java.util.Arrays;

import io.github.uidgen.ManualClock;
import io.github.uidgen.UidException;
import io.github.uidgen.worker.FixedWorkerIdAssigner;
import io.github.uidgen.worker.WorkerLeaseLostException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

/**
 * The keeper stops issue the moment a renewal finds the lease lost and tells the generator's recovery right after, on
 * its own thread. A caller that meets the loss in between is told what every later caller is told: what the assigner
 * said and what the generator does about it, not the assigner's words alone (seen in a CI run of
 * {@code RedisRestoredFromSnapshotTests}). So is a caller of a cached generator whose filler was waiting for the mark
 * when the loss came (seen in a CI run of {@code RedisRestartRecoveryTests}).
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

	@Test
	void aCallerOfACachedGeneratorWhoseFillerWaitedForTheMarkIsToldThatAWorkerIdIsClaimedAgain() throws Exception {
		CuedLeaseAssigner assigner = new CuedLeaseAssigner(6);
		ManualClock clock = ManualClock.atSystemTime();
		try (CachedUidGenerator generator = CachedUidGenerator.builder()
			.layout(TestGenerators.LAYOUT)
			.clock(clock)
			.workerIdAssigner(assigner)
			.markReservation(Duration.ofMillis(200))
			.markTimeout(Duration.ofSeconds(30))
			.scheduleInterval(Duration.ofMillis(20))
			.build()) {
			generator.getUID();
			assigner.holdRenewals();
			assigner.awaitHeldRenewal();
			// The clock jumps past the reservation: the filler asks for the mark and waits for it, as the keeper's
			// renewal is held.
			clock.advance(10_000);
			Thread filler = thread("uid-ring-filler-worker-6");
			await().atMost(Duration.ofSeconds(30)).until(() -> waitsForTheMark(filler));
			// The renewal is answered: the keeper tells the generator, records the loss, and the filler, still
			// waiting, finds it and stops.
			assigner.loseLease();
			filler.join(30_000);
			assertThat(filler.isAlive()).as("the filler stopped").isFalse();
			UidException told = catchThrowableOfType(UidException.class, generator::getUID);
			assertThat(told).as("what a caller is told").isInstanceOf(WorkerLeaseLostException.class)
				.hasMessageContaining("taken away by the test")
				.hasMessageContaining("Claiming a worker ID again since");
			assertThat(generator.status().failure()).as("what health says")
				.hasMessageContaining("Claiming a worker ID again since");
		}
	}

	private static Thread thread(String name) {
		return Thread.getAllStackTraces()
			.keySet()
			.stream()
			.filter((thread) -> thread.getName().equals(name))
			.findFirst()
			.orElseThrow(() -> new AssertionError("no thread " + name));
	}

	/** Whether the thread waits in the keeper for a unit past the reservation (not just passing through). */
	private static boolean waitsForTheMark(Thread thread) {
		return Arrays.stream(thread.getStackTrace())
			.anyMatch((frame) -> frame.getClassName().equals(HighWaterMarkKeeper.class.getName())
					&& frame.getMethodName().equals("awaitBriefly"));
	}

}
