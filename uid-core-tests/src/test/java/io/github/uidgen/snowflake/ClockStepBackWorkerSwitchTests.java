package io.github.uidgen.snowflake;

import java.time.Duration;
import java.time.LocalDate;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import java.util.stream.Stream;

import io.github.uidgen.ClockBehindHighWaterMarkException;
import io.github.uidgen.ClockMovedBackwardsException;
import io.github.uidgen.UidGeneratorStatus;
import io.github.uidgen.UidLayout;
import io.github.uidgen.UidTimeUnit;
import io.github.uidgen.testsupport.AssignerBackend;
import io.github.uidgen.testsupport.Duplicates;
import io.github.uidgen.testsupport.SteppableClock;
import io.github.uidgen.testsupport.TestDatabases.Database;
import io.github.uidgen.worker.WorkerIdAssigner;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * The clock of a running default generator steps back ten minutes while several threads issue IDs: with a lease
 * assigner the generator moves to another worker ID whose mark lies behind the clock and goes on issuing, keeps the
 * first worker ID until the clock has passed its mark, and repeats no ID, neither over the step, nor when the clock is
 * set right again, nor after a crash and restart. The static assigner does the same with backup worker IDs. When no
 * other worker ID can be had, or switching is off, issue fails as before.
 */
class ClockStepBackWorkerSwitchTests {

	private static final Duration STEP = Duration.ofMinutes(10);

	private static final Duration LEASE = Duration.ofSeconds(2);

	/**
	 * The database leases are longer: the db assigner bounds each round trip to a third of its lease, and a claim's
	 * commit outlasted the 667 ms of a 2 s lease on a slow machine under the suite's load, which failed the start.
	 */
	private static final Duration DATABASE_LEASE = Duration.ofSeconds(6);

	private static final int THREADS = 4;

	/**
	 * IDs each thread takes in one round. The layout gives 16 IDs a millisecond and the threads spin until the next
	 * one, so a round keeps both cores busy for a millisecond per 16 IDs: 8,000 IDs are at least 500 ms, half of them
	 * (at least 250 ms) after the step, longer than the 200 ms mark reservation, so the worker issued on after a step
	 * renews its mark while the threads take, as it did with 16,000 IDs at twice the CPU.
	 */
	private static final int PER_THREAD = 2_000;

	static Stream<Arguments> backends() {
		return Stream.concat(leaseBackends(), Stream.of(Arguments.of("static with backup worker IDs",
				(Supplier<AssignerBackend>) () -> AssignerBackend.staticWithBackups(5, List.of(6L, 7L)))));
	}

