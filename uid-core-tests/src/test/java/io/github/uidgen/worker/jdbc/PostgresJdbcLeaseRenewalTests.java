package io.github.uidgen.worker.jdbc;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import javax.sql.DataSource;

import io.github.uidgen.testsupport.TestDatabases;
import io.github.uidgen.testsupport.TestDatabases.Database;

/**
 * A lease renewal on PostgreSQL.
 */
class PostgresJdbcLeaseRenewalTests extends AbstractJdbcLeaseRenewalTests {

	@Override
	Database database() {
		return Database.POSTGRESQL;
	}

	@Override
	long sessionId(Connection connection) throws SQLException {
		try (Statement statement = connection.createStatement();
				ResultSet result = statement.executeQuery("SELECT pg_backend_pid()")) {
			result.next();
			return result.getLong(1);
		}
	}

	@Override
	boolean transactionOpen(DataSource other, long sessionId) {
		return !TestDatabases.query(other,
				"SELECT 1 FROM pg_stat_activity WHERE pid = ? AND state LIKE 'idle in transaction%'", (int) sessionId)
			.isEmpty();
	}

}
