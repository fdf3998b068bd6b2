package io.github.uidgen.worker.jdbc;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;

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

	private final String countSql;

	private final String listSql;

	private final String rowSql;

	WorkerNodeTable(SqlDialect dialect, String table) {
		this.dialect = dialect;
		this.table = table;
		this.insertSql = "INSERT INTO " + table + " (HOST_NAME, PORT, TYPE, LAUNCH_DATE, MODIFIED, CREATED) "
				+ "VALUES (?, ?, ?, CURRENT_DATE, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)";
		// CREATED holds the session's local time (MySQL converts TIMESTAMP through the session's zone itself).
		String created = (dialect == SqlDialect.POSTGRESQL)
				? "CAST(ROUND(EXTRACT(EPOCH FROM CAST(CREATED AS TIMESTAMPTZ)) * 1000) AS BIGINT)"
				: "ROUND(UNIX_TIMESTAMP(CREATED) * 1000)";
		String select = "SELECT ID, HOST_NAME, PORT, " + created + " FROM " + table;
		this.countSql = "SELECT COUNT(*) FROM " + table;
		this.listSql = select + " ORDER BY ID LIMIT ?";
		this.rowSql = select + " WHERE ID = ?";
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

	/** One start as its row records it. */
	record Node(long workerId, String hostName, String port, Long createdMillis) {
	}

	/** Counts the rows, a plain read. */
	long count(JdbcClient jdbc) {
		return jdbc.sql(this.countSql).query(Long.class).single();
	}

	/** Reads the rows of the lowest IDs, a plain read. */
	List<Node> list(JdbcClient jdbc, int max) {
		return jdbc.sql(this.listSql).param(max).query((row, number) -> node(row)).list();
	}

	/**
	 * Reads the row of one worker ID, a plain read.
	 * @return the row, or {@code null} when there is none
	 */
	Node node(JdbcClient jdbc, long workerId) {
		return jdbc.sql(this.rowSql).param(workerId).query((row, number) -> node(row)).optional().orElse(null);
	}

	private static Node node(ResultSet row) throws SQLException {
		long created = row.getLong(4);
		return new Node(row.getLong(1), row.getString(2), row.getString(3), row.wasNull() ? null : created);
	}

	private static String fit(String value) {
		return (value.length() <= COLUMN_WIDTH) ? value : value.substring(0, COLUMN_WIDTH);
	}

}
