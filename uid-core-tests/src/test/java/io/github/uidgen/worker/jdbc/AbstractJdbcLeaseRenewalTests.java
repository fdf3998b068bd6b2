package io.github.uidgen.worker.jdbc;

import java.sql.Connection;
import java.sql.SQLException;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import io.github.uidgen.testsupport.TestDatabases;
import io.github.uidgen.testsupport.TestDatabases.Database;
import io.github.uidgen.worker.WorkerLeaseLostException;
import io.github.uidgen.worker.WorkerTableMissingException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import org.springframework.jdbc.datasource.SingleConnectionDataSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A lease renewal, the statement every instance sends every period: committed when it returns whether the pool hands
 * out connections with auto-commit on or off (as with {@code spring.datasource.hikari.auto-commit=false}), leaving no
 * transaction open on the connection, and still telling a lost lease and a missing table. Each test on a table of its
 * own.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AbstractJdbcLeaseRenewalTests {

	static final long MARK = 1_760_000_000_000L;

	private HikariDataSource dataSource;

	private String table;

	abstract Database database();

	/** The server's own number for the session of a connection, asked while the connection is in auto-commit. */
	abstract long sessionId(Connection connection) throws SQLException;

	/** Whether the server has a transaction open in a session, asked from another connection. */
	abstract boolean transactionOpen(DataSource other, long sessionId);

	@BeforeAll
	void openPool() {
		this.dataSource = database().open();
	}

	@BeforeEach
	void newTable() {
		this.table = TestDatabases.uniqueTable("uid_renew");
	}

	@AfterEach
	void dropTable() {
		TestDatabases.dropTable(this.dataSource, this.table);
	}

	@AfterAll
	void closePool() {
		this.dataSource.close();
	}

	/** A pool of one connection, so that every call of the assigner and of the test shares one session. */
	HikariDataSource onePool(boolean autoCommit) {
		HikariDataSource pool = database().open();
		pool.setMaximumPoolSize(1);
		pool.setAutoCommit(autoCommit);
		pool.setPoolName("uid-test-renewal-" + (autoCommit ? "auto-commit" : "manual-commit"));
		return pool;
	}

	JdbcLeaseWorkerIdAssigner assigner(DataSource dataSource, String instanceId) {
		return JdbcLeaseWorkerIdAssigner.builder(dataSource)
			.leaseTable(this.table)
			.initializeSchema(true)
			.instanceId(instanceId)
			.build();
	}

	@Test
	void aRenewalThroughAPoolWithAutoCommitOffIsCommittedWhenItReturns() {
		try (HikariDataSource pool = onePool(false)) {
			JdbcLeaseWorkerIdAssigner assigner = assigner(pool, "manual");
			long workerId = assigner.assign(1023).workerId();
			assigner.renew(workerId, MARK);
			// The pool rolls back what is left uncommitted when a connection comes back: the mark must be in by then.
			assertThat(mark(workerId)).isEqualTo(MARK);
			assigner.renew(workerId, MARK + 1);
			assertThat(mark(workerId)).isEqualTo(MARK + 1);
		}
	}

	@Test
	void aRenewalOnAConnectionWithAutoCommitOffLeavesNoTransactionOpenAndAutoCommitOff() throws SQLException {
		try (Connection connection = this.dataSource.getConnection()) {
			long session = sessionId(connection);
			connection.setAutoCommit(false);
			try {
				// No pool between: nothing rolls back or commits after the assigner but the assigner.
				JdbcLeaseWorkerIdAssigner assigner = assigner(new SingleConnectionDataSource(connection, true),
						"manual");
				long workerId = assigner.assign(1023).workerId();
				assigner.renew(workerId, MARK);
				assertThat(transactionOpen(this.dataSource, session)).isFalse();
				assertThat(connection.getAutoCommit()).isFalse();
				assertThat(mark(workerId)).isEqualTo(MARK);
			}
			finally {
				connection.rollback();
				connection.setAutoCommit(true);
			}
		}
	}

	@Test
	void aRenewalOfALostLeaseThrowsWithAutoCommitOnAndOff() throws SQLException {
		for (boolean autoCommit : new boolean[] { true, false }) {
			try (Connection connection = this.dataSource.getConnection()) {
				long session = sessionId(connection);
				connection.setAutoCommit(autoCommit);
				try {
					JdbcLeaseWorkerIdAssigner assigner = assigner(new SingleConnectionDataSource(connection, true),
							"lost-" + autoCommit);
					long workerId = assigner.assign(1023).workerId();
					TestDatabases.execute(this.dataSource, "UPDATE " + this.table
							+ " SET lease_token = 'someone else' WHERE worker_id = " + workerId);
					assertThatExceptionOfType(WorkerLeaseLostException.class)
						.isThrownBy(() -> assigner.renew(workerId, MARK))
						.satisfies((ex) -> assertThat(ex.getWorkerId()).isEqualTo(workerId));
					assertThat(transactionOpen(this.dataSource, session)).as("auto-commit %s", autoCommit).isFalse();
					assertThat(connection.getAutoCommit()).isEqualTo(autoCommit);
				}
				finally {
					if (!autoCommit) {
						connection.rollback();
						connection.setAutoCommit(true);
					}
				}
			}
		}
	}

	@Test
	void aRenewalWhoseTableWasDroppedFailsWithTheDdlThatCreatesIt() {
		JdbcLeaseWorkerIdAssigner assigner = assigner(this.dataSource, "dropped");
		long workerId = assigner.assign(1023).workerId();
		TestDatabases.dropTable(this.dataSource, this.table);
		assertThatExceptionOfType(WorkerTableMissingException.class).isThrownBy(() -> assigner.renew(workerId, MARK))
			.satisfies((ex) -> assertThat(ex.getDdl()).contains("CREATE TABLE IF NOT EXISTS " + this.table));
	}

	/** The mark as another connection reads it, {@code null} when none is committed. */
	Long mark(long workerId) {
		Object mark = TestDatabases.query(this.dataSource, "SELECT high_water_mark FROM " + this.table
				+ " WHERE worker_id = ?", workerId).get(0).get(0);
		return (mark != null) ? ((Number) mark).longValue() : null;
	}

}
