package io.github.uidgen.autoconfigure;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import io.github.uidgen.DecodedUid;
import io.github.uidgen.UidGenerator;
import io.github.uidgen.UidLayout;
import io.github.uidgen.UidTimeUnit;
import io.github.uidgen.UidUnavailableException;
import io.github.uidgen.autoconfigure.actuate.UidMeterBinder;
import io.github.uidgen.buffer.RejectedPutHandler;
import io.github.uidgen.buffer.RejectedTakeHandler;
import io.github.uidgen.snowflake.AbstractUidGenerator;
import io.github.uidgen.snowflake.CachedUidGenerator;
import io.github.uidgen.snowflake.DefaultUidGenerator;
import io.github.uidgen.worker.FixedWorkerIdAssigner;
import io.github.uidgen.worker.WorkerAssignment;
import io.github.uidgen.worker.WorkerAssignmentException;
import io.github.uidgen.worker.WorkerIdAssigner;
import io.github.uidgen.worker.WorkerStoreUnavailableException;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link UidGeneratorAutoConfiguration}, with the worker ID given by an application's own
 * {@link WorkerIdAssigner} bean (the assigners have their own tests).
 */
@ExtendWith(OutputCaptureExtension.class)
class UidGeneratorAutoConfigurationTests {

	private static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(UidGeneratorAutoConfiguration.class))
		.withBean(WorkerIdAssigner.class, () -> new FixedWorkerIdAssigner(7));

	/**
	 * A tiny cached generator on a stopped clock: a ring of 2, 2 IDs per second, and one second of borrowing, so
	 * the first fill overruns the ring and, after 4 IDs at most, the ring stays empty.
	 */
	/** The phase in which Spring Boot starts the web server ({@code WebServerApplicationContext}). */
	private static final int WEB_SERVER_START_PHASE = 2147481599;

	private final ApplicationContextRunner tinyRingRunner = this.contextRunner
		.withBean(CachedUidGeneratorCustomizer.class, () -> (builder) -> builder.clock(new ManualClock(NOW)))
		.withPropertyValues("uid.generator=cached", "uid.time-unit=seconds", "uid.seq-bits=1",
				"uid.cached.boost-power=0", "uid.cached.max-ahead=1s", "uid.cached.schedule-interval=0s");

	/**
	 * The worker ID is claimed beside the rest of the context's start: a claim that waits until every other
	 * singleton is created would never finish on the thread that creates them. The context becomes ready only once
	 * the claim is done.
	 */
	@Test
	void theWorkerIdIsClaimedBesideTheRestOfTheStartAndTheContextWaitsForIt() {
		CountDownLatch singletonsCreated = new CountDownLatch(1);
		AtomicReference<String> claimedOn = new AtomicReference<>();
		AtomicReference<Boolean> claimSawTheOthersCreated = new AtomicReference<>();
		FixedWorkerIdAssigner waiting = new FixedWorkerIdAssigner(8) {

			@Override
			public WorkerAssignment assign(long maxWorkerId) {
				claimedOn.set(Thread.currentThread().getName());
				try {
					claimSawTheOthersCreated.set(singletonsCreated.await(30, TimeUnit.SECONDS));
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
				return super.assign(maxWorkerId);
			}

		};
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(UidGeneratorAutoConfiguration.class))
			.withBean(WorkerIdAssigner.class, () -> waiting)
			.withBean(SmartInitializingSingleton.class, () -> singletonsCreated::countDown)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(claimedOn.get()).isEqualTo("uid-start");
				assertThat(claimSawTheOthersCreated.get()).as("every other singleton was created during the claim")
					.isTrue();
				UidGenerator generator = context.getBean(UidGenerator.class);
				assertThat(generator.status().failure()).as("started by the time the context is ready").isNull();
				assertThat(generator.decode(generator.getUID()).workerId()).isEqualTo(8);
			});
	}

	/**
	 * The web server (a lifecycle bean in its phase here) starts while the claim is under way, and the context's start
	 * still ends only once the claim is done: the claim below cannot finish before the web server's phase has
	 * started.
	 */
	@Test
	void theWebServerStartsWhileTheClaimIsUnderWay() {
		CountDownLatch webServerStarted = new CountDownLatch(1);
		AtomicReference<Boolean> claimSawTheWebServer = new AtomicReference<>();
		FixedWorkerIdAssigner waiting = new FixedWorkerIdAssigner(8) {

			@Override
			public WorkerAssignment assign(long maxWorkerId) {
				try {
					claimSawTheWebServer.set(webServerStarted.await(30, TimeUnit.SECONDS));
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
				return super.assign(maxWorkerId);
			}

		};
		SmartLifecycle webServer = new SmartLifecycle() {

			private volatile boolean running;

			@Override
			public void start() {
				this.running = true;
				webServerStarted.countDown();
			}

			@Override
			public void stop() {
				this.running = false;
			}

			@Override
			public boolean isRunning() {
				return this.running;
			}

			@Override
			public int getPhase() {
				return WEB_SERVER_START_PHASE;
			}

		};
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(UidGeneratorAutoConfiguration.class))
			.withBean(WorkerIdAssigner.class, () -> waiting)
			.withBean("webServerStartStop", SmartLifecycle.class, () -> webServer)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(claimSawTheWebServer.get()).as("the web server's phase started during the claim").isTrue();
				UidGenerator generator = context.getBean(UidGenerator.class);
				assertThat(generator.status().failure()).as("started by the time the context is ready").isNull();
				assertThat(generator.decode(generator.getUID()).workerId()).isEqualTo(8);
			});
	}

	/** The meters of a generator still claiming are bound once it has started; binding them does not wait. */
	@Test
	void theMetersOfAStartingGeneratorBindOnceItHasStarted() {
		CountDownLatch claim = new CountDownLatch(1);
		StartingUidGenerator starting = new StartingUidGenerator("default", UidLayout.defaults(), "fixed",
				Duration.ZERO, () -> {
			try {
				claim.await(30, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			return DefaultUidGenerator.builder().workerIdAssigner(new FixedWorkerIdAssigner(8)).build();
		});
		try (starting) {
			SimpleMeterRegistry registry = new SimpleMeterRegistry();
			new UidMeterBinder(starting).bindTo(registry);
			assertThat(registry.find("uid.ids.issued").meter()).as("bound while the claim is under way").isNull();
			claim.countDown();
			starting.awaitStarted();
			assertThat(registry.find("uid.ids.issued").meter()).as("bound once it has started").isNotNull();
			assertThat(registry.find("uid.worker.id").gauge().value()).isEqualTo(8);
		}
	}

	/** A start that fails elsewhere while the claim is under way stops the claim, which gives nothing away. */
	@Test
	void aStartThatFailsElsewhereStopsTheClaimUnderWay() throws Exception {
		CountDownLatch claimEnded = new CountDownLatch(1);
		AtomicReference<Boolean> interrupted = new AtomicReference<>();
		FixedWorkerIdAssigner waiting = new FixedWorkerIdAssigner(10) {

			@Override
			public WorkerAssignment assign(long maxWorkerId) {
				try {
					new CountDownLatch(1).await(60, TimeUnit.SECONDS);
					interrupted.set(false);
				}
				catch (InterruptedException ex) {
					interrupted.set(true);
					Thread.currentThread().interrupt();
				}
				finally {
					claimEnded.countDown();
				}
				throw new WorkerStoreUnavailableException("the claim was stopped", null);
			}

		};
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(UidGeneratorAutoConfiguration.class))
			.withBean(WorkerIdAssigner.class, () -> waiting)
			.withBean(SmartInitializingSingleton.class, () -> () -> {
				throw new IllegalStateException("another bean fails the start");
			})
			.run((context) -> assertThat(context).hasFailed());
		assertThat(claimEnded.await(30, TimeUnit.SECONDS)).as("the claim ended").isTrue();
		assertThat(interrupted.get()).as("stopped by the failed start, not by its own bound").isTrue();
	}

	/** A claim that fails, however long after the bean was created, fails the start with what it threw. */
	@Test
	void aClaimThatFailsInTheBackgroundFailsTheStartWithItsOwnException() {
		AtomicInteger claims = new AtomicInteger();
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(UidGeneratorAutoConfiguration.class))
			.withPropertyValues("uid.worker.store-wait-at-start=0")
			.withBean(WorkerIdAssigner.class, () -> new FixedWorkerIdAssigner(9) {

				@Override
				public WorkerAssignment assign(long maxWorkerId) {
					claims.incrementAndGet();
					throw new WorkerStoreUnavailableException("the store is down (test)", null);
				}

			})
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure()).hasRootCauseInstanceOf(WorkerStoreUnavailableException.class)
					.rootCause()
					.hasMessage("the store is down (test)");
			});
		assertThat(claims).as("no second try with uid.worker.store-wait-at-start=0").hasValue(1);
	}

	/**
	 * A store that leaves the first claims unanswered (many instances starting at once, the store restarting) is
	 * tried again, each try logged, and the start goes on once it answers.
	 */
	@Test
	void aStoreThatDoesNotAnswerAtFirstIsTriedAgainUntilItDoes(CapturedOutput output) {
		AtomicInteger claims = new AtomicInteger();
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(UidGeneratorAutoConfiguration.class))
			.withBean(WorkerIdAssigner.class, () -> new FixedWorkerIdAssigner(11) {

				@Override
				public WorkerAssignment assign(long maxWorkerId) {
					if (claims.incrementAndGet() < 3) {
						throw new WorkerStoreUnavailableException("Cannot reach the store (test).", null);
					}
					return super.assign(maxWorkerId);
				}

			})
			.run((context) -> {
				assertThat(context).hasNotFailed();
				UidGenerator generator = context.getBean(UidGenerator.class);
				assertThat(generator.decode(generator.getUID()).workerId()).isEqualTo(11);
			});
		assertThat(claims).hasValue(3);
		assertThat(output).contains("uid could not claim a worker ID from the fixed store (try 1): Cannot reach the "
				+ "store (test). Trying again in 250 ms")
			.contains("(try 2): Cannot reach the store (test). Trying again in 500 ms")
			.contains("(uid.worker.store-wait-at-start)")
			.doesNotContain("(try 3)");
	}

	/** A store that still does not answer once the wait is over fails the start with what the last try threw. */
	@Test
	void aStoreThatDoesNotAnswerWithinTheWaitFailsTheStart() {
		AtomicInteger claims = new AtomicInteger();
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(UidGeneratorAutoConfiguration.class))
			.withPropertyValues("uid.worker.store-wait-at-start=600ms")
			.withBean(WorkerIdAssigner.class, () -> new FixedWorkerIdAssigner(12) {

				@Override
				public WorkerAssignment assign(long maxWorkerId) {
					throw new WorkerStoreUnavailableException("the store is down (try " + claims.incrementAndGet()
							+ ")", null);
				}

			})
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure()).rootCause()
					.isInstanceOf(WorkerStoreUnavailableException.class)
					.hasMessage("the store is down (try " + claims.get() + ")");
			});
		assertThat(claims).as("tried again within 600 ms, pausing 250 ms, then up to what was left").hasValueBetween(2,
				3);
	}

	/** Only a store that does not answer is tried again: an answer that refuses the claim fails the start at once. */
	@Test
	void aClaimTheStoreRefusesIsNotTriedAgain() {
		AtomicInteger claims = new AtomicInteger();
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(UidGeneratorAutoConfiguration.class))
			.withBean(WorkerIdAssigner.class, () -> new FixedWorkerIdAssigner(13) {

				@Override
				public WorkerAssignment assign(long maxWorkerId) {
					claims.incrementAndGet();
					throw new WorkerAssignmentException("refused (test)");
				}

			})
			.run((context) -> assertThat(context).hasFailed());
		assertThat(claims).hasValue(1);
	}

	@Test
	void aNegativeStoreWaitAtStartIsRefusedNamingTheProperty() {
		this.contextRunner.withPropertyValues("uid.worker.store-wait-at-start=-1s").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.hasMessageContaining("uid.worker.store-wait-at-start")
				.hasMessageContaining("use 0 to fail the start");
		});
	}

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
