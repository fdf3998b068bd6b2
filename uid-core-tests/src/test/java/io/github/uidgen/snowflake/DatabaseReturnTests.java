package io.github.uidgen.snowflake;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.util.DriverDataSource;
import io.github.uidgen.UidClock;
import io.github.uidgen.testsupport.RefusingProxy;
import io.github.uidgen.testsupport.ThrowawayMariaDb;
import io.github.uidgen.worker.jdbc.JdbcLeaseWorkerIdAssigner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The database behind the db assigner comes back after an outage long enough for HikariCP's connection retries to
 * have slowed to their longest back-off (5 s, not configurable): the renewals must come through as soon as the
 * database answers, not when the pool next tries to connect, on the connections without the pool that the assigner
 * is given (as the starter gives them for a HikariCP pool). The outage is a proxy in front of a MariaDB of the test's
 * own, taken away until the pool's retries are 5 s apart and brought back just after one of them failed; the pool
 * cannot connect before its next retry, at least 5 s later, whatever the machine's speed.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DatabaseReturnTests {

	/** The pool's retries are at most 2.56 s apart before the back-off reaches its cap of 5 s. */
	private static final Duration CAPPED_BACK_OFF = Duration.ofSeconds(4);

	/** Bounds for a stalled machine, not promises of speed. */
	private static final Duration BOUND = Duration.ofSeconds(60);

	private ThrowawayMariaDb db;

	@BeforeAll
	void startDatabase(@TempDir Path dir) {
		this.db = ThrowawayMariaDb.start(dir.resolve("mariadb"));
	}

	@AfterAll
	void stopDatabase() {
		this.db.close();
	}

	/**
	 * Runs with Hikari's default connection timeout, 30 s, which leaves the calls of the outage waiting in the pool
	 * until it connects, and with a short one, which makes them fail.
	 */
	@ParameterizedTest(name = "connection timeout {0} ms")
	@ValueSource(longs = { 30_000, 250 })
	void renewalsComeThroughAsSoonAsTheDatabaseAnswersNotWhenThePoolNextRetries(long connectionTimeoutMillis)
			throws SQLException {
		try (RefusingProxy poolPath = RefusingProxy.start(this.db.port());
				RefusingProxy directPath = RefusingProxy.start(this.db.port());
				HikariDataSource pool = defaultPool(poolPath.port())) {
			pool.setConnectionTimeout(connectionTimeoutMillis);
			JdbcLeaseWorkerIdAssigner assigner = JdbcLeaseWorkerIdAssigner.builder(pool)
				// As the starter gives it: Hikari's own unpooled data source, on a path of its own to the database so
				// that the pool's attempts can be told apart, taken away and brought back with the pool's.
				.directDataSource(new DriverDataSource(url(directPath.port()), null, new Properties(), "root", ""))
				.initializeSchema(true)
				.instanceId("return")
				.build();
			AbstractUidGenerator generator = DefaultUidGenerator.builder()
				.clock(UidClock.SYSTEM)
				.workerIdAssigner(assigner)
				.build();
			try {
				generator.getUID();
				long workerId = generator.status().worker().id();

				poolPath.takeDown();
				directPath.takeDown();
				int attemptsBefore = poolPath.attempts().size();
				int directAttemptsBefore = directPath.attempts().size();
				pool.getHikariPoolMXBean().softEvictConnections();
				// Renewals, one a heartbeat (5 s), wait for the pool's connection until one has waited longer than a
				// round trip's bound (10 s); from then on they are retried on connections of their own every 100 ms.
				await("renewals on connections of their own, and the pool's retries at their longest back-off")
					.atMost(BOUND)
					.pollInterval(Duration.ofMillis(5))
					.until(() -> directPath.attempts().size() > directAttemptsBefore
							&& poolPath.longestGapNanosSince(attemptsBefore) >= CAPPED_BACK_OFF.toNanos());
				// Read while both paths are down, when nothing can reach the database (a statement sent before the
				// outage was done seconds ago): read after the return, it could be the first renewal after it already,
				// as one comes within a retry, 100 ms, and the next only a heartbeat later, after the pool's retry.
				Timestamp renewedBeforeReturn = lastRenewal(workerId);
				await("the pool's next retry").atMost(BOUND)
					.pollInterval(Duration.ofMillis(5))
					.until(() -> justTried(poolPath));
				// Its latest retry has just failed: the next comes at least 4 s from now.
				poolPath.bringBack();
				directPath.bringBack();
				long returnedNanos = System.nanoTime();
				int poolAttemptsAtReturn = poolPath.attempts().size();

				await("a renewal after the database's return").atMost(BOUND)
					.pollInterval(Duration.ofMillis(10))
					.until(() -> lastRenewal(workerId).after(renewedBeforeReturn));
				long sinceReturnMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - returnedNanos);
				assertThat(poolPath.attempts())
					.as("the pool had not tried to connect again when the renewal came through (%d ms after the "
							+ "return)", sinceReturnMillis)
					.hasSize(poolAttemptsAtReturn);
				assertThat(pool.getHikariPoolMXBean().getTotalConnections())
					.as("the pool still had no connection when the renewal came through")
					.isZero();
				assertThat(generator.status().failure()).as("health UP").isNull();

				// Back to the pool once it has connected, without a renewal failing or waiting for it meanwhile.
				long failuresAtReturn = generator.status().worker().markFailures();
				await("the pool connects again").atMost(BOUND)
					.pollInterval(Duration.ofMillis(10))
					.until(() -> pool.getHikariPoolMXBean().getTotalConnections() > 0);
				Timestamp poolConnected = lastRenewal(workerId);
				await("two renewals after the pool connected").atMost(BOUND)
					.pollInterval(Duration.ofMillis(10))
					.until(() -> lastRenewal(workerId).after(poolConnected));
				Timestamp renewedOnce = lastRenewal(workerId);
				await("two renewals after the pool connected").atMost(BOUND)
					.pollInterval(Duration.ofMillis(10))
					.until(() -> lastRenewal(workerId).after(renewedOnce));
				assertThat(generator.status().worker().markFailures())
					.as("no renewal failed or went unanswered after the first that came through")
					.isEqualTo(failuresAtReturn);
				assertThat(generator.status().failure()).as("health UP").isNull();
			}
			finally {
				generator.close();
			}
		}
	}

	/** Whether the pool's latest attempt to connect came within the last 100 ms. */
	private static boolean justTried(RefusingProxy path) {
		List<Long> attempts = path.attempts();
		return !attempts.isEmpty()
				&& System.nanoTime() - attempts.get(attempts.size() - 1) < Duration.ofMillis(100).toNanos();
	}

	/** When the lease row was last written, by the database's clock, read beside the proxy. */
	private Timestamp lastRenewal(long workerId) throws SQLException {
		try (Connection connection = DriverManager.getConnection(this.db.jdbcUrl(), "root", "");
				PreparedStatement select = connection
					.prepareStatement("SELECT modified FROM UID_WORKER_LEASE WHERE worker_id = ?")) {
			select.setLong(1, workerId);
			try (ResultSet row = select.executeQuery()) {
				assertThat(row.next()).as("the lease row of worker %d", workerId).isTrue();
				return row.getTimestamp(1);
			}
		}
	}

	private static String url(int port) {
		return "jdbc:mysql://127.0.0.1:" + port + "/test";
	}

	/** A pool as Spring Boot would build it from a bare URL: every timeout and the back-off at Hikari's default. */
	private static HikariDataSource defaultPool(int port) {
		HikariDataSource dataSource = new HikariDataSource();
		dataSource.setJdbcUrl(url(port));
		dataSource.setUsername("root");
		dataSource.setPassword("");
		dataSource.setPoolName("uid-return-pool");
		return dataSource;
	}

}
