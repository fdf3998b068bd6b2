package io.github.uidgen.worker.jdbc;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import io.github.uidgen.testsupport.TestDatabases;
import io.github.uidgen.testsupport.TestDatabases.Database;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A lease renewal on MariaDB, through the MySQL driver, and what it costs the server: counted by the session's
 * {@code Questions} status, which counts every statement a client sends (not pings), on the one connection of a pool
 * that the assigner and the count share.
 */
class MariaDbJdbcLeaseRenewalTests extends AbstractJdbcLeaseRenewalTests {

	private static final int RENEWALS = 20;

	@Override
	Database database() {
		return Database.MARIADB;
	}

	@Override
	long sessionId(Connection connection) throws SQLException {
		try (Statement statement = connection.createStatement();
				ResultSet result = statement.executeQuery("SELECT CONNECTION_ID()")) {
			result.next();
			return result.getLong(1);
		}
	}

	@Override
	boolean transactionOpen(DataSource other, long sessionId) {
		return !TestDatabases.query(other, "SELECT 1 FROM information_schema.INNODB_TRX WHERE trx_mysql_thread_id = ?",
				sessionId).isEmpty();
	}

	@Test
	void aRenewalIsOneStatementOnTheServer() {
		assertThat(statementsPerRenewal(true)).isEqualTo(1);
	}

	@Test
	void aRenewalThroughAPoolWithAutoCommitOffIsTheStatementAndItsCommit() {
		assertThat(statementsPerRenewal(false)).isEqualTo(2);
	}

	/** Claims a worker ID through a pool of one connection, renews it, and counts the statements of the renewals. */
	private double statementsPerRenewal(boolean autoCommit) {
		try (HikariDataSource pool = onePool(autoCommit)) {
			JdbcLeaseWorkerIdAssigner assigner = assigner(pool, "counted");
			long workerId = assigner.assign(1023).workerId();
			assigner.renew(workerId, MARK);
			long before = questions(pool);
			// What asking costs, so that only the renewals are counted.
			long asking = questions(pool) - before;
			long start = questions(pool);
			for (int i = 1; i <= RENEWALS; i++) {
				assigner.renew(workerId, MARK + i);
			}
			long statements = questions(pool) - start - asking;
			assertThat(mark(workerId)).isEqualTo(MARK + RENEWALS);
			return (double) statements / RENEWALS;
		}
	}

	private static long questions(DataSource pool) {
		return Long.parseLong(TestDatabases.query(pool, "SHOW SESSION STATUS LIKE 'Questions'").get(0).get(1).toString());
	}

}
