package io.github.uidgen.autoconfigure;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import io.github.uidgen.DecodedUid;
import io.github.uidgen.UidGenerator;
import io.github.uidgen.UidLayout;
import io.github.uidgen.UidTimeUnit;
import io.github.uidgen.UidUnavailableException;
import io.github.uidgen.buffer.RejectedPutHandler;
import io.github.uidgen.buffer.RejectedTakeHandler;
import io.github.uidgen.snowflake.AbstractUidGenerator;
import io.github.uidgen.snowflake.CachedUidGenerator;
import io.github.uidgen.snowflake.DefaultUidGenerator;
import io.github.uidgen.worker.FixedWorkerIdAssigner;
import io.github.uidgen.worker.WorkerAssignment;
import io.github.uidgen.worker.WorkerIdAssigner;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link UidGeneratorAutoConfiguration} once the Snowflake generator has started: the layout properties,
 * the clock tolerance and a step back, a lost lease, the generator chosen, customizers, the application's own
 * generator, closing with the context and before connection factories stop, and the cached generator's take
 * policies. How the generator starts beside the context is in {@link SnowflakeGeneratorStartTests}.
 */
class UidGeneratorAutoConfigurationTests extends AbstractUidGeneratorAutoConfigurationTests {

	private static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");

	/**
	 * A tiny cached generator on a stopped clock: a ring of 2, 2 IDs per second, and one second of borrowing, so
	 * the first fill overruns the ring and, after 4 IDs at most, the ring stays empty.
	 */
	private final ApplicationContextRunner tinyRingRunner = this.contextRunner
		.withBean(CachedUidGeneratorCustomizer.class, () -> (builder) -> builder.clock(new ManualClock(NOW)))
		.withPropertyValues("uid.generator=cached", "uid.time-unit=seconds", "uid.seq-bits=1",
				"uid.cached.boost-power=0", "uid.cached.max-ahead=1s", "uid.cached.schedule-interval=0s");

