package io.github.uidgen.worker.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

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
	 * Inserts the row of this start.
	 * @return the new row's {@code ID}
	 */
	long insert(Connection connection, String hostName, String port, boolean container) throws SQLException {
		try (PreparedStatement insert = this.dialect.prepareInsertReturningId(connection, this.insertSql)) {
			insert.setString(1, fit(hostName));
			insert.setString(2, fit(port));
			insert.setInt(3, container ? TYPE_CONTAINER : TYPE_ACTUAL);
			insert.executeUpdate();
			try (ResultSet keys = insert.getGeneratedKeys()) {
				if (!keys.next()) {
					throw new SQLException("The insert into " + this.table + " returned no generated ID; is ID an "
							+ "auto-increment (identity) column?");
				}
				return keys.getLong(1);
			}
		}
	}

	private static String fit(String value) {
		return (value.length() <= COLUMN_WIDTH) ? value : value.substring(0, COLUMN_WIDTH);
	}

}
