package io.github.uidgen.autoconfigure.actuate;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.concurrent.atomic.AtomicBoolean;

import io.github.uidgen.UidClock;
import io.github.uidgen.UidLayout;
import io.github.uidgen.UidTimeUnit;
import io.github.uidgen.autoconfigure.ManualClock;
import io.github.uidgen.snowflake.DefaultUidGenerator;
import io.github.uidgen.worker.FixedWorkerIdAssigner;
import io.github.uidgen.worker.WorkerLeaseLostException;
import io.github.uidgen.worker.WorkerStoreUnavailableException;
import org.junit.jupiter.api.Test;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link UidHealthIndicator}.
 */
class UidHealthIndicatorTests {

	@Test
	void upWithTheExpiryAndTheWorker() {
		try (DefaultUidGenerator generator = DefaultUidGenerator.builder()
			.workerIdAssigner(new FixedWorkerIdAssigner(31))
			.build()) {
			Health health = new UidHealthIndicator(generator, UidClock.SYSTEM, Duration.ofDays(365)).health();
			assertThat(health.getStatus()).isEqualTo(Status.UP);
			assertThat(health.getDetails()).containsEntry("expiry", UidLayout.defaults().getExpiry().toString())
				.containsEntry("generator", "default")
				.containsEntry("workerId", 31L)
				.containsEntry("assigner", "fixed")
				.doesNotContainKey("warning")
				.doesNotContainKeys("workerSwitches", "previousWorkerId");
		}
	}

	@Test
	void upAfterAMoveToAnotherWorkerAsTheClockSteppedBack() {
		try (DefaultUidGenerator generator = SteppedBackGenerator.build()) {
			Health health = new UidHealthIndicator(generator, UidClock.SYSTEM, Duration.ofDays(365)).health();
			assertThat(health.getStatus()).isEqualTo(Status.UP);
			assertThat(health.getDetails()).containsEntry("workerId", 2L)
				.containsEntry("workerSwitches", 1L)
				.containsEntry("previousWorkerId", 1L);
		}
	}

