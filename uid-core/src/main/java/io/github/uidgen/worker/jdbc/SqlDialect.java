package io.github.uidgen.worker.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;

import io.github.uidgen.worker.WorkerAssignmentException;

/**
 * What differs between the supported databases: the clock expressions used for leases and marks (the database's own
 * clock, so instances whose clocks disagree still agree on expiry), generated keys and the shipped DDL.
 */
enum SqlDialect {

	MYSQL("schema-mysql.sql", "UTC_TIMESTAMP(3)", "UTC_TIMESTAMP(3) + INTERVAL ? MICROSECOND",
			"ROUND(UNIX_TIMESTAMP(CURRENT_TIMESTAMP(3)) * 1000)") {

		@Override
		PreparedStatement prepareInsertReturningId(Connection connection, String sql) throws SQLException {
			return connection.prepareStatement(sql, Statement.RETURN_GENERATED_KEYS);
		}

	},

	POSTGRESQL("schema-postgresql.sql", "clock_timestamp()", "clock_timestamp() + ? * INTERVAL '1 microsecond'",
			"ROUND(EXTRACT(EPOCH FROM clock_timestamp()) * 1000)") {

		@Override
		PreparedStatement prepareInsertReturningId(Connection connection, String sql) throws SQLException {
			// The driver quotes these names; unquoted ID in the DDL is stored as id.
			return connection.prepareStatement(sql, new String[] { "id" });
		}

	};

	private final String schemaResource;

	private final String now;

	private final String nowPlusMicros;

	private final String nowMillis;

	SqlDialect(String schemaResource, String now, String nowPlusMicros, String nowMillis) {
		this.schemaResource = schemaResource;
		this.now = now;
		this.nowPlusMicros = nowPlusMicros;
		this.nowMillis = nowMillis;
	}

	/** The shipped DDL, a resource next to this class. */
	String schemaResource() {
		return this.schemaResource;
	}

	/** The database's current time, as an SQL expression. */
	String now() {
		return this.now;
	}

	/** The database's current time plus a bound number of microseconds, as an SQL expression with one parameter. */
	String nowPlusMicros() {
		return this.nowPlusMicros;
	}

	/** The database's current time in epoch milliseconds, as an SQL expression, to compare marks with. */
	String nowMillis() {
		return this.nowMillis;
	}

	abstract PreparedStatement prepareInsertReturningId(Connection connection, String sql) throws SQLException;

	/**
	 * Picks the dialect from the connection's metadata.
	 * @throws WorkerAssignmentException for a database that is not supported
	 */
	static SqlDialect of(Connection connection) throws SQLException {
		String product = connection.getMetaData().getDatabaseProductName();
		String lower = (product != null) ? product.toLowerCase(Locale.ROOT) : "";
		if (lower.contains("mysql") || lower.contains("mariadb")) {
			return MYSQL;
		}
		if (lower.contains("postgres")) {
			return POSTGRESQL;
		}
		throw new WorkerAssignmentException("The db worker ID assigner supports MySQL, MariaDB and PostgreSQL, but the "
				+ "DataSource is " + product + "; use one of those, or the redis or static assigner.");
	}

}
