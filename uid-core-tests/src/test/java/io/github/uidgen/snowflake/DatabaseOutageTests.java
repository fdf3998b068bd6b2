package io.github.uidgen.snowflake;

import java.net.SocketTimeoutException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

import com.zaxxer.hikari.HikariDataSource;
import io.github.uidgen.UidClock;
import io.github.uidgen.UidException;
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
 * store call has been outstanding; once the database is back it recovers by itself. A statement the database leaves
 * unanswered on a healthy-looking connection makes a renewal fail within the assigner's own timeout.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DatabaseOutageTests {

	private static final Duration OUTAGE = Duration.ofSeconds(10);

	/**
	 * How long the generator may take to fail once the database is down, and to recover once it is back (Hikari
	 * waits 30 s for a connection): a bound for a stalled machine, not a promise of speed.
	 */
	private static final Duration BOUND = Duration.ofSeconds(90);

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
			try {
				generator.getUID();
				db.stop();
				long stoppedAt = System.nanoTime();

				// The database stays down until issue fails, however long a stalled machine takes to get there.
				UidException firstFailure = await().atMost(BOUND)
					.pollInterval(Duration.ofMillis(10))
					.until(() -> failureOfOneCall(generator), Objects::nonNull);
				UidException reported = generator.status().failure();
				assertThat(reported).as("health turns DOWN with the first failed call").isNotNull();
				assertThat(reported.getMessage()).contains("mark last recorded at", "outstanding for");
				assertThat(firstFailure.getMessage()).contains("mark last recorded at", "outstanding for");

				Thread.sleep(Math.max(0, OUTAGE.toMillis() - TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stoppedAt)));
				db.start();
				await().atMost(BOUND)
					.pollInterval(Duration.ofMillis(100))
					.until(() -> failureOfOneCall(generator) == null);
				assertThat(generator.status().failure()).as("health UP again").isNull();
			}
			finally {
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
			// Another session holds the lease row, as a stuck administrator's transaction would: the renewal's UPDATE
			// gets no answer until that lock goes (InnoDB would wait 50 s), on a connection that looks healthy.
			try (Connection locker = DriverManager.getConnection("jdbc:mysql://127.0.0.1:" + this.db.port() + "/test",
					"root", "")) {
				locker.setAutoCommit(false);
				locker.createStatement()
					.executeQuery("SELECT * FROM UID_WORKER_LEASE WHERE worker_id = " + workerId + " FOR UPDATE")
					.close();
				// The lock stays until the renewal has returned: a renewal that waited for it would end only by the
				// server's own lock wait timeout, which the assertion on the cause tells apart.
				try {
					UidException failure = catchThrowableOfType(UidException.class,
							() -> assigner.renew(workerId, System.currentTimeMillis()));
					assertThat(failure).as("the renewal fails while the lock is held").isNotNull();
					// Named as what it is (the bound and where it comes from), not as the closed connection it leaves.
					assertThat(failure).isInstanceOf(WorkerStoreUnavailableException.class)
						.hasMessageContaining("did not answer within 2000 ms")
						.hasMessageContaining("uid.worker.db.lease-duration");
					assertThat(causesOf(failure)).as("cut off by the round trip's 2 s bound, not by the lock")
						.hasAtLeastOneElementOfType(SocketTimeoutException.class)
						.noneMatch((cause) -> String.valueOf(cause.getMessage()).contains("Lock wait timeout"));
				}
				finally {
					rollback(locker);
				}
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

	/** Asks the generator for one ID: the failure, or {@code null} if an ID came. */
	private static UidException failureOfOneCall(AbstractUidGenerator generator) {
		try {
			generator.getUID();
			return null;
		}
		catch (UidException ex) {
			return ex;
		}
	}

	private static void rollback(Connection connection) {
		try {
			connection.rollback();
		}
		catch (SQLException ex) {
			throw new IllegalStateException(ex);
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
