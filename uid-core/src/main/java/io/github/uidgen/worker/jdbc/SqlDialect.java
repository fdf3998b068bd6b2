package io.github.uidgen.worker.jdbc;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Locale;

import io.github.uidgen.worker.WorkerAssignmentException;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.support.GeneratedKeyHolder;
import org.springframework.jdbc.support.KeyHolder;

/**
 * What differs between the supported databases: the clock expressions used for leases and marks (the database's own
 * clock, so instances whose clocks disagree still agree on expiry), generated keys and the shipped DDL.
 */
enum SqlDialect {

	MYSQL("schema-mysql.sql", "UTC_TIMESTAMP(3)", "UTC_TIMESTAMP(3) + INTERVAL ? MICROSECOND",
			"ROUND(UNIX_TIMESTAMP(CURRENT_TIMESTAMP(3)) * 1000)") {

		// The DATETIME columns hold UTC wall-clock times: counted from the epoch as such, whatever the session's zone.
		@Override
		String epochMillis(String column) {
			return "(TIMESTAMPDIFF(MICROSECOND, '1970-01-01 00:00:00', " + column + ") DIV 1000)";
		}

		@Override
		String fromEpochMillis() {
			return "TIMESTAMPADD(MICROSECOND, ? * 1000, '1970-01-01 00:00:00')";
		}

		@Override
		void insert(JdbcClient.StatementSpec insert, KeyHolder keys) {
			insert.update(keys);
		}

		@Override
		boolean lock(Connection connection, String name, int seconds) throws SQLException {
			try (PreparedStatement lock = connection.prepareStatement("SELECT GET_LOCK(?, ?)")) {
				lock.setString(1, name);
				lock.setInt(2, seconds);
				try (ResultSet result = lock.executeQuery()) {
					return result.next() && result.getInt(1) == 1;
				}
			}
		}

		@Override
		void unlock(Connection connection, String name) throws SQLException {
			try (PreparedStatement unlock = connection.prepareStatement("SELECT RELEASE_LOCK(?)")) {
				unlock.setString(1, name);
				unlock.executeQuery().close();
			}
		}

		/** Takes the lock and gives it back in one statement: the next waiter gets it without a round trip between. */
		@Override
		void awaitRelease(Connection connection, String name, int seconds) throws SQLException {
			try (PreparedStatement await = connection
				.prepareStatement("SELECT CASE WHEN GET_LOCK(?, ?) = 1 THEN RELEASE_LOCK(?) ELSE 0 END")) {
				await.setString(1, name);
				await.setInt(2, seconds);
				await.setString(3, name);
				await.executeQuery().close();
			}
		}

	},

	POSTGRESQL("schema-postgresql.sql", "clock_timestamp()", "clock_timestamp() + ? * INTERVAL '1 microsecond'",
			"ROUND(EXTRACT(EPOCH FROM clock_timestamp()) * 1000)") {

		@Override
		String epochMillis(String column) {
			return "CAST(ROUND(EXTRACT(EPOCH FROM " + column + ") * 1000) AS BIGINT)";
		}

		@Override
		String fromEpochMillis() {
			return "to_timestamp(? / 1000.0)";
		}

		@Override
		void insert(JdbcClient.StatementSpec insert, KeyHolder keys) {
			// Asked for every generated column, the driver returns the whole row; unquoted ID is stored as id.
			insert.update(keys, "id");
		}

		/** Waits for the advisory lock as long as the connection's network timeout lets it. */
		@Override
		boolean lock(Connection connection, String name, int seconds) throws SQLException {
			try (PreparedStatement lock = connection.prepareStatement("SELECT pg_advisory_lock(hashtext(?))")) {
				lock.setString(1, name);
				lock.executeQuery().close();
				return true;
			}
		}

		@Override
		void unlock(Connection connection, String name) throws SQLException {
			try (PreparedStatement unlock = connection.prepareStatement("SELECT pg_advisory_unlock(hashtext(?))")) {
				unlock.setString(1, name);
				unlock.executeQuery().close();
			}
		}

		@Override
		boolean tryLock(Connection connection, String name) throws SQLException {
			try (PreparedStatement lock = connection.prepareStatement("SELECT pg_try_advisory_lock(hashtext(?))")) {
				lock.setString(1, name);
				try (ResultSet result = lock.executeQuery()) {
					return result.next() && result.getBoolean(1);
				}
			}
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

	/**
	 * A stored time column as epoch milliseconds, as an SQL expression; {@code NULL} stays {@code NULL}.
	 * @param column the column, of the type the shipped DDL gives times
	 * @return the expression
	 */
	abstract String epochMillis(String column);

	/** Epoch milliseconds as a stored time, an SQL expression with one parameter: the inverse of {@link #epochMillis}. */
	abstract String fromEpochMillis();

	/**
	 * Runs an insert into a table whose {@code ID} column the database generates.
	 * @param insert the insert, parameters bound
	 * @param table the table, for the message
	 * @return the new row's {@code ID}
	 * @throws WorkerAssignmentException when the database returned no ID
	 */
	long insertReturningId(JdbcClient.StatementSpec insert, String table) {
		KeyHolder keys = new GeneratedKeyHolder();
		insert(insert, keys);
		Number id = keys.getKey();
		if (id == null) {
			throw new WorkerAssignmentException("The insert into " + table + " returned no generated ID; is ID an "
					+ "auto-increment (identity) column?");
		}
		return id.longValue();
	}

	abstract void insert(JdbcClient.StatementSpec insert, KeyHolder keys);

	/**
	 * Takes a lock of the database's own by name, held by the connection's session until {@link #unlock}: MySQL's and
	 * MariaDB's {@code GET_LOCK}, PostgreSQL's advisory lock.
	 * @param seconds how long to wait for it at most, where the database takes a bound
	 * @return whether it was taken
	 */
	abstract boolean lock(Connection connection, String name, int seconds) throws SQLException;

	/** Gives a lock {@link #lock} took back. */
	abstract void unlock(Connection connection, String name) throws SQLException;

	/**
	 * Takes a lock by name if no other session holds it, without waiting.
	 * @return whether it was taken
	 */
	boolean tryLock(Connection connection, String name) throws SQLException {
		return lock(connection, name, 0);
	}

	/**
	 * Waits until no other session holds a lock by name, without keeping it: another session is doing what the lock
	 * guards, and its outcome is what the caller wants to see.
	 * @param seconds how long to wait at most, where the database takes a bound
	 */
	void awaitRelease(Connection connection, String name, int seconds) throws SQLException {
		if (lock(connection, name, seconds)) {
			unlock(connection, name);
		}
	}

	/**
	 * Picks the dialect from the database's metadata.
	 * @throws WorkerAssignmentException for a database that is not supported
	 */
	static SqlDialect of(DatabaseMetaData metaData) throws SQLException {
		String product = metaData.getDatabaseProductName();
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
