package io.github.uidgen.segment.jdbc;

import java.util.Locale;

import io.github.uidgen.segment.SegmentStoreException;

/**
 * What differs between the supported databases: how a key's row is inserted unless it exists, the current time as
 * an SQL expression, times read back as instants, and the shipped DDL.
 */
enum SegmentDialect {

	MYSQL("schema-mysql.sql", "UTC_TIMESTAMP(3)") {

		@Override
		String insertIfAbsent(String table) {
			return "INSERT INTO " + table + " (segment_key, max_id, created, modified) VALUES (?, 0, " + now() + ", "
					+ now() + ") ON DUPLICATE KEY UPDATE max_id = max_id";
		}

		@Override
		String millisOfWritten(String column) {
			// A DATETIME holding UTC wall time: arithmetic on it, unlike UNIX_TIMESTAMP, ignores the session's zone.
			return "TIMESTAMPDIFF(MICROSECOND, '1970-01-01 00:00:00', " + column + ") DIV 1000";
		}

		@Override
		String millisOfTimestamp(String column) {
			return "ROUND(UNIX_TIMESTAMP(" + column + ") * 1000)";
		}

	},

	POSTGRESQL("schema-postgresql.sql", "CURRENT_TIMESTAMP") {

		@Override
		String insertIfAbsent(String table) {
			return "INSERT INTO " + table + " (segment_key, max_id, created, modified) VALUES (?, 0, " + now() + ", "
					+ now() + ") ON CONFLICT (segment_key) DO NOTHING";
		}

		@Override
		String millisOfWritten(String column) {
			return millisOfTimestamp(column);
		}

		@Override
		String millisOfTimestamp(String column) {
			// A timestamp without zone is read in the session's zone, the one CURRENT_TIMESTAMP filled it in.
			return "ROUND(EXTRACT(EPOCH FROM CAST(" + column + " AS TIMESTAMPTZ)) * 1000)";
		}

	};

	private final String schemaResource;

	private final String now;

	SegmentDialect(String schemaResource, String now) {
		this.schemaResource = schemaResource;
		this.now = now;
	}

	/** The shipped DDL, a resource next to {@link JdbcSegmentStore}. */
	String schemaResource() {
		return this.schemaResource;
	}

	/** The current time, as an SQL expression. */
	String now() {
		return this.now;
	}

	/** An insert of a key's row with {@code max_id} 0 that does nothing when the row exists; one parameter. */
	abstract String insertIfAbsent(String table);

	/** The instant in a column written with {@link #now()}, as epoch milliseconds. */
	abstract String millisOfWritten(String column);

	/**
	 * The instant in a {@code TIMESTAMP} column the database fills itself (Leaf's {@code update_time}), as epoch
	 * milliseconds.
	 */
	abstract String millisOfTimestamp(String column);

	/**
	 * Picks the dialect from the database's product name.
	 * @throws SegmentStoreException for a database that is not supported
	 */
	static SegmentDialect of(String productName) {
		String lower = (productName != null) ? productName.toLowerCase(Locale.ROOT) : "";
		if (lower.contains("mysql") || lower.contains("mariadb")) {
			return MYSQL;
		}
		if (lower.contains("postgres")) {
			return POSTGRESQL;
		}
		throw new SegmentStoreException("The db segment store supports MySQL, MariaDB and PostgreSQL, but the "
				+ "DataSource is " + productName + "; use one of those, or the redis segment store.");
	}

}
