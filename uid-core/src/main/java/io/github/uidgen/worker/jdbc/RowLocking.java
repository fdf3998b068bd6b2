package io.github.uidgen.worker.jdbc;

import java.math.BigDecimal;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How a claim keeps from waiting on another claimant's locks, as far as the database lets it: claimants that start
 * together and wait on each other's rows queue one behind another (a fleet of 1,000 on MariaDB ran its claims past
 * the round trip's bound that way), while one that passes over a locked row, or gives up on it at once, tries
 * another worker ID.
 *
 * @param lockSuffix what ends the statement that locks a free row: {@code FOR UPDATE SKIP LOCKED} where the
 * database passes over rows others have locked (PostgreSQL 9.5 and later, MySQL 8, MariaDB 10.6 and later),
 * {@code FOR UPDATE NOWAIT} where it can only fail at once (MariaDB 10.3 to 10.5), else {@code FOR UPDATE}
 * @param insertPrefix what precedes the insert of a worker ID never used, so that it fails at once rather than wait
 * for another claimant inserting the same one to commit: MariaDB's {@code SET STATEMENT innodb_lock_wait_timeout = 0
 * FOR}; empty elsewhere, where the insert waits
 * @param layoutInsertPrefix what precedes the insert of the layout's row, so that a start meeting another start's
 * insert of it waits for that to commit a second at most, then reads it: MariaDB's {@code SET STATEMENT
 * innodb_lock_wait_timeout = 1 FOR}; empty elsewhere, where the insert waits as long as the round trip's bound lets it
 * @param statementPrefix what precedes every other write to the lease table (a take, a renewal, a release, the free
 * rows), so that the server stops it before the client gives up on it: MariaDB's {@code SET STATEMENT
 * max_statement_time = ... FOR} (the two inserts above wait for a lock a second at most already). The server
 * otherwise runs a statement whose client gave up to its end, and a renewal waiting for its row's lock waits up to
 * 50 s: when a fleet of 1,000 started on a database that fell behind, it was still running 281 renewals for 112
 * instances 40 s later. Not on reads: MySQL Connector/J refuses to run a query that begins with {@code SET} as one
 * that returns rows. Empty elsewhere (MySQL bounds only a {@code SELECT}'s time, PostgreSQL only per session or
 * transaction), where only the client's bound holds
 */
record RowLocking(String lockSuffix, String insertPrefix, String layoutInsertPrefix, String statementPrefix) {

	/** MariaDB's own version in a product version string, major and minor. */
	private static final Pattern MARIADB_VERSION = Pattern.compile("(\\d+)\\.(\\d+)\\.\\d+-mariadb");

	/** Waits for every lock, as any database can. */
	static final RowLocking WAITING = new RowLocking(" FOR UPDATE", "", "", "");

	/**
	 * Tells what the database offers from its metadata.
	 * @param metaData the connection's metadata
	 * @param roundTrip the bound on a round trip, after which the client gives up on a statement
	 * @return how claims lock rows there
	 */
	static RowLocking of(DatabaseMetaData metaData, Duration roundTrip) throws SQLException {
		String product = metaData.getDatabaseProductName();
		String version = metaData.getDatabaseProductVersion();
		String lower = ((product != null) ? product : "").toLowerCase(Locale.ROOT) + " "
				+ ((version != null) ? version : "").toLowerCase(Locale.ROOT);
		int major = metaData.getDatabaseMajorVersion();
		int minor = metaData.getDatabaseMinorVersion();
		if (lower.contains("postgres")) {
			return (major > 9 || (major == 9 && minor >= 5)) ? new RowLocking(" FOR UPDATE SKIP LOCKED", "", "", "")
					: WAITING;
		}
		if (lower.contains("mariadb")) {
			// MySQL Connector/J reports MariaDB 10.11 as version 5.5 ("5.5.5-10.11.19-MariaDB", the prefix MariaDB sends
			// for old replication clients): the version that counts is the one before "-MariaDB".
			Matcher mariaDb = MARIADB_VERSION.matcher(lower);
			if (mariaDb.find()) {
				major = Integer.parseInt(mariaDb.group(1));
				minor = Integer.parseInt(mariaDb.group(2));
			}
			String statement = "SET STATEMENT max_statement_time = " + serverBoundSeconds(roundTrip) + " FOR ";
			String noWait = "SET STATEMENT innodb_lock_wait_timeout = 0 FOR ";
			String waitASecond = "SET STATEMENT innodb_lock_wait_timeout = 1 FOR ";
			if (major > 10 || (major == 10 && minor >= 6)) {
				return new RowLocking(" FOR UPDATE SKIP LOCKED", noWait, waitASecond, statement);
			}
			return (major == 10 && minor >= 3) ? new RowLocking(" FOR UPDATE NOWAIT", noWait, waitASecond, statement)
					: WAITING;
		}
		if (lower.contains("mysql")) {
			return (major >= 8) ? new RowLocking(" FOR UPDATE SKIP LOCKED", "", "", "") : WAITING;
		}
		return WAITING;
	}

	/**
	 * How long the server may run one statement, in seconds: a second less than the round trip's bound, half of it at
	 * least, so that the server stops the statement and says so before the client gives up and closes the connection.
	 */
	static String serverBoundSeconds(Duration roundTrip) {
		long millis = Math.max(roundTrip.toMillis() / 2, roundTrip.toMillis() - 1000);
		return BigDecimal.valueOf(Math.max(1, millis), 3).stripTrailingZeros().toPlainString();
	}

}
