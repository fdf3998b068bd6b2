package io.github.uidgen.worker.jdbc;

import java.sql.SQLException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransactionRollbackException;
import java.sql.SQLTransientConnectionException;

/**
 * Sorts the SQL errors the assigner reacts to, by SQLState and vendor code, for MySQL, MariaDB and PostgreSQL.
 */
final class SqlFailures {

	private static final int MYSQL_NO_SUCH_TABLE = 1146;

	private static final int MYSQL_DUPLICATE_KEY = 1062;

	private static final int MYSQL_DEADLOCK = 1213;

	private static final int MYSQL_LOCK_WAIT_TIMEOUT = 1205;

	private SqlFailures() {
	}

	/** The connection failed or could not be had: the store is unreachable. */
	static boolean isConnectionFailure(SQLException ex) {
		for (SQLException current = ex; current != null; current = current.getNextException()) {
			String state = current.getSQLState();
			if ((state != null && state.startsWith("08")) || current instanceof SQLTransientConnectionException
					|| current instanceof SQLNonTransientConnectionException
					|| current instanceof SQLRecoverableException) {
				return true;
			}
		}
		return false;
	}

	/** The table does not exist. */
	static boolean isTableMissing(SQLException ex) {
		String state = ex.getSQLState();
		return "42S02".equals(state) || "42P01".equals(state) || ex.getErrorCode() == MYSQL_NO_SUCH_TABLE;
	}

	/** Another claimant won a race (duplicate key, deadlock, lock timeout, serialization): try again. */
	static boolean isContention(SQLException ex) {
		String state = ex.getSQLState();
		int code = ex.getErrorCode();
		return ex instanceof SQLIntegrityConstraintViolationException || ex instanceof SQLTransactionRollbackException
				|| "23505".equals(state) || "40001".equals(state) || "40P01".equals(state)
				|| code == MYSQL_DUPLICATE_KEY || code == MYSQL_DEADLOCK || code == MYSQL_LOCK_WAIT_TIMEOUT;
	}

}
