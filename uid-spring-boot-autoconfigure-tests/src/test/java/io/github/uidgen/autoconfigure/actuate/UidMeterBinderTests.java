package io.github.uidgen.autoconfigure.actuate;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.github.uidgen.UidLayout;
import io.github.uidgen.UidTimeUnit;
import io.github.uidgen.autoconfigure.LeaseLosingAssigner;
import io.github.uidgen.autoconfigure.ManualClock;
import io.github.uidgen.snowflake.CachedUidGenerator;
import io.github.uidgen.snowflake.DefaultUidGenerator;
import io.github.uidgen.worker.FixedWorkerIdAssigner;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link UidMeterBinder}.
 */
class UidMeterBinderTests {

	private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	@Test
	void defaultGeneratorMeters() {
		try (DefaultUidGenerator generator = DefaultUidGenerator.builder()
			.workerIdAssigner(new FixedWorkerIdAssigner(41))
			.build()) {
			new UidMeterBinder(generator).bindTo(this.registry);
			assertThat(this.registry.getMeters()).extracting((meter) -> meter.getId().getName())
				.containsExactlyInAnyOrder("uid.ids.issued", "uid.clock.backwards", "uid.mark.failures",
						"uid.worker.switches", "uid.worker.recoveries", "uid.clock.ahead", "uid.unavailable",
						"uid.layout.remaining", "uid.worker.id", "uid.worker.id.space", "uid.worker.lease.lost",
						"uid.worker.store.silent", "uid.worker.issue.remaining", "uid.sequence.exhausted");
			assertThat(this.registry.getMeters())
				.allSatisfy((meter) -> assertThat(meter.getId().getTag("generator")).isEqualTo("default"));
			for (int i = 0; i < 1000; i++) {
				generator.getUID();
			}
			assertThat(counter("uid.ids.issued").count()).isEqualTo(1000);
			assertThat(counter("uid.clock.backwards").count()).isZero();
			assertThat(counter("uid.mark.failures").count()).isZero();
			assertThat(counter("uid.worker.switches").count()).isZero();
			assertThat(this.registry.get("uid.clock.ahead").timeGauge().value(TimeUnit.SECONDS)).isNotNegative();
			assertThat(this.registry.get("uid.worker.store.silent").timeGauge().value(TimeUnit.SECONDS))
				.as("the store answers").isZero();
			assertThat(this.registry.get("uid.worker.issue.remaining").timeGauge().value(TimeUnit.SECONDS))
				.as("up to the recorded mark, as a fixed worker ID has no lease to issue on")
				.isGreaterThan(0)
				.isLessThanOrEqualTo(3);
		}
	}

	@Test
	void countsTheMovesToAnotherWorkerAsTheClockSteppedBack() {
		try (DefaultUidGenerator generator = SteppedBackGenerator.build()) {
			new UidMeterBinder(generator).bindTo(this.registry);
			assertThat(counter("uid.worker.switches").count()).isEqualTo(1);
			assertThat(counter("uid.clock.backwards").count()).isEqualTo(1);
		}
	}

	@Test
	void countsTheRecoveriesAfterALostLeaseAndNeverGoesBackOnTheIssuedIds() throws InterruptedException {
		LeaseLosingAssigner losingOnce = new LeaseLosingAssigner();
		try (CachedUidGenerator generator = CachedUidGenerator.builder()
			.workerIdAssigner(losingOnce)
			.maxAhead(Duration.ofSeconds(1))
			.build()) {
			new UidMeterBinder(generator).bindTo(this.registry);
			for (int i = 0; i < 1_000; i++) {
				generator.getUID();
			}
			assertThat(counter("uid.worker.recoveries").count()).isZero();
			losingOnce.loseWorkerOne();
			await().atMost(Duration.ofSeconds(10)).until(() -> counter("uid.worker.recoveries").count() > 0);
			assertThat(counter("uid.worker.recoveries").count()).isEqualTo(1);
			for (int i = 0; i < 1_000; i++) {
				generator.getUID();
			}
			assertThat(counter("uid.ids.issued").count()).as("what the first ring handed out still counts")
				.isEqualTo(2_000.0);
			assertThat(generator.status().worker().id()).isEqualTo(2);
		}
	}

	@Test
	void cachedGeneratorMeters() {
		try (CachedUidGenerator generator = CachedUidGenerator.builder()
			.workerIdAssigner(new FixedWorkerIdAssigner(42))
			.boostPower(0)
			.maxAhead(Duration.ofSeconds(1))
			.build()) {
			new UidMeterBinder(generator).bindTo(this.registry);
			assertThat(this.registry.getMeters()).extracting((meter) -> meter.getId().getName())
				.containsExactlyInAnyOrder("uid.ids.issued", "uid.clock.backwards", "uid.mark.failures",
						"uid.worker.switches", "uid.worker.recoveries", "uid.clock.ahead", "uid.ring.size", "uid.ring.capacity", "uid.ring.put.rejections", "uid.ring.take.rejections",
						"uid.ring.fill.errors", "uid.unavailable", "uid.layout.remaining", "uid.worker.id",
						"uid.worker.id.space", "uid.worker.lease.lost", "uid.worker.store.silent",
						"uid.worker.issue.remaining");
			assertThat(this.registry.get("uid.ring.capacity").gauge().value()).isEqualTo(4096);
			assertThat(this.registry.get("uid.ring.size").gauge().value()).isBetween(1.0, 4096.0);
			// The first fill stops on a full ring and keeps the rest of the time unit for the next one.
			assertThat(counter("uid.ring.put.rejections").count()).isPositive();
			for (int i = 0; i < 10_000; i++) {
				generator.getUID();
			}
			// IDs handed out, not what the calling thread still holds in its run.
			assertThat(counter("uid.ids.issued").count()).isEqualTo(10_000.0);
			assertThat(counter("uid.ring.fill.errors").count()).isZero();
			assertThat(this.registry.getMeters()).extracting(Meter::getId)
				.allSatisfy((id) -> assertThat(id.getTag("generator")).isEqualTo("cached"));
		}
	}

