package io.github.uidgen.segment.jdbc;

import java.sql.SQLException;

import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.dao.TransientDataAccessResourceException;
import org.springframework.jdbc.CannotGetJdbcConnectionException;
import org.springframework.transaction.CannotCreateTransactionException;

/**
 * What a failed statement means for the database segment stores: the database out of reach, a table or column that
 * is not there. Spring's exception hierarchy says most of it; SQL states fill in what it leaves open.
 */
final class SqlFailures {

	private SqlFailures() {
	}

	static boolean isUnreachable(RuntimeException ex) {
		if (ex instanceof CannotGetJdbcConnectionException || ex instanceof CannotCreateTransactionException
				|| ex instanceof DataAccessResourceFailureException || ex instanceof TransientDataAccessResourceException
				|| ex instanceof QueryTimeoutException) {
			return true;
		}
		SQLException sqlException = sqlException(ex);
		String state = (sqlException != null) ? sqlException.getSQLState() : null;
		return state != null && state.startsWith("08");
	}

	static boolean isTableMissing(Throwable ex) {
		SQLException sqlException = sqlException(ex);
		if (sqlException == null) {
			return false;
		}
		String state = sqlException.getSQLState();
		return "42S02".equals(state) || "42P01".equals(state) || sqlException.getErrorCode() == 1146;
	}

	static SQLException sqlException(Throwable ex) {
		for (Throwable current = ex; current != null; current = current.getCause()) {
			if (current instanceof SQLException sqlException) {
				return sqlException;
			}
		}
		return null;
	}

}