	@Test
	void warnsInsideTheWindowBeforeTheExpiry() {
		ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));
		// 2^26 seconds from 2025-01-01 run out on 2027-02-16.
		UidLayout layout = new UidLayout(UidTimeUnit.SECONDS, LocalDate.of(2025, 1, 1), 26, 10, 12,
				clock.currentTimeMillis());
		try (DefaultUidGenerator generator = DefaultUidGenerator.builder()
			.layout(layout)
			.clock(clock)
			.workerIdAssigner(new FixedWorkerIdAssigner(32))
			.build()) {
			UidHealthIndicator indicator = new UidHealthIndicator(generator, clock, Duration.ofDays(365));
			assertThat(indicator.health().getDetails()).doesNotContainKey("warning");
			clock.set(layout.getExpiry().minus(Duration.ofDays(100)));
			Health health = indicator.health();
			assertThat(health.getStatus()).isEqualTo(Status.UP);
			assertThat(health.getDetails()).containsEntry("expiry", layout.getExpiry().toString());
			assertThat((String) health.getDetails().get("warning")).contains("runs out in 100 days")
				.contains("uid.time-bits");
		}
	}

	@Test
	void downOnceTheLayoutIsExhausted() {
		ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));
		UidLayout layout = new UidLayout(UidTimeUnit.SECONDS, LocalDate.of(2025, 1, 1), 26, 10, 12,
				clock.currentTimeMillis());
		try (DefaultUidGenerator generator = DefaultUidGenerator.builder()
			.layout(layout)
			.clock(clock)
			.workerIdAssigner(new FixedWorkerIdAssigner(33))
			.build()) {
			clock.set(layout.getExpiry().plusSeconds(1));
			Health health = new UidHealthIndicator(generator, clock, Duration.ofDays(365)).health();
			assertThat(health.getStatus()).isEqualTo(Status.DOWN);
			assertThat((String) health.getDetails().get("error")).contains("ran out at " + layout.getExpiry());
		}
	}

	@Test
	void downOnceTheLeaseIsLost() {
		AtomicBoolean lost = new AtomicBoolean();
		FixedWorkerIdAssigner assigner = new FixedWorkerIdAssigner(34) {

			@Override
			public void renew(long workerId, long highWaterMarkMillis) {
				if (lost.get()) {
					throw new WorkerLeaseLostException(workerId, "taken over by another instance");
				}
				super.renew(workerId, highWaterMarkMillis);
			}

		};
		try (DefaultUidGenerator generator = DefaultUidGenerator.builder()
			.workerIdAssigner(assigner)
			.markReservation(Duration.ofMillis(200))
			.build()) {
			UidHealthIndicator indicator = new UidHealthIndicator(generator, UidClock.SYSTEM, Duration.ofDays(1));
			assertThat(indicator.health().getStatus()).isEqualTo(Status.UP);
			lost.set(true);
			await().atMost(Duration.ofSeconds(10)).until(() -> indicator.health().getStatus().equals(Status.DOWN));
			assertThat((String) indicator.health().getDetails().get("error")).contains("Lost the lease on worker ID 34")
				.contains("taken over by another instance");
		}
	}

	/**
	 * The store stops answering: the generator issues on its lease, and health stays UP (a store outage taken out of
	 * every load balancer would be an outage of its own), saying how long the store has been silent and until when
	 * issue goes on; DOWN once that is about to end, UP again when the store answers.
	 */
	@Test
	void upWithAWarningWhileTheStoreIsSilentAndDownOnlyOnceIssueIsAboutToStop() {
		ManualClock clock = new ManualClock(Instant.parse("2026-12-01T00:00:00Z"));
		AtomicBoolean down = new AtomicBoolean();
		FixedWorkerIdAssigner assigner = new FixedWorkerIdAssigner(35) {

			@Override
			public void renew(long workerId, long highWaterMarkMillis) {
				if (down.get()) {
					throw new WorkerStoreUnavailableException("the store is down (test)", null);
				}
				super.renew(workerId, highWaterMarkMillis);
			}

			@Override
			public Duration renewInterval() {
				return Duration.ofMillis(100);
			}

			@Override
			public Duration leaseHold() {
				return Duration.ofSeconds(30);
			}

		};
		try (DefaultUidGenerator generator = DefaultUidGenerator.builder()
			.workerIdAssigner(assigner)
			.clock(clock)
			.build()) {
			UidHealthIndicator indicator = new UidHealthIndicator(generator, clock, Duration.ofDays(1));
			generator.getUID();
			down.set(true);
			await().atMost(Duration.ofSeconds(10)).until(() -> indicator.health().getDetails().containsKey("warning"));
			Health riding = indicator.health();
			assertThat(riding.getStatus()).isEqualTo(Status.UP);
			assertThat(riding.getDetails()).containsKeys("storeSilentFor", "issueUntil", "issueLeft");
			assertThat(Instant.parse((String) riding.getDetails().get("issueUntil")))
				.as("the lease less the 2 s skew, from the last renewal sent").isEqualTo(Instant.parse("2026-12-01T00:00:28Z"));
			assertThat((String) riding.getDetails().get("warning")).contains("worker store has not answered")
				.contains("goes on issuing until 2026-12-01T00:00:28Z");

			clock.advance(Duration.ofSeconds(20));
			generator.getUID();
			assertThat(indicator.health().getStatus()).as("8 s left: issue goes on").isEqualTo(Status.UP);
			clock.advance(Duration.ofMillis(7_900));
			assertThat(indicator.health().getStatus()).as("0.1 s left").isEqualTo(Status.DOWN);
			assertThat((String) indicator.health().getDetails().get("error")).contains("issue stops after");

			down.set(false);
			await().atMost(Duration.ofSeconds(10)).until(() -> indicator.health().getStatus().equals(Status.UP));
			assertThat(indicator.health().getDetails()).doesNotContainKey("warning");
		}
	}

	@Test
	void applicationsOwnGeneratorIsJudgedByItsLayout() {
		Health health = new UidHealthIndicator(new FixedLayoutGenerator(), UidClock.SYSTEM, Duration.ofDays(1))
			.health();
		assertThat(health.getStatus()).isEqualTo(Status.UP);
		assertThat(health.getDetails()).containsOnlyKeys("generator", "expiry")
			.containsEntry("generator", FixedLayoutGenerator.class.getName());
		Health expired = new UidHealthIndicator(new FixedLayoutGenerator(),
				() -> UidLayout.defaults().getExpiry().toEpochMilli(), Duration.ofDays(1))
			.health();
		assertThat(expired.getStatus()).isEqualTo(Status.DOWN);
	}

}
