package io.github.uidgen.jdbc;

import java.sql.SQLException;

import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.dao.RecoverableDataAccessException;
import org.springframework.dao.TransientDataAccessResourceException;
import org.springframework.transaction.CannotCreateTransactionException;
import org.springframework.transaction.TransactionSystemException;

/**
 * Tells whether a failed database call means the database is out of reach, for every database store of uid: the
 * worker-ID assigners report such a failure as a store that does not answer, and the segment stores as one that cannot
 * be reached, which a start waits out and a claim tries again, where a table that cannot be used fails at once. One
 * rule for both, so that what one learns about a driver or a pool the other cannot miss. Internal to uid, not API.
 */
public final class DatabaseReachability {

	private DatabaseReachability() {
	}

	/**
	 * Tells whether the database is out of reach: the connection could not be had, broke, or the database did not
	 * answer in time, as Spring's exception hierarchy says. A commit or rollback that failed in a way the driver did
	 * not classify ({@link TransactionSystemException}) counts too: a rollback fails only on a connection that is gone,
	 * and when a commit's answer is lost the driver reports the broken connection, HikariCP closes it, and the
	 * rollback Spring runs next fails with only "Connection is closed" (no SQL state), which Spring throws in place of
	 * the commit's failure. Where Spring is silent (a failure it could not translate), a connection exception's SQL
	 * state (class {@code 08}) decides.
	 * @param ex what a call on the database threw
	 * @return whether the database is out of reach
	 */
	public static boolean isUnreachable(RuntimeException ex) {
		if (ex instanceof DataAccessResourceFailureException || ex instanceof TransientDataAccessResourceException
				|| ex instanceof RecoverableDataAccessException || ex instanceof QueryTimeoutException
				|| ex instanceof CannotCreateTransactionException || ex instanceof TransactionSystemException) {
			return true;
		}
		for (Throwable cause = ex; cause != null; cause = cause.getCause()) {
			if (cause instanceof SQLException sqlException) {
				String state = sqlException.getSQLState();
				return state != null && state.startsWith("08");
			}
		}
		return false;
	}

}
