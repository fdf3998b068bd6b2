package io.github.uidgen.snowflake;

import java.net.SocketTimeoutException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

import com.zaxxer.hikari.HikariDataSource;
import io.github.uidgen.UidClock;
import io.github.uidgen.UidException;
import io.github.uidgen.testsupport.Duplicates;
import io.github.uidgen.testsupport.ThrowawayMariaDb;
import io.github.uidgen.worker.WorkerStoreUnavailableException;
import io.github.uidgen.worker.jdbc.JdbcLeaseWorkerIdAssigner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.transaction.TransactionSystemException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

/**
 * The database behind the db assigner stops while a generator serves, with the connection pool at its defaults
 * (Hikari waits 30 s for a connection). Issue carries on within the recorded mark, then fails; from that first
 * failed call on, the generator reports why (health DOWN) with since when the mark was not recorded and how long the
 * store call has been outstanding; once the database is back it recovers by itself. Throughout, a thread takes IDs
 * as an application's traffic comes: none repeats, none is refused while the lease still covers issue (the outage
 * lasts until issue fails, so longer than the lease less the clock skew: calls are refused, which is safe), and none
 * once the database is back. A statement the database leaves unanswered on a healthy-looking connection makes a
 * renewal fail within the assigner's own timeout.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DatabaseOutageTests {

	private static final Duration OUTAGE = Duration.ofSeconds(10);

	/**
	 * How long the generator may take to fail once the database is down, and to recover once it is back (Hikari
	 * waits 30 s for a connection): a bound for a stalled machine, not a promise of speed.
	 */
	private static final Duration BOUND = Duration.ofSeconds(90);

	/**
	 * IDs the traffic thread takes about every millisecond: an application's pace, not a flat-out loop, which would
	 * take some hundred million IDs in the half minute the outage lasts.
	 */
	private static final int PER_TICK = 4;

	private ThrowawayMariaDb db;

	@BeforeAll
	void startDatabase(@TempDir Path dir) {
		this.db = ThrowawayMariaDb.start(dir.resolve("mariadb"));
	}

	@AfterAll
	void stopDatabase() {
		this.db.close();
	}

	@Test
	void aStoppedDatabaseIsReportedFromTheFirstFailedCallAndRecoveredFromWithoutRestart() throws Exception {
		ThrowawayMariaDb db = this.db;
		try (HikariDataSource dataSource = defaultPool(db)) {
			AbstractUidGenerator generator = DefaultUidGenerator.builder()
				.clock(UidClock.SYSTEM)
				.workerIdAssigner(JdbcLeaseWorkerIdAssigner.builder(dataSource)
					.initializeSchema(true)
					.instanceId("outage")
					.build())
				.build();
			List<Long> takenByTest = Collections.synchronizedList(new ArrayList<>());
			Issuer traffic = Issuer.pacedThroughRefusals(generator, "outage-traffic", PER_TICK);
			try {
				takenByTest.add(generator.getUID());
				await("traffic served").atMost(BOUND).until(() -> traffic.count() > 0);
				// How far the generator may issue without the store, at the least: a renewal still under way that
				// reaches the store only moves it on. Issue refuses nothing up to there (docs/worker-ids.md, "Riding
				// through a store outage": the lease less the clock skew after the last renewal that reached the store).
				Instant issuableAtStop = generator.status().worker().issuableUntil();
				db.stop();
				long stoppedAt = System.nanoTime();

				// The database stays down until issue fails, however long a stalled machine takes to get there.
				UidException firstFailure = await().atMost(BOUND)
					.pollInterval(Duration.ofMillis(10))
					.until(() -> failureOfOneCall(generator, takenByTest), Objects::nonNull);
				UidException reported = generator.status().failure();
				assertThat(reported).as("health turns DOWN with the first failed call").isNotNull();
				assertThat(reported.getMessage()).contains("mark last recorded at", "outstanding for");
				assertThat(firstFailure.getMessage()).contains("mark last recorded at", "outstanding for");
				await("the traffic refused too").atMost(BOUND).until(() -> traffic.refusals() > 0);

				Thread.sleep(Math.max(0, OUTAGE.toMillis() - TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stoppedAt)));
				db.start();
				await().atMost(BOUND)
					.pollInterval(Duration.ofMillis(100))
					.until(() -> failureOfOneCall(generator, takenByTest) == null);
				assertThat(generator.status().failure()).as("health UP again").isNull();

				// Once the traffic has served again every refusal of the outage is counted; from then on, through the
				// next renewal after the one that brought issue back, none is refused.
				int servedAtReturn = traffic.count();
				await("traffic served again").atMost(BOUND).until(() -> traffic.count() > servedAtReturn);
				long refusedInOutage = traffic.refusals();
				Instant issuableAtReturn = generator.status().worker().issuableUntil();
				await("a renewal after the return").atMost(BOUND)
					.until(() -> generator.status().worker().issuableUntil().isAfter(issuableAtReturn));
				int servedAfterRenewal = traffic.count();
				await("traffic served after it").atMost(BOUND).until(() -> traffic.count() > servedAfterRenewal);
				long[] takenByTraffic = traffic.stop();

				assertThat(refusedInOutage).as("calls refused: the outage outlasted the lease less the clock skew")
					.isPositive();
				assertThat(traffic.firstRefusalMillis())
					.as("no call refused while the lease covered issue (up to %s); the first refusal: %s",
							issuableAtStop, traffic.firstRefusal())
					.isGreaterThanOrEqualTo(issuableAtStop.toEpochMilli());
				assertThat(traffic.refusals()).as("calls refused once the database was back, the last: %s",
						traffic.lastRefusal())
					.isEqualTo(refusedInOutage);
				long[] takenByTestIds = takenByTest.stream().mapToLong(Long::longValue).toArray();
				assertThat(Duplicates.count(takenByTraffic, takenByTestIds)).as("duplicates among %s IDs",
						takenByTraffic.length + takenByTestIds.length)
					.isZero();
			}
			finally {
				traffic.stop();
				generator.close();
			}
		}
	}

	@Test
	void aRenewalThatTheDatabaseLeavesUnansweredFailsWithinItsOwnTimeout() throws Exception {
		try (HikariDataSource dataSource = defaultPool(this.db)) {
			JdbcLeaseWorkerIdAssigner assigner = JdbcLeaseWorkerIdAssigner.builder(dataSource)
				.initializeSchema(true)
				.instanceId("unanswered")
				.leaseDuration(Duration.ofSeconds(6))
				.build();
			long workerId = assigner.assign(1023).workerId();
			assigner.renew(workerId, System.currentTimeMillis());
			// The server is frozen (SIGSTOP) on a connection that looks healthy: the renewal's UPDATE gets no answer
			// at all. (A renewal waiting for its row's lock is stopped by MariaDB itself a second before the bound, see
			// MariaDbJdbcWorkerIdAssignerTests: only the client's bound ends a statement a server does not answer.)
			this.db.process().pause();
			try {
				UidException failure = catchThrowableOfType(UidException.class,
						() -> assigner.renew(workerId, System.currentTimeMillis()));
				assertThat(failure).as("the renewal fails while the server does not answer").isNotNull();
				// Named as what it is (the bound and where it comes from), not as the closed connection it leaves.
				assertThat(failure).isInstanceOf(WorkerStoreUnavailableException.class)
					.hasMessageContaining("did not answer within 2000 ms")
					.hasMessageContaining("uid.worker.db.lease-duration");
				assertThat(causesOf(failure)).as("cut off by the round trip's 2 s bound")
					.hasAtLeastOneElementOfType(SocketTimeoutException.class);
			}
			finally {
				this.db.process().resume();
			}
			assigner.renew(workerId, System.currentTimeMillis());
			assigner.release(workerId, System.currentTimeMillis());
		}
	}

	/**
	 * The failure and its causes, with the one that a failed rollback hid: Spring keeps it as the
	 * {@link TransactionSystemException}'s application exception.
	 */
	private static List<Throwable> causesOf(Throwable failure) {
		List<Throwable> causes = new ArrayList<>();
		Deque<Throwable> toVisit = new ArrayDeque<>(List.of(failure));
		while (!toVisit.isEmpty()) {
			Throwable next = toVisit.pop();
			if (!causes.contains(next)) {
				causes.add(next);
				if (next.getCause() != null) {
					toVisit.push(next.getCause());
				}
				if (next instanceof TransactionSystemException rollback && rollback.getApplicationException() != null) {
					toVisit.push(rollback.getApplicationException());
				}
			}
		}
		return causes;
	}

	/** Asks the generator for one ID, kept in {@code taken}: the failure, or {@code null} if an ID came. */
	private static UidException failureOfOneCall(AbstractUidGenerator generator, List<Long> taken) {
		try {
			taken.add(generator.getUID());
			return null;
		}
		catch (UidException ex) {
			return ex;
		}
	}

	/** A pool as Spring Boot would build it from a bare URL: every timeout at Hikari's default. */
	private static HikariDataSource defaultPool(ThrowawayMariaDb db) {
		HikariDataSource dataSource = new HikariDataSource();
		dataSource.setJdbcUrl("jdbc:mysql://127.0.0.1:" + db.port() + "/test");
		dataSource.setUsername("root");
		dataSource.setPassword("");
		return dataSource;
	}

}