	@Test
	void defaultGeneratorIssuesIdsOfTheDefaultLayout() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasSingleBean(UidGenerator.class).hasSingleBean(StartingUidGenerator.class);
			DefaultUidGenerator generator = (DefaultUidGenerator) context.getBean(StartingUidGenerator.class).awaitStarted();
			assertThat(generator.layout()).isEqualTo(UidLayout.defaults());
			assertThat(generator.status().worker().assigner()).isEqualTo("fixed");
			long[] ids = new long[10_000];
			for (int i = 0; i < ids.length; i++) {
				ids[i] = generator.getUID();
			}
			Arrays.sort(ids);
			int duplicates = 0;
			for (int i = 1; i < ids.length; i++) {
				if (ids[i] == ids[i - 1]) {
					duplicates++;
				}
			}
			assertThat(duplicates).isZero();
			assertThat(ids[0]).isPositive();
			assertThat(generator.decode(ids[0]).workerId()).isEqualTo(7);
		});
	}

	@Test
	void layoutPropertiesShapeTheIds() {
		this.contextRunner
			.withPropertyValues("uid.time-unit=seconds", "uid.epoch=2020-06-01", "uid.time-bits=31",
					"uid.worker-bits=8", "uid.seq-bits=13")
			.run((context) -> {
				UidGenerator generator = context.getBean(UidGenerator.class);
				assertThat(generator.layout())
					.isEqualTo(new UidLayout(UidTimeUnit.SECONDS, LocalDate.of(2020, 6, 1), 31, 8, 13));
				Instant before = Instant.now().minusSeconds(1);
				DecodedUid decoded = generator.decode(generator.getUID());
				assertThat(decoded.workerId()).isEqualTo(7);
				assertThat(decoded.timestamp()).isBetween(before, Instant.now());
				assertThat(generator.getUID()).isLessThan(1L << 52);
			});
	}

	@Test
	void defaultGeneratorTakesTheClockTolerance() {
		ManualClock clock = new ManualClock(NOW);
		this.contextRunner.withBean(DefaultUidGeneratorCustomizer.class, () -> (builder) -> builder.clock(clock))
			.withPropertyValues("uid.clock-backwards-tolerance=50ms")
			.run((context) -> {
				UidGenerator generator = context.getBean(UidGenerator.class);
				generator.getUID();
				clock.advance(Duration.ofMillis(-30));
				generator.getUID();
				clock.advance(Duration.ofMillis(-100));
				assertThatExceptionOfType(io.github.uidgen.ClockMovedBackwardsException.class)
					.isThrownBy(generator::getUID)
					.withMessageContaining("50 ms");
			});
	}

	@Test
	void defaultGeneratorMovesToAnotherWorkerOnAStepBackUnlessSwitchedOff() {
		WorkerIdAssigner twoWorkers = new WorkerIdAssigner() {

			@Override
			public WorkerAssignment assign(long maxWorkerId) {
				return WorkerAssignment.fresh(1);
			}

			@Override
			public java.util.Optional<WorkerAssignment> assignBehind(long maxWorkerId, long latestMarkMillis) {
				return java.util.Optional.of(WorkerAssignment.fresh(2));
			}

			@Override
			public void renew(long workerId, long highWaterMarkMillis) {
			}

			@Override
			public void release(long workerId, long highWaterMarkMillis) {
			}

			@Override
			public String name() {
				return "two-workers";
			}

		};
		ManualClock clock = new ManualClock(NOW);
		ApplicationContextRunner runner = new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(UidGeneratorAutoConfiguration.class))
			.withBean(DefaultUidGeneratorCustomizer.class, () -> (builder) -> builder.clock(clock))
			.withBean(WorkerIdAssigner.class, () -> twoWorkers);
		runner.run((context) -> {
			UidGenerator generator = context.getBean(UidGenerator.class);
			generator.getUID();
			clock.advance(Duration.ofMinutes(-10));
			assertThat(generator.decode(generator.getUID()).workerId()).isEqualTo(2);
		});
		clock.set(NOW);
		runner.withPropertyValues("uid.clock-backwards-switch-worker=false").run((context) -> {
			UidGenerator generator = context.getBean(UidGenerator.class);
			generator.getUID();
			clock.advance(Duration.ofMinutes(-10));
			assertThatExceptionOfType(io.github.uidgen.ClockMovedBackwardsException.class)
				.isThrownBy(generator::getUID);
		});
	}

	@Test
	void aGeneratorWhoseLeaseIsLostClaimsAgainUnlessSwitchedOff() {
		LeaseLosingAssigner losingOnce = new LeaseLosingAssigner();
		ApplicationContextRunner runner = new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(UidGeneratorAutoConfiguration.class))
			.withBean(WorkerIdAssigner.class, () -> losingOnce);
		runner.run((context) -> {
			AbstractUidGenerator generator = context.getBean(StartingUidGenerator.class).awaitStarted();
			generator.getUID();
			losingOnce.loseWorkerOne();
			await().atMost(Duration.ofSeconds(10)).until(() -> generator.status().worker().recoveries() > 0);
			assertThat(generator.status().worker().recoveries()).isOne();
			assertThat(generator.status().worker().id()).isEqualTo(2);
			assertThat(generator.decode(generator.getUID()).workerId()).isEqualTo(2);
		});
		losingOnce.reset();
		runner.withPropertyValues("uid.worker.reclaim-lost-lease=false").run((context) -> {
			AbstractUidGenerator generator = context.getBean(StartingUidGenerator.class).awaitStarted();
			generator.getUID();
			losingOnce.loseWorkerOne();
			await().atMost(Duration.ofSeconds(10)).until(() -> generator.status().failure() != null);
			assertThat(generator.status().failure()).hasMessageContaining("Restart the instance");
			// Nothing claims again: the state holds over ten renew intervals of the assigner (20 ms each).
			await().during(Duration.ofMillis(200)).atMost(Duration.ofSeconds(10))
				.until(() -> generator.status().worker().recoveries() == 0 && losingOnce.claims() == 1
						&& generator.status().failure() != null);
			assertThat(generator.status().worker().recoveries()).isZero();
			assertThat(losingOnce.claims()).isOne();
		});
	}

	@Test
	void cachedGeneratorIsChosenByProperty() {
		this.contextRunner
			.withPropertyValues("uid.generator=cached", "uid.cached.boost-power=1", "uid.cached.padding-factor=30",
					"uid.cached.schedule-interval=0s", "uid.cached.max-ahead=2s")
			.run((context) -> {
				assertThat(context).hasSingleBean(UidGenerator.class).hasSingleBean(StartingUidGenerator.class);
				CachedUidGenerator generator = ((CachedUidGenerator) context.getBean(StartingUidGenerator.class).awaitStarted());
				assertThat(generator.getBoostPower()).isEqualTo(1);
				assertThat(generator.getPaddingFactor()).isEqualTo(30);
				assertThat(generator.getScheduleInterval()).isZero();
				assertThat(generator.getMaxAhead()).isEqualTo(Duration.ofSeconds(2));
				assertThat(generator.status().ring().capacity()).isEqualTo(4096 << 1);
				assertThat(generator.decode(generator.getUID()).workerId()).isEqualTo(7);
			});
	}

	@Test
	void aBareScheduleIntervalMeansSecondsAsInBaidusGenerator() {
		this.contextRunner.withPropertyValues("uid.generator=cached", "uid.cached.schedule-interval=60")
			.run((context) -> assertThat(((CachedUidGenerator) context.getBean(StartingUidGenerator.class).awaitStarted()).getScheduleInterval())
				.isEqualTo(Duration.ofSeconds(60)));
		this.contextRunner.withPropertyValues("uid.generator=cached", "uid.cached.schedule-interval=250ms")
			.run((context) -> assertThat(((CachedUidGenerator) context.getBean(StartingUidGenerator.class).awaitStarted()).getScheduleInterval())
				.isEqualTo(Duration.ofMillis(250)));
	}

	@Test
	void aCustomizerGivesTheGeneratorAnotherClock() {
		this.contextRunner
			.withBean(DefaultUidGeneratorCustomizer.class, () -> (builder) -> builder.clock(new ManualClock(NOW)))
			.run((context) -> {
				UidGenerator generator = context.getBean(UidGenerator.class);
				assertThat(generator.decode(generator.getUID()).timestamp()).isEqualTo(NOW);
			});
	}

	@Test
	void customizersRunInTheirOrder() {
		this.contextRunner.withUserConfiguration(OrderedCustomizers.class).run((context) -> {
			UidGenerator generator = context.getBean(UidGenerator.class);
			// The later one's clock wins, though it is declared first.
			assertThat(generator.decode(generator.getUID()).timestamp()).isEqualTo(NOW.plusSeconds(3600));
		});
	}

	@Test
	void cachedCustomizersApplyOnlyToTheCachedGenerator() {
		AtomicInteger calls = new AtomicInteger();
		this.contextRunner.withBean(CachedUidGeneratorCustomizer.class, () -> (builder) -> calls.incrementAndGet())
			.run((context) -> {
				assertThat(context.getBean(StartingUidGenerator.class).awaitStarted())
					.isInstanceOf(DefaultUidGenerator.class);
				assertThat(calls).hasValue(0);
			});
	}

	@Test
	void applicationsGeneratorWins() {
		UidGenerator own = new UidGenerator() {

			@Override
			public long getUID() {
				return 1;
			}

			@Override
			public UidLayout layout() {
				return UidLayout.defaults();
			}

		};
		this.contextRunner.withBean(UidGenerator.class, () -> own).run((context) -> {
			assertThat(context).hasSingleBean(UidGenerator.class).doesNotHaveBean(AbstractUidGenerator.class);
			assertThat(context.getBean(UidGenerator.class)).isSameAs(own);
		});
	}

	@Test
	void switchedOffByProperty() {
		this.contextRunner.withPropertyValues("uid.enabled=false").run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context).doesNotHaveBean(UidGenerator.class).doesNotHaveBean(UidProperties.class);
		});
	}

	@Test
	void defaultGeneratorIsClosedWithTheContext() {
		FixedWorkerIdAssigner assigner = new FixedWorkerIdAssigner(71);
		AtomicReference<UidGenerator> generator = new AtomicReference<>();
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(UidGeneratorAutoConfiguration.class))
			.withBean(WorkerIdAssigner.class, () -> assigner)
			.run((context) -> {
				generator.set(context.getBean(UidGenerator.class));
				generator.get().getUID();
				assertThat(threadsNamed("worker-71")).isPositive();
			});
		assertThatExceptionOfType(UidUnavailableException.class).isThrownBy(generator.get()::getUID)
			.withMessageContaining("closed");
		assertThat(assigner.highWaterMarkMillis()).isNotEqualTo(WorkerAssignment.NO_MARK);
		assertThat(threadsNamed("worker-71")).isZero();
	}

	@Test
	void cachedGeneratorIsClosedWithTheContext() {
		FixedWorkerIdAssigner assigner = new FixedWorkerIdAssigner(72);
		AtomicReference<UidGenerator> generator = new AtomicReference<>();
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(UidGeneratorAutoConfiguration.class))
			.withBean(WorkerIdAssigner.class, () -> assigner)
			.withPropertyValues("uid.generator=cached")
			.run((context) -> {
				generator.set(context.getBean(UidGenerator.class));
				generator.get().getUID();
				assertThat(threadsNamed("uid-ring-filler-worker-72")).isEqualTo(1);
				assertThat(threadsNamed("uid-mark-keeper-worker-72")).isEqualTo(1);
			});
		assertThatExceptionOfType(UidUnavailableException.class).isThrownBy(generator.get()::getUID);
		assertThat(assigner.highWaterMarkMillis()).isNotEqualTo(WorkerAssignment.NO_MARK);
		assertThat(threadsNamed("worker-72")).isZero();
	}

	@Test
	void generatorIsClosedBeforeConnectionFactoriesStop() {
		// Stands for a Redis connection factory: a lifecycle bean of phase 0, stopped before beans are destroyed.
		AtomicReference<String> seenAtStop = new AtomicReference<>();
		AtomicReference<UidGenerator> generator = new AtomicReference<>();
		SmartLifecycle connectionFactory = new SmartLifecycle() {

			private volatile boolean running;

			@Override
			public void start() {
				this.running = true;
			}

			@Override
			public void stop() {
				this.running = false;
				try {
					generator.get().getUID();
					seenAtStop.set("still issuing");
				}
				catch (UidUnavailableException ex) {
					seenAtStop.set("closed");
				}
			}

			@Override
			public boolean isRunning() {
				return this.running;
			}

			@Override
			public int getPhase() {
				return 0;
			}

		};
		this.contextRunner.withBean("connectionFactory", SmartLifecycle.class, () -> connectionFactory)
			.run((context) -> generator.set(context.getBean(UidGenerator.class)));
		assertThat(seenAtStop).hasValue("closed");
	}

	@Test
	void failFastTakePolicyThrowsOnAnEmptyRing() {
		this.tinyRingRunner.withPropertyValues("uid.cached.take-policy=fail-fast").run((context) -> {
			UidGenerator generator = context.getBean(UidGenerator.class);
			EmptyRing empty = takeUntilEmpty(generator);
			assertThat(empty.taken()).isBetween(2, 4);
			assertThat(empty.failure()).hasMessageContaining("ring buffer is empty");
		});
	}

	@Test
	void waitTakePolicyGivesUpAfterTheTakeTimeout() {
		this.tinyRingRunner.withPropertyValues("uid.cached.take-timeout=150ms").run((context) -> {
			UidGenerator generator = context.getBean(UidGenerator.class);
			// Waiting lets the filler catch up each time, so exactly the 4 IDs of two seconds come out.
			EmptyRing empty = takeUntilEmpty(generator);
			assertThat(empty.taken()).isEqualTo(4);
			assertThat(empty.failure()).hasMessageContaining("within 150 ms");
		});
	}

	@Test
	void aCustomizersTakeHandlerReplacesTheTakePolicy() {
		AtomicInteger calls = new AtomicInteger();
		RejectedTakeHandler own = (ring) -> {
			calls.incrementAndGet();
			return 42;
		};
		this.tinyRingRunner.withPropertyValues("uid.cached.take-policy=fail-fast")
			.withBean("takeHandlerCustomizer", CachedUidGeneratorCustomizer.class,
					() -> (builder) -> builder.rejectedTakeHandler(own))
			.run((context) -> {
				UidGenerator generator = context.getBean(UidGenerator.class);
				long uid = 0;
				for (int i = 0; i < 5 && uid != 42; i++) {
					uid = generator.getUID();
				}
				assertThat(uid).isEqualTo(42);
				assertThat(calls).hasValue(1);
			});
	}

	@Test
	void aCustomizersPutHandlerIsCalledOnAFullRing() {
		AtomicInteger calls = new AtomicInteger();
		RejectedPutHandler own = (ring, uid) -> calls.incrementAndGet();
		this.tinyRingRunner
			.withBean("putHandlerCustomizer", CachedUidGeneratorCustomizer.class,
					() -> (builder) -> builder.rejectedPutHandler(own))
			.run((context) -> {
				assertThat(context).hasSingleBean(UidGenerator.class);
				assertThat(calls.get()).isPositive();
			});
	}

	/** Takes IDs until the stopped clock leaves the ring empty; the test fails if that takes more than 10. */
	private static EmptyRing takeUntilEmpty(UidGenerator generator) {
		for (int taken = 0; taken < 10; taken++) {
			try {
				generator.getUID();
			}
			catch (UidUnavailableException ex) {
				return new EmptyRing(taken, ex);
			}
		}
		throw new AssertionError("The ring never ran empty");
	}

	private record EmptyRing(int taken, UidUnavailableException failure) {
	}

	/** Two customizers declared against their order: the clock of the later one must win. */
	@Configuration(proxyBeanMethods = false)
	static class OrderedCustomizers {

		@Bean
		@Order(2)
		DefaultUidGeneratorCustomizer laterCustomizer() {
			return (builder) -> builder.clock(new ManualClock(NOW.plusSeconds(3600)));
		}

		@Bean
		@Order(1)
		DefaultUidGeneratorCustomizer earlierCustomizer() {
			return (builder) -> builder.clock(new ManualClock(NOW));
		}

	}

	private static long threadsNamed(String part) {
		return Thread.getAllStackTraces()
			.keySet()
			.stream()
			.filter((thread) -> thread.isAlive() && thread.getName().contains(part))
			.count();
	}

}
