package io.github.uidgen.worker.jdbc;

import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

import javax.sql.DataSource;

import io.github.uidgen.worker.WorkerAssignmentException;
import io.github.uidgen.worker.WorkerTableMissingException;

/**
 * The database table one mode of {@link JdbcWorkerIdAssigner} works on: the connections, the dialect detected at
 * first use, the table created at start when asked, and SQL failures turned into the assigner's exceptions.
 */
final class JdbcStore {

	private final ConnectionRunner runner;

	private final String defaultTable;

	private final String table;

	private final boolean initializeSchema;

	private volatile SqlDialect dialect;

	/**
	 * Creates the store of one table.
	 * @param dataSource the database
	 * @param defaultTable the name the shipped DDL uses for the table
	 * @param table the configured name, already validated
	 * @param initializeSchema whether to create the table at first use when missing
	 * @param callTimeout how long any one database round trip may take
	 */
	JdbcStore(DataSource dataSource, String defaultTable, String table, boolean initializeSchema,
			Duration callTimeout) {
		this.runner = new ConnectionRunner(dataSource, callTimeout);
		this.defaultTable = defaultTable;
		this.table = table;
		this.initializeSchema = initializeSchema;
	}

	ConnectionRunner runner() {
		return this.runner;
	}

	String table() {
		return this.table;
	}

	/** Detects the database once and creates the table when asked to. */
	SqlDialect dialect() {
		SqlDialect current = this.dialect;
		if (current != null) {
			return current;
		}
		synchronized (this) {
			if (this.dialect != null) {
				return this.dialect;
			}
			try {
				current = this.runner.autoCommit(SqlDialect::of);
				if (this.initializeSchema) {
					createTable(SchemaScript.createTable(current, this.defaultTable, this.table));
				}
			}
			catch (SQLException ex) {
				throw (SqlFailures.isConnectionFailure(ex)) ? ConnectionRunner.unavailable(ex)
						: new WorkerAssignmentException("Cannot prepare the uid worker ID tables: " + ex.getMessage(),
								ex);
			}
			this.dialect = current;
			return current;
		}
	}

	/**
	 * Runs {@code CREATE TABLE IF NOT EXISTS}, once more after a failure: instances starting together race to
	 * create the table, and PostgreSQL lets the loser fail even with {@code IF NOT EXISTS}.
	 */
	private void createTable(String ddl) throws SQLException {
		ConnectionRunner.SqlWork<Boolean> create = (connection) -> {
			try (Statement statement = connection.createStatement()) {
				return statement.execute(ddl);
			}
		};
		try {
			this.runner.autoCommit(create);
		}
		catch (SQLException ex) {
			if (SqlFailures.isConnectionFailure(ex)) {
				throw ex;
			}
			backOff(5);
			this.runner.autoCommit(create);
		}
	}

	/**
	 * Turns a failure on the table into the exception the assigner throws: the store is unreachable, the table is
	 * missing (with the DDL to run), or the table could not be used.
	 */
	RuntimeException translate(SQLException ex) {
		if (SqlFailures.isConnectionFailure(ex)) {
			return ConnectionRunner.unavailable(ex);
		}
		if (SqlFailures.isTableMissing(ex)) {
			return new WorkerTableMissingException(this.table,
					SchemaScript.createTable(this.dialect, this.defaultTable, this.table) + ";", ex);
		}
		return new WorkerAssignmentException("The uid worker ID table " + this.table + " could not be used: "
				+ ex.getMessage(), ex);
	}

	/** Waits a few random milliseconds, longer with each attempt, before trying again after a race. */
	static void backOff(int attempt) {
		try {
			Thread.sleep(ThreadLocalRandom.current().nextLong(1, Math.min(50, 2L * attempt + 3)));
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new WorkerAssignmentException("Interrupted while claiming a uid worker ID", ex);
		}
	}

}
