package io.github.uidgen.impl;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import com.zaxxer.hikari.HikariDataSource;
import io.github.uidgen.UidClock;
import io.github.uidgen.UidException;
import io.github.uidgen.testsupport.ThrowawayMariaDb;
import io.github.uidgen.worker.jdbc.JdbcWorkerIdAssigner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The database behind the db assigner stops while a generator serves, with the connection pool at its defaults
 * (Hikari waits 30 s for a connection). Issue carries on within the recorded mark, then fails; from that first
 * failed call on, the generator reports why (health DOWN) with since when the mark was not recorded and how long the
 * store call has been outstanding; once the database is back it recovers by itself.
 */
class DatabaseOutageTests {

	private static final Duration OUTAGE = Duration.ofSeconds(10);

	@Test
	void aStoppedDatabaseIsReportedFromTheFirstFailedCallAndRecoveredFromWithoutRestart(@TempDir Path dir)
			throws Exception {
		try (ThrowawayMariaDb db = ThrowawayMariaDb.start(dir.resolve("mariadb"));
				HikariDataSource dataSource = defaultPool(db)) {
			AbstractUidGenerator generator = DefaultUidGenerator.builder()
				.clock(UidClock.SYSTEM)
				.workerIdAssigner(JdbcWorkerIdAssigner.builder(dataSource)
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
				UidException reported = generator.getFailure();
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
				assertThat(generator.getFailure()).as("health UP again").isNull();
			}
			finally {
				generator.close();
			}
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
