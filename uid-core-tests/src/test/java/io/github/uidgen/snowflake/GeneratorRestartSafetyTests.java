package io.github.uidgen.snowflake;

import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;
import java.util.stream.Stream;

import io.github.uidgen.ClockBehindHighWaterMarkException;
import io.github.uidgen.UidClock;
import io.github.uidgen.snowflake.TestGenerators.Kind;
import io.github.uidgen.testsupport.AssignerBackend;
import io.github.uidgen.testsupport.Duplicates;
import io.github.uidgen.testsupport.SteppableClock;
import io.github.uidgen.testsupport.TestDatabases.Database;
import io.github.uidgen.worker.WorkerIdAssigner;
import io.github.uidgen.worker.WorkerStoreUnavailableException;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static io.github.uidgen.snowflake.TestGenerators.LAYOUT;
import static io.github.uidgen.snowflake.TestGenerators.maxUnit;
import static io.github.uidgen.snowflake.TestGenerators.minUnit;
import static io.github.uidgen.snowflake.TestGenerators.take;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Restart after a crash, for both generators on every assigner: a generator issues IDs as fast as it can (the
 * cached one borrowing future time), dies without closing, and a new one on the same worker ID must never repeat
 * an ID, also when the clock was stepped back in between: it waits when the mark is close enough and refuses to
 * start when it is not.
 */
class GeneratorRestartSafetyTests {

	private static final int IDS_PER_RUN = 4_000;

	private static final Duration LEASE = Duration.ofMillis(500);

	/**
	 * The database assigners' lease: a third of it bounds each database round trip, and a bound of 125 ms failed a
	 * start under load ("Connection is closed"); 2 s, as the other database tests use.
	 */
	private static final Duration DATABASE_LEASE = Duration.ofSeconds(2);

	/**
	 * How long a start whose store leaves it unanswered is tried again, as the starter's
	 * {@code uid.worker.store-wait-at-start} does: the 667 ms round-trip bound of the database lease was outlasted by
	 * PostgreSQL's answer to a table's existence check under the four-module build.
	 */
	private static final Duration STORE_WAIT_AT_START = Duration.ofSeconds(10);

	/** How far before the last issued ID the clock is stepped: beyond max-ahead, within the start-up wait. */
	private static final Duration SMALL_STEP_BACK = Duration.ofSeconds(1);

	@TempDir
	Path folder;

	static Stream<Arguments> scenarios() {
		Stream.Builder<Arguments> scenarios = Stream.builder();
		for (Kind kind : Kind.values()) {
			scenarios.add(Arguments.of(kind, "static"));
			scenarios.add(Arguments.of(kind, "db-mariadb"));
			scenarios.add(Arguments.of(kind, "db-postgresql"));
			scenarios.add(Arguments.of(kind, "redis"));
			scenarios.add(Arguments.of(kind, "zookeeper"));
		}
		return scenarios.build();
	}

	private static Function<Path, AssignerBackend> backend(String name) {
		return switch (name) {
			case "static" -> (folder) -> AssignerBackend.staticFile(folder, 5);
			case "db-mariadb" -> (folder) -> AssignerBackend.jdbcLease(Database.MARIADB, DATABASE_LEASE);
			case "db-postgresql" -> (folder) -> AssignerBackend.jdbcLease(Database.POSTGRESQL, DATABASE_LEASE);
			case "redis" -> (folder) -> AssignerBackend.redis(LEASE);
			case "zookeeper" -> (folder) -> AssignerBackend.zookeeper(LEASE);
			default -> throw new IllegalArgumentException(name);
		};
	}

