package io.github.uidgen.snowflake;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import com.zaxxer.hikari.HikariDataSource;
import io.github.uidgen.UidClock;
import io.github.uidgen.UidException;
import io.github.uidgen.testsupport.ThrowawayMariaDb;
import io.github.uidgen.worker.jdbc.JdbcLeaseWorkerIdAssigner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

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

				UidException firstFailure = null;
				while (firstFailure == null) {
					assertThat(System.nanoTime() - stoppedAt).as("issue fails while the database is down")
						.isLessThan(OUTAGE.toNanos());
					try {
						generator.getUID();
						Thread.sleep(10);
					}
					catch (UidException ex) {
						firstFailure = ex;
					}
				}
				UidException reported = generator.status().failure();
				assertThat(reported).as("health turns DOWN with the first failed call").isNotNull();
				assertThat(reported.getMessage()).contains("mark last recorded at", "outstanding for");
				assertThat(firstFailure.getMessage()).contains("mark last recorded at", "outstanding for");

				Thread.sleep(Math.max(0, OUTAGE.toMillis() - TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stoppedAt)));
				db.start();
				long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(40);
				long recovered = -1;
				while (recovered < 0) {
					assertThat(System.nanoTime() - deadline).as("recovers within 40 s of the database's return")
						.isNegative();
					try {
						recovered = generator.getUID();
					}
					catch (UidException ex) {
						Thread.sleep(100);
					}
				}
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
				// Let go after 10 s whatever happens, so a renewal that waits for the lock cannot hang the test.
				CompletableFuture<Void> unlock = CompletableFuture.runAsync(() -> rollback(locker),
						CompletableFuture.delayedExecutor(10, TimeUnit.SECONDS));
				long started = System.nanoTime();
				try {
					assertThatExceptionOfType(UidException.class)
						.isThrownBy(() -> assigner.renew(workerId, System.currentTimeMillis()));
					assertThat(Duration.ofNanos(System.nanoTime() - started))
						.as("bounded by the 2 s heartbeat, not by the lock").isLessThan(Duration.ofSeconds(5));
				}
				finally {
					unlock.join();
				}
			}
			assigner.renew(workerId, System.currentTimeMillis());
			assigner.release(workerId, System.currentTimeMillis());
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