	static Stream<Arguments> leaseBackends() {
		return Stream.of(
				Arguments.of("db lease on MariaDB",
						(Supplier<AssignerBackend>) () -> AssignerBackend.jdbcLease(Database.MARIADB, DATABASE_LEASE)),
				Arguments.of("db lease on PostgreSQL",
						(Supplier<AssignerBackend>) () -> AssignerBackend.jdbcLease(Database.POSTGRESQL,
								DATABASE_LEASE)),
				Arguments.of("redis", (Supplier<AssignerBackend>) () -> AssignerBackend.redis(LEASE)),
				Arguments.of("zookeeper", (Supplier<AssignerBackend>) () -> AssignerBackend.zookeeper(LEASE)));
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("backends")
	void aStepBackOfTenMinutesMovesIssueToAnotherWorkerWithoutRepeatingAnyIdAcrossTheStepTheReturnAndARestart(
			String name, Supplier<AssignerBackend> backendFactory) throws Exception {
		try (AssignerBackend backend = backendFactory.get()) {
			SteppableClock clock = new SteppableClock(Duration.ZERO);
			WorkerIdAssigner assigner = backend.newAssigner("stepping");
			AbstractUidGenerator generator = TestGenerators.build(TestGenerators.Kind.DEFAULT, assigner, clock);
			long first = generator.status().worker().id();

			// Several threads issue; half-way through, the clock steps back ten minutes under them.
			long[][] overTheStep = takeWhileStepping(generator, clock, STEP.negated());
			UidGeneratorStatus.Worker switched = generator.status().worker();
			assertThat(switched.switches()).isEqualTo(1);
			assertThat(switched.id()).isNotEqualTo(first);
			assertThat(switched.previousId()).as("the first worker is kept while its mark lies ahead").isEqualTo(first);
			assertThat(generator.status().failure()).isNull();
			long[] all = Duplicates.concat(overTheStep);
			assertThat(workersOf(all)).containsExactlyInAnyOrder(first, switched.id());
			assertThat(Duplicates.count(overTheStep)).isZero();
			assertThat(generator.status().issued()).as("counted across the move").isEqualTo(all.length);

			// The clock is set right again: issue goes on as the second worker, and the first is released.
			long[][] afterReturn = takeWhileStepping(generator, clock, STEP);
			assertThat(generator.status().worker().id()).isEqualTo(switched.id());
			assertThat(generator.status().worker().switches()).isEqualTo(1);
			awaitReleased(generator);
			assertThat(Duplicates.count(all, Duplicates.concat(afterReturn))).isZero();

			// A crash and a restart on the same store: the new generator starts after the marks of what it gets.
			generator.simulateCrash();
			backend.afterCrash(assigner, switched.id());
			AbstractUidGenerator restarted = TestGenerators.build(TestGenerators.Kind.DEFAULT,
					backend.newAssigner("stepping"), clock);
			try {
				long[][] afterRestart = Concurrently.take(restarted::getUID, THREADS, PER_THREAD);
				assertThat(Duplicates.count(all, Duplicates.concat(afterReturn), Duplicates.concat(afterRestart)))
					.isZero();
			}
			finally {
				restarted.close();
			}
		}
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("backends")
	void twoStepsBackInARowMoveTwiceAndRepeatNothing(String name, Supplier<AssignerBackend> backendFactory)
			throws Exception {
		try (AssignerBackend backend = backendFactory.get()) {
			SteppableClock clock = new SteppableClock(Duration.ZERO);
			AbstractUidGenerator generator = TestGenerators.build(TestGenerators.Kind.DEFAULT,
					backend.newAssigner("stepping-twice"), clock);
			try {
				long first = generator.status().worker().id();
				long[][] firstStep = takeWhileStepping(generator, clock, Duration.ofMinutes(-2));
				long second = generator.status().worker().id();
				// Back again, behind the second worker's mark too, while the first is still kept.
				long[][] secondStep = takeWhileStepping(generator, clock, Duration.ofMinutes(-2));
				UidGeneratorStatus.Worker third = generator.status().worker();
				assertThat(third.switches()).isEqualTo(2);
				assertThat(third.id()).isNotIn(first, second);
				assertThat(third.previousId()).isEqualTo(second);
				long[][] setRight = takeWhileStepping(generator, clock, Duration.ofMinutes(4));
				awaitReleased(generator);
				assertThat(workersOf(Duplicates.concat(Duplicates.concat(firstStep), Duplicates.concat(secondStep))))
					.containsExactlyInAnyOrder(first, second, third.id());
				assertThat(Duplicates.count(Duplicates.concat(firstStep), Duplicates.concat(secondStep),
						Duplicates.concat(setRight)))
					.isZero();
			}
			finally {
				generator.close();
			}
		}
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("backends")
	void aRestartWhileTheClockIsStillBehindWaitsForTheMarkOfWhatItGetsOrRefusesAsUsual(String name,
			Supplier<AssignerBackend> backendFactory) throws Exception {
		try (AssignerBackend backend = backendFactory.get()) {
			SteppableClock clock = new SteppableClock(Duration.ZERO);
			AbstractUidGenerator generator = TestGenerators.build(TestGenerators.Kind.DEFAULT,
					backend.newAssigner("restarting"), clock);
			long first = generator.status().worker().id();
			long[][] overTheStep = takeWhileStepping(generator, clock, STEP.negated());
			assertThat(generator.status().worker().switches()).isEqualTo(1);
			generator.close();

			// The same instance starts again while its clock is still ten minutes behind the first worker's mark:
			// given that worker ID back, it refuses, naming it; given another, it starts after that one's mark.
			AbstractUidGenerator restarted;
			try {
				restarted = TestGenerators.build(TestGenerators.Kind.DEFAULT, backend.newAssigner("restarting"), clock);
			}
			catch (ClockBehindHighWaterMarkException ex) {
				assertThat(ex.getWorkerId()).isEqualTo(first);
				assertThat(ex.getHighWaterMark().toEpochMilli()).isGreaterThan(clock.currentTimeMillis() + 500_000);
				// Once the clock is set right, the restart goes through.
				clock.step(STEP);
				restarted = TestGenerators.build(TestGenerators.Kind.DEFAULT, backend.newAssigner("restarting"), clock);
			}
			try {
				long[][] afterRestart = Concurrently.take(restarted::getUID, THREADS, PER_THREAD);
				assertThat(Duplicates.count(Duplicates.concat(overTheStep), Duplicates.concat(afterRestart))).isZero();
			}
			finally {
				restarted.close();
			}
		}
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("leaseBackends")
	void whenNoOtherWorkerIdHasAMarkBehindTheClockTheStepFailsAsBefore(String name, Supplier<AssignerBackend> backendFactory) {
		UidLayout twoWorkers = new UidLayout(UidTimeUnit.MILLISECONDS, LocalDate.of(2025, 1, 1), 41, 1, 4);
		try (AssignerBackend backend = backendFactory.get()) {
			SteppableClock clock = new SteppableClock(Duration.ZERO);
			DefaultUidGenerator generator = DefaultUidGenerator.builder()
				.layout(twoWorkers)
				.clock(clock)
				.workerIdAssigner(backend.newAssigner("stepping"))
				.build();
			DefaultUidGenerator other = DefaultUidGenerator.builder()
				.layout(twoWorkers)
				.workerIdAssigner(backend.newAssigner("holding-the-other"))
				.build();
			long first = generator.status().worker().id();
			try {
				generator.getUID();
				clock.step(STEP.negated());
				assertThatExceptionOfType(ClockMovedBackwardsException.class).isThrownBy(generator::getUID);
				assertThat(generator.status().worker().switches()).isZero();
				assertThat(generator.status().worker().id()).isEqualTo(first);
				// Set right again, the clock is past the mark: issue goes on as the same worker.
				clock.step(STEP);
				assertThat(generator.getUID()).isPositive();
				assertThat(generator.status().worker().switches()).isZero();
				assertThat(generator.status().failure()).isNull();
			}
			finally {
				other.close();
				generator.close();
			}
		}
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("backends")
	void switchedOffTheStepFailsAsBefore(String name, Supplier<AssignerBackend> backendFactory) {
		try (AssignerBackend backend = backendFactory.get()) {
			SteppableClock clock = new SteppableClock(Duration.ZERO);
			DefaultUidGenerator generator = DefaultUidGenerator.builder()
				.layout(TestGenerators.LAYOUT)
				.clock(clock)
				.workerIdAssigner(backend.newAssigner("not-switching"))
				.clockBackwardsSwitchWorker(false)
				.build();
			try {
				generator.getUID();
				clock.step(STEP.negated());
				assertThatExceptionOfType(ClockMovedBackwardsException.class).isThrownBy(generator::getUID)
					.withMessageMatching("The clock moved backwards by (599\\d{3}|600\\d{3}) ms.*");
				assertThat(generator.status().worker().switches()).isZero();
			}
			finally {
				generator.close();
			}
		}
	}

	/** Takes IDs from several threads and steps the clock once they have taken half of them. */
	private static long[][] takeWhileStepping(AbstractUidGenerator generator, SteppableClock clock, Duration step)
			throws Exception {
		AtomicLong taken = new AtomicLong();
		CountDownLatch halfWay = new CountDownLatch(1);
		Thread stepper = new Thread(() -> {
			try {
				if (halfWay.await(60, TimeUnit.SECONDS)) {
					clock.step(step);
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}, "test-clock-stepper");
		stepper.start();
		long[][] ids = Concurrently.take(() -> {
			if (taken.incrementAndGet() == THREADS * PER_THREAD / 2) {
				halfWay.countDown();
			}
			return generator.getUID();
		}, THREADS, PER_THREAD);
		stepper.join(TimeUnit.SECONDS.toMillis(60));
		assertThat(halfWay.getCount()).isZero();
		return ids;
	}

	private static void awaitReleased(AbstractUidGenerator generator) {
		await("the first worker is released once the clock passed its mark").atMost(Duration.ofSeconds(30))
			.pollInterval(Duration.ofMillis(50))
			.until(() -> generator.status().worker().previousId() == null);
	}

	private static Set<Long> workersOf(long[] ids) {
		Set<Long> workers = new TreeSet<>();
		UidLayout layout = TestGenerators.LAYOUT;
		for (long id : ids) {
			workers.add((id >>> layout.getSeqBits()) & layout.getMaxWorkerId());
		}
		return workers;
	}

}
