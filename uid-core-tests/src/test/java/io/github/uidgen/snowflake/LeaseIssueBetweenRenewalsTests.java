package io.github.uidgen.snowflake;

import java.time.Duration;
import java.util.UUID;
import java.util.function.Supplier;
import java.util.stream.Stream;

import io.github.uidgen.UidClock;
import io.github.uidgen.snowflake.TestGenerators.Kind;
import io.github.uidgen.testsupport.AssignerBackend;
import io.github.uidgen.testsupport.Duplicates;
import io.github.uidgen.testsupport.TestDatabases.Database;
import io.github.uidgen.worker.WorkerIdAssigner;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import static io.github.uidgen.snowflake.TestGenerators.LAYOUT;
import static io.github.uidgen.snowflake.TestGenerators.maxUnit;
import static io.github.uidgen.snowflake.TestGenerators.minUnit;
import static io.github.uidgen.snowflake.TestGenerators.take;
import static io.github.uidgen.snowflake.TestGenerators.unitOf;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A store with a lease is written at its renewal interval, not whenever issue nears the recorded mark: between
 * renewals the generator issues on the lease, as it does while the store does not answer, and a crash between
 * renewals repeats nothing, since whoever takes the worker ID next starts after the lease's expiry.
 */
class LeaseIssueBetweenRenewalsTests {

	private static final Duration RENEW_INTERVAL = Duration.ofSeconds(1);

	private static final Duration LEASE = Duration.ofSeconds(30);

	/** The generators' default {@code maxClockSkew}: issue on the lease stops this long before it runs out. */
	private static final Duration CLOCK_SKEW = Duration.ofSeconds(2);

	/** A lease of which a second is left to issue on, renewed every second (a quarter of it) by the backends. */
	private static final Duration SHORT_LEASE = Duration.ofSeconds(4);

	private static final Duration WITHIN = Duration.ofSeconds(30);

	@ParameterizedTest
	@EnumSource(Kind.class)
	void theStoreIsWrittenAtItsRenewalIntervalAndIssueGoesOnOnTheLeaseBetween(Kind kind) {
		RecordingAssigner assigner = new RecordingAssigner(5, LEASE, RENEW_INTERVAL);
		AbstractUidGenerator generator = TestGenerators.build(kind, assigner, UidClock.SYSTEM);
		long highestUnit = Long.MIN_VALUE;
		long taken = 0;
		long beyondMark = 0;
		long beyondLease = 0;
		long renewalsAtStart = assigner.renewals.get();
		long startedNanos = System.nanoTime();
		long elapsedNanos;
		try {
			// Long enough for many half spans of the 200 ms mark reservation, each of which cost a renewal before.
			long deadline = startedNanos + WITHIN.toNanos();
			do {
				long uid = generator.getUID();
				taken++;
				long unitMillis = LAYOUT.startMillis(unitOf(uid));
				highestUnit = Math.max(highestUnit, unitOf(uid));
				if (unitMillis > assigner.recorded.get()) {
					beyondMark++;
				}
				if (unitMillis > assigner.leaseSentMillis.get() + LEASE.minus(CLOCK_SKEW).toMillis()) {
					beyondLease++;
				}
				elapsedNanos = System.nanoTime() - startedNanos;
			}
			while ((elapsedNanos < RENEW_INTERVAL.multipliedBy(2).toNanos() || beyondMark == 0)
					&& System.nanoTime() < deadline);
		}
		finally {
			generator.close();
		}
		long renewals = assigner.renewals.get() - renewalsAtStart;
		assertThat(beyondMark).as("IDs issued on the lease past the mark recorded, of %s", taken).isPositive();
		assertThat(beyondLease).as("IDs issued past what the last renewal's lease covers, of %s", taken).isZero();
		// Every half span of the mark reservation (100 ms) before; now one per interval, and one at the end at most.
		assertThat(renewals).as("renewals in %s ms, one due every %s", elapsedNanos / 1_000_000, RENEW_INTERVAL)
			.isLessThanOrEqualTo(elapsedNanos / RENEW_INTERVAL.toNanos() + 2);
		assertThat(assigner.released.get()).as("the final mark covers every ID issued on the lease")
			.isGreaterThanOrEqualTo(LAYOUT.startMillis(highestUnit));
	}

	static Stream<Arguments> stores() {
		return Stream.of(Arguments.of(Kind.DEFAULT, "db-mariadb"), Arguments.of(Kind.CACHED, "db-postgresql"),
				Arguments.of(Kind.CACHED, "zookeeper"), Arguments.of(Kind.DEFAULT, "zookeeper"));
	}

	private static Supplier<AssignerBackend> backend(String name) {
		return switch (name) {
			case "db-mariadb" -> () -> AssignerBackend.jdbcLease(Database.MARIADB, SHORT_LEASE);
			case "db-postgresql" -> () -> AssignerBackend.jdbcLease(Database.POSTGRESQL, SHORT_LEASE);
			case "zookeeper" -> () -> AssignerBackend.zookeeper(SHORT_LEASE);
			default -> throw new IllegalArgumentException(name);
		};
	}

	@ParameterizedTest(name = "{0} generator, {1}")
	@MethodSource("stores")
	void aCrashAfterIssuingOnTheLeaseRepeatsNothing(Kind kind, String store) throws InterruptedException {
		try (AssignerBackend backend = backend(store).get()) {
			String instance = kind + "-" + UUID.randomUUID();
			WorkerIdAssigner firstAssigner = backend.newAssigner(instance);
			long firstThreadsFrom = TestGenerators.nextThreadId();
			AbstractUidGenerator first = TestGenerators.build(kind, firstAssigner, UidClock.SYSTEM);
			long workerId = first.status().worker().id();
			long[] run1 = new long[0];
			boolean pastMark = false;
			long deadline = System.nanoTime() + WITHIN.toNanos();
			while (!pastMark && System.nanoTime() < deadline) {
				long[] batch = take(first, 200);
				run1 = Duplicates.concat(run1, batch);
				// Marks only grow: past the mark read after the batch is past the one recorded when it was issued.
				pastMark = LAYOUT.startMillis(maxUnit(batch)) > first.session.highWaterMark().toEpochMilli();
			}
			assertThat(pastMark).as("issued on the lease past the recorded mark within %s", WITHIN).isTrue();
			TestGenerators.crash(backend, first, firstAssigner, firstThreadsFrom);

			AbstractUidGenerator second = TestGenerators.build(kind, backend.newAssigner(instance), UidClock.SYSTEM);
			try {
				assertThat(second.status().worker().id()).isEqualTo(workerId);
				assertThat(second.session.assignment().highWaterMarkMillis())
					.as("the worker ID was handed out again with the lease's expiry as its mark")
					.isGreaterThanOrEqualTo(LAYOUT.startMillis(maxUnit(run1)));
				long[] run2 = take(second, 4_000);
				assertThat(minUnit(run2)).isGreaterThan(maxUnit(run1));
				assertThat(Duplicates.count(run1, run2)).isZero();
			}
			finally {
				second.close();
			}
		}
	}

}
