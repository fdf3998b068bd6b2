package io.github.uidgen.autoconfigure.actuate;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.github.uidgen.autoconfigure.LeaseLosingAssigner;
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
						"uid.worker.switches", "uid.worker.recoveries", "uid.clock.ahead");
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
						"uid.ring.fill.errors");
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
	void applicationsOwnGeneratorHasNoMeters() {
		new UidMeterBinder(new FixedLayoutGenerator()).bindTo(this.registry);
		assertThat(this.registry.getMeters()).isEmpty();
	}

	private FunctionCounter counter(String name) {
		return this.registry.get(name).functionCounter();
	}

}
