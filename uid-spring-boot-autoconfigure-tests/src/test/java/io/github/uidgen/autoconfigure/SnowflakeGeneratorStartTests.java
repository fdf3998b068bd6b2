package io.github.uidgen.autoconfigure;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

import io.github.uidgen.UidGenerator;
import io.github.uidgen.UidLayout;
import io.github.uidgen.autoconfigure.actuate.UidMeterBinder;
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

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests that the auto-configured Snowflake generator claims its worker ID beside the rest of the context's start
 * ({@link StartingUidGenerator}): the claim runs while the other singletons are created and the web server starts,
 * the context is ready only once it is done, the meters bind once the generator has started, a start that fails
 * elsewhere stops the claim, a claim that fails fails the start with its own exception, and a store that does not
 * answer is tried again for up to {@code uid.worker.store-wait-at-start} (a negative wait is refused) while one that
 * refuses the claim is not.
 */
@ExtendWith(OutputCaptureExtension.class)
class SnowflakeGeneratorStartTests extends AbstractUidGeneratorAutoConfigurationTests {

	/** The phase in which Spring Boot starts the web server ({@code WebServerApplicationContext}). */
	private static final int WEB_SERVER_START_PHASE = 2147481599;

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
		StartingUidGenerator starting = startingOnceClaimed(claim);
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

	/**
	 * Whoever waits for the start goes on only once what was to run on the started generator has run: the meters
	 * test above found them unbound at times (once in a fresh-clone CI run), as the generator was visible before its
	 * actions ran. The start thread is held inside an action while another thread waits.
	 */
	@Test
	void awaitingTheStartReturnsOnlyAfterTheActionsOnTheStartedGeneratorHaveRun() throws InterruptedException {
		CountDownLatch actionBegun = new CountDownLatch(1);
		CountDownLatch actionMayEnd = new CountDownLatch(1);
		AtomicReference<Boolean> actionEnded = new AtomicReference<>(false);
		CountDownLatch claim = new CountDownLatch(1);
		StartingUidGenerator starting = startingOnceClaimed(claim);
		try (starting) {
			starting.whenStarted((started) -> {
				actionBegun.countDown();
				try {
					actionMayEnd.await(30, TimeUnit.SECONDS);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
				actionEnded.set(true);
			});
			claim.countDown();
			assertThat(actionBegun.await(30, TimeUnit.SECONDS)).as("the action began on the start thread").isTrue();
			AtomicReference<Boolean> endedWhenAwaited = new AtomicReference<>();
			Thread waiter = new Thread(() -> {
				starting.awaitStarted();
				endedWhenAwaited.set(actionEnded.get());
			}, "awaiting-start");
			waiter.start();
			// The waiter parks until the action ends; one that did not wait has returned by the time it is seen parked
			// or finished.
			long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
			while (waiter.getState() != Thread.State.WAITING && waiter.getState() != Thread.State.TERMINATED
					&& System.nanoTime() < deadline) {
				Thread.onSpinWait();
			}
			actionMayEnd.countDown();
			waiter.join(TimeUnit.SECONDS.toMillis(30));
			assertThat(waiter.isAlive()).as("still waiting after the action ended").isFalse();
			assertThat(endedWhenAwaited.get()).as("the action had ended when awaitStarted() returned").isTrue();
		}
	}

	/** A default generator on worker ID 8 whose claim ends once {@code claim} is counted down. */
	private static StartingUidGenerator startingOnceClaimed(CountDownLatch claim) {
		return new StartingUidGenerator("default", UidLayout.defaults(), "fixed", Duration.ZERO, () -> {
			try {
				claim.await(30, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			return DefaultUidGenerator.builder().workerIdAssigner(new FixedWorkerIdAssigner(8)).build();
		});
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

	/**
	 * A store that still does not answer once the wait is over fails the start with what the last try threw, under a
	 * failure that says how long the start waited, how many tries it made and which setting bounds the wait.
	 */
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
				assertThat(Stream.iterate(context.getStartupFailure(), Objects::nonNull, Throwable::getCause))
					.filteredOn(WorkerStoreUnavailableException.class::isInstance)
					.extracting(Throwable::getMessage)
					.containsExactly("uid could not claim a worker ID from the fixed store within 600 ms of the first "
							+ "try (uid.worker.store-wait-at-start), " + claims.get() + " tries: the store is down (try "
							+ claims.get() + ")", "the store is down (try " + claims.get() + ")");
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

}
