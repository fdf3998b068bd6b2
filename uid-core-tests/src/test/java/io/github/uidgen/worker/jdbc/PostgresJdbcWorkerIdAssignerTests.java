package io.github.uidgen.worker.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.OptionalLong;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import io.github.uidgen.testsupport.TestDatabases;
import io.github.uidgen.testsupport.TestDatabases.Database;
import org.postgresql.core.BaseConnection;
import org.postgresql.core.TransactionState;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

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

	/**
	 * A start that finds the table missing while another start holds the advisory lock named after it waits for the
	 * lock's release without taking it in turn (here a session of the test's own holds it and creates the tables
	 * meanwhile, as the other start would), then finds the tables made and claims.
	 */
	@Test
	void aFirstStartThatWaitsForAnotherStartsCreationFindsTheTablesMade() throws Exception {
		ExecutorService thread = Executors.newSingleThreadExecutor();
		try (HikariDataSource pool = onePool(true); HikariDataSource holderPool = onePool(true);
				Connection holder = holderPool.getConnection()) {
			String lock = "hashtext('" + JdbcStore.schemaLockName(leaseTable()) + "')";
			execute(holder, "SELECT pg_advisory_lock(" + lock + ")");
			JdbcLeaseWorkerIdAssigner assigner = creatingTables(pool, Duration.ofSeconds(30));
			Future<Long> claim = thread.submit(() -> assigner.assign(1023).workerId());
			await().atMost(Duration.ofSeconds(30)).until(() -> claim.isDone() || single(holder, "SELECT COUNT(*) FROM "
					+ "pg_stat_activity WHERE wait_event_type = 'Lock' AND wait_event = 'advisory'") > 0);
			assertThat(claim).as("the start waits for the lock named after the table").isNotDone();
			execute(holder, SchemaScript.createTable(SqlDialect.POSTGRESQL, SchemaScript.DEFAULT_LEASE_TABLE,
					leaseTable()));
			execute(holder, SchemaScript.createTable(SqlDialect.POSTGRESQL, SchemaScript.DEFAULT_CLAIM_TABLE,
					TableName.claimHistoryOf(leaseTable())));
			execute(holder, "SELECT pg_advisory_unlock(" + lock + ")");

			assertThat(claim.get(30, TimeUnit.SECONDS)).isZero();
			assertThat(single(holder, "SELECT COUNT(*) FROM " + leaseTable() + " WHERE instance_id = 'first'")).isOne();
		}
		finally {
			thread.shutdownNow();
		}
	}

	private static void execute(Connection connection, String sql) throws SQLException {
		try (Statement statement = connection.createStatement()) {
			statement.execute(sql);
		}
	}

	@Override
	long renewalsAtTheDatabase(String table) {
		return ((Number) TestDatabases.query(pool(), "SELECT COUNT(*) FROM pg_stat_activity WHERE pid <> pg_backend_pid() "
				+ "AND state = 'active' AND query LIKE 'UPDATE " + table + " SET %'").get(0).get(0)).longValue();
	}

}