	@ParameterizedTest(name = "{0} generator, {1} assigner")
	@MethodSource("scenarios")
	void restartsAfterACrashNeverRepeatAnIdAndHonourTheMarkWhenTheClockStepsBack(Kind kind, String backendName)
			throws InterruptedException {
		try (AssignerBackend backend = backend(backendName).apply(this.folder)) {
			String instance = kind + "-" + UUID.randomUUID();

			// Run 1: issue fast, then die.
			WorkerIdAssigner firstAssigner = backend.newAssigner(instance);
			long firstThreadsFrom = TestGenerators.nextThreadId();
			AbstractUidGenerator first = build(kind, firstAssigner, UidClock.SYSTEM);
			long workerId = first.status().worker().id();
			long[] run1;
			if (kind == Kind.CACHED) {
				TestGenerators.Ahead ahead = TestGenerators.takeUntilAhead(first, IDS_PER_RUN);
				run1 = ahead.ids();
				assertThat(LAYOUT.startMillis(maxUnit(run1))).as("the cached generator borrowed future time")
					.isGreaterThan(ahead.clockMillis());
			}
			else {
				run1 = take(first, IDS_PER_RUN);
			}
			TestGenerators.crash(backend, first, firstAssigner, firstThreadsFrom);

			// Run 2: restart on the same worker ID with the same clock.
			WorkerIdAssigner secondAssigner = backend.newAssigner(instance);
			long secondThreadsFrom = TestGenerators.nextThreadId();
			AbstractUidGenerator second = build(kind, secondAssigner, UidClock.SYSTEM);
			assertThat(second.status().worker().id()).isEqualTo(workerId);
			assertThat(second.session.assignment().highWaterMarkMillis()).as("the mark covered every ID of run 1")
				.isGreaterThanOrEqualTo(LAYOUT.startMillis(maxUnit(run1)));
			long[] run2 = take(second, IDS_PER_RUN);
			assertThat(minUnit(run2)).isGreaterThan(maxUnit(run1));
			TestGenerators.crash(backend, second, secondAssigner, secondThreadsFrom);

			// Run 3: the clock was stepped back an hour: refusing to start is the only safe answer.
			SteppableClock hourBehind = new SteppableClock(Duration.ofHours(-1));
			assertThatExceptionOfType(ClockBehindHighWaterMarkException.class)
				.isThrownBy(() -> build(kind, backend.newAssigner(instance), hourBehind))
				.satisfies((ex) -> {
					assertThat(ex.getWorkerId()).isEqualTo(workerId);
					assertThat(ex.getHighWaterMark().toEpochMilli())
						.isGreaterThanOrEqualTo(LAYOUT.startMillis(maxUnit(run2)));
					assertThat(ex.getMessage()).contains(ex.getHighWaterMark().toString(), ex.getClock().toString());
				});

			// Run 4: the clock was stepped back to a little before the last IDs: the generator waits for it to
			// pass the mark.
			long lastIssued = LAYOUT.startMillis(maxUnit(run2));
			SteppableClock behind = new SteppableClock(
					Duration.ofMillis(lastIssued - System.currentTimeMillis()).minus(SMALL_STEP_BACK));
			long clockAtStart = behind.currentTimeMillis();
			AbstractUidGenerator fourth = build(kind, backend.newAssigner(instance), behind);
			try {
				assertThat(fourth.status().worker().id()).isEqualTo(workerId);
				assertThat(fourth.session.assignment().highWaterMarkMillis()).as("the clock started behind the mark")
					.isGreaterThan(clockAtStart);
				long[] run4 = take(fourth, IDS_PER_RUN);
				assertThat(minUnit(run4)).isGreaterThan(maxUnit(run2));
				assertThat(Duplicates.count(run1, run2, run4)).isZero();
			}
			finally {
				fourth.close();
			}
		}
	}

	/**
	 * Builds a generator, trying again while its store does not answer (a busy machine), within
	 * {@link #STORE_WAIT_AT_START}, as the starter does; any other failure, and the last one, is thrown.
	 */
	private static AbstractUidGenerator build(Kind kind, WorkerIdAssigner assigner, UidClock clock) {
		long deadline = System.nanoTime() + STORE_WAIT_AT_START.toNanos();
		while (true) {
			try {
				return TestGenerators.build(kind, assigner, clock);
			}
			catch (WorkerStoreUnavailableException ex) {
				if (System.nanoTime() - deadline > 0) {
					throw ex;
				}
				LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
			}
		}
	}

}
