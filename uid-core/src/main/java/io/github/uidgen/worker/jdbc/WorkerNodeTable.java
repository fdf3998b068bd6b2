package io.github.uidgen.worker.jdbc;

import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * The SQL of disposable mode: the reference UidGenerator's {@code WORKER_NODE} table, one row per start, whose
 * generated {@code ID} is the worker ID.
 */
final class WorkerNodeTable {

	/** {@code TYPE} of a node running in a container, as the reference writes it. */
	static final int TYPE_CONTAINER = 1;

	/** {@code TYPE} of a node running on a machine of its own, as the reference writes it. */
	static final int TYPE_ACTUAL = 2;

	/** Width of the reference's {@code HOST_NAME} and {@code PORT} columns. */
	static final int COLUMN_WIDTH = 64;

	private final SqlDialect dialect;

	private final String table;

	private final String insertSql;

	WorkerNodeTable(SqlDialect dialect, String table) {
		this.dialect = dialect;
		this.table = table;
		this.insertSql = "INSERT INTO " + table + " (HOST_NAME, PORT, TYPE, LAUNCH_DATE, MODIFIED, CREATED) "
				+ "VALUES (?, ?, ?, CURRENT_DATE, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)";
	}

	String table() {
		return this.table;
	}

	/**
	 * Inserts the row of this start, in the transaction the caller opened.
	 * @return the new row's {@code ID}
	 */
	long insert(JdbcClient jdbc, String hostName, String port, boolean container) {
		JdbcClient.StatementSpec insert = jdbc.sql(this.insertSql)
			.params(fit(hostName), fit(port), container ? TYPE_CONTAINER : TYPE_ACTUAL);
		return this.dialect.insertReturningId(insert, this.table);
	}

	private static String fit(String value) {
		return (value.length() <= COLUMN_WIDTH) ? value : value.substring(0, COLUMN_WIDTH);
	}

}