	@Test
	void layoutRemainingIsTheTimeUntilTheExpiryByTheClock() {
		UidLayout layout = UidLayout.defaults();
		ManualClock clock = new ManualClock(layout.getExpiry().minus(Duration.ofDays(400)));
		try (DefaultUidGenerator generator = DefaultUidGenerator.builder()
			.workerIdAssigner(new FixedWorkerIdAssigner(41))
			.build()) {
			new UidMeterBinder(generator, null, clock).bindTo(this.registry);
			assertThat(this.registry.get("uid.layout.remaining").timeGauge().value(TimeUnit.SECONDS))
				.isEqualTo(Duration.ofDays(400).toSeconds());
			clock.set(layout.getExpiry().plusSeconds(1));
			assertThat(this.registry.get("uid.layout.remaining").timeGauge().value(TimeUnit.SECONDS)).isZero();
		}
	}

	@Test
	void workerIdAgainstTheSpaceOfTheLayout() {
		try (DefaultUidGenerator generator = DefaultUidGenerator.builder()
			.workerIdAssigner(new FixedWorkerIdAssigner(41))
			.build()) {
			new UidMeterBinder(generator).bindTo(this.registry);
			assertThat(this.registry.get("uid.worker.id").gauge().value()).isEqualTo(41);
			assertThat(this.registry.get("uid.worker.id.space").gauge().value())
				.isEqualTo(UidLayout.defaults().getMaxWorkerId() + 1);
			assertThat(this.registry.get("uid.worker.lease.lost").gauge().value()).isZero();
			assertThat(this.registry.get("uid.unavailable").gauge().value()).isZero();
		}
	}

	@Test
	void leaseLostAndUnavailableOnceTheLeaseIsGone() {
		LeaseLosingAssigner losingOnce = new LeaseLosingAssigner();
		try (DefaultUidGenerator generator = DefaultUidGenerator.builder()
			.workerIdAssigner(losingOnce)
			.reclaimLostLease(false)
			.build()) {
			new UidMeterBinder(generator).bindTo(this.registry);
			generator.getUID();
			assertThat(this.registry.get("uid.worker.lease.lost").gauge().value()).isZero();
			losingOnce.loseWorkerOne();
			await().atMost(Duration.ofSeconds(10))
				.until(() -> this.registry.get("uid.worker.lease.lost").gauge().value() == 1);
			assertThat(this.registry.get("uid.unavailable").gauge().value()).isEqualTo(1);
		}
	}

	@Test
	void sequenceExhaustedCountsEachUsedUpUnitOnceInSecondsOfTheLayout() throws Exception {
		// Three sequence bits: the ninth ID of a millisecond waits for the next one.
		UidLayout layout = new UidLayout(UidTimeUnit.MILLISECONDS, UidLayout.DEFAULT_EPOCH, 41, 10, 3);
		ManualClock clock = new ManualClock(Instant.now());
		try (DefaultUidGenerator generator = DefaultUidGenerator.builder()
			.layout(layout)
			.clock(clock)
			.workerIdAssigner(new FixedWorkerIdAssigner(3))
			.build()) {
			new UidMeterBinder(generator, null, clock).bindTo(this.registry);
			for (int i = 0; i < 8; i++) {
				generator.getUID();
			}
			assertThat(counter("uid.sequence.exhausted").count()).isZero();
			assertThat(this.registry.get("uid.sequence.exhausted").functionCounter().getId().getBaseUnit())
				.isEqualTo("seconds");
			ExecutorService waiters = Executors.newFixedThreadPool(2);
			try {
				Future<Long> first = waiters.submit(generator::getUID);
				Future<Long> second = waiters.submit(generator::getUID);
				await().atMost(Duration.ofSeconds(10)).until(() -> counter("uid.sequence.exhausted").count() > 0);
				clock.advance(Duration.ofMillis(1));
				assertThat(first.get(10, TimeUnit.SECONDS)).isNotEqualTo(second.get(10, TimeUnit.SECONDS));
			}
			finally {
				waiters.shutdownNow();
			}
			assertThat(counter("uid.sequence.exhausted").count()).as("one millisecond ran out, however many waited")
				.isEqualTo(0.001);
			assertThat(generator.status().exhaustedUnits()).isEqualTo(1);
		}
	}

	@Test
	void cachedGeneratorBorrowsTimeInsteadOfCountingExhaustedUnits() {
		try (CachedUidGenerator generator = CachedUidGenerator.builder()
			.workerIdAssigner(new FixedWorkerIdAssigner(42))
			.build()) {
			new UidMeterBinder(generator).bindTo(this.registry);
			assertThat(this.registry.find("uid.sequence.exhausted").meter()).isNull();
			assertThat(generator.status().exhaustedUnits()).isEqualTo(-1);
		}
	}

	@Test
	void applicationsOwnGeneratorHasNoMeters() {
		new UidMeterBinder(new FixedLayoutGenerator()).bindTo(this.registry);
		assertThat(this.registry.getMeters()).isEmpty();
	}

	private FunctionCounter counter(String name) {
		return this.registry.get(name).functionCounter();
	}

}
