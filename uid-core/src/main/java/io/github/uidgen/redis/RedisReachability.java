package io.github.uidgen.redis;

import org.springframework.dao.DataAccessException;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.QueryTimeoutException;

/**
 * Tells whether a failed Redis call means Redis does not serve yet, for every Redis store of uid: the worker-ID
 * registry reports such a failure as a store that does not answer, and the segment store as one that cannot be
 * reached, which a start waits out and a claim tries again, where a reply that says something is wrong fails at once.
 * One rule for both. Internal to uid, not API.
 */
public final class RedisReachability {

	/**
	 * The start of Redis's error reply while it loads its data after a restart (a snapshot or an append-only file):
	 * it refuses every data command until it has, for seconds with a large data set.
	 */
	private static final String LOADING = "LOADING";

	private RedisReachability() {
	}

	/**
	 * Tells whether Redis does not serve yet: the connection could not be made or broke, the call timed out (as
	 * Spring's exception hierarchy says), or Redis answered that it is still loading its data, which Spring Data Redis
	 * reports as an error like any other reply (a {@code RedisSystemException} over Lettuce's
	 * {@code RedisLoadingException}, or uid's own socket's reply).
	 * @param ex what a call on Redis threw
	 * @return whether Redis does not serve yet
	 */
	public static boolean isUnreachable(DataAccessException ex) {
		if (ex instanceof DataAccessResourceFailureException || ex instanceof QueryTimeoutException) {
			return true;
		}
		for (Throwable cause = ex; cause != null; cause = cause.getCause()) {
			String message = cause.getMessage();
			if (message != null && message.startsWith(LOADING)) {
				return true;
			}
		}
		return false;
	}

	/**
	 * Says why Redis does not serve, for a message: Spring's own words for a connection or a timeout, Redis's reply
	 * for the rest, which Spring wraps in a generic "Error in execution".
	 * @param ex what a call on Redis threw, one that {@link #isUnreachable} counts
	 * @return the reason
	 */
	public static String reason(DataAccessException ex) {
		return (ex instanceof DataAccessResourceFailureException || ex instanceof QueryTimeoutException)
				? ex.getMessage() : ex.getMostSpecificCause().getMessage();
	}

}
