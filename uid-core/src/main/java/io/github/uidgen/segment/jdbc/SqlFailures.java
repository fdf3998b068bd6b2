package io.github.uidgen.segment.jdbc;

import java.sql.SQLException;

/**
 * Whether a failed statement of the database segment stores means that their table is not there, which Spring's
 * exception hierarchy does not say; whether the database is out of reach is
 * {@link io.github.uidgen.jdbc.DatabaseReachability}'s to tell, for the worker-ID tables too.
 */
final class SqlFailures {

	private SqlFailures() {
	}

	static boolean isTableMissing(Throwable ex) {
		SQLException sqlException = sqlException(ex);
		if (sqlException == null) {
			return false;
		}
		String state = sqlException.getSQLState();
		return "42S02".equals(state) || "42P01".equals(state) || sqlException.getErrorCode() == 1146;
	}

	private static SQLException sqlException(Throwable ex) {
		for (Throwable current = ex; current != null; current = current.getCause()) {
			if (current instanceof SQLException sqlException) {
				return sqlException;
			}
		}
		return null;
	}

}
