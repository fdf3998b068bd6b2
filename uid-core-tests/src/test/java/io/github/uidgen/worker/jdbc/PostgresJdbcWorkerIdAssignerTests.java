package io.github.uidgen.worker.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.OptionalLong;

import javax.sql.DataSource;

import io.github.uidgen.testsupport.TestDatabases;
import io.github.uidgen.testsupport.TestDatabases.Database;
import org.postgresql.core.BaseConnection;
import org.postgresql.core.TransactionState;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * The database assigner's disposable mode, table handling and commits on PostgreSQL.
 */
class PostgresJdbcWorkerIdAssignerTests extends AbstractJdbcWorkerIdAssignerTests {

	@Override
	Database database() {
		return Database.POSTGRESQL;
	}

	@Override
	String referenceWorkerNodeDdl(String table) {
		return "CREATE TABLE " + table + " (ID BIGSERIAL PRIMARY KEY, HOST_NAME VARCHAR(64) NOT NULL, "
				+ "PORT VARCHAR(64) NOT NULL, TYPE INT NOT NULL, LAUNCH_DATE DATE NOT NULL, "
				+ "MODIFIED TIMESTAMP NOT NULL, CREATED TIMESTAMP NOT NULL)";
	}

	@Override
	String qualifier() {
		return "public";
	}

	@Override
	DataSource unreachableDataSource() {
		PGSimpleDataSource dataSource = new PGSimpleDataSource();
		dataSource.setUrl("jdbc:postgresql://127.0.0.1:1/test");
		dataSource.setUser("postgres");
		dataSource.setConnectTimeout(2);
		return dataSource;
	}

	@Override
	boolean transactionOpen(Connection connection) throws SQLException {
		return connection.unwrap(BaseConnection.class).getTransactionState() != TransactionState.IDLE;
	}

	/** PostgreSQL counts transactions by database, not by session. */
	@Override
	OptionalLong transactionsEnded(DataSource pool) {
		return OptionalLong.empty();
	}

	@Override
	long renewalsAtTheDatabase(String table) {
		return ((Number) TestDatabases.query(pool(), "SELECT COUNT(*) FROM pg_stat_activity WHERE pid <> pg_backend_pid() "
				+ "AND state = 'active' AND query LIKE 'UPDATE " + table + " SET %'").get(0).get(0)).longValue();
	}

}
