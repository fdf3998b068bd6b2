package io.github.uidgen.redis;

import java.util.Set;

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

	/**
	 * A Cluster node's reply while the cluster's state is fail (a master died and no replica has taken its slots yet,
	 * or a slot has no master): it refuses every command on a key until the cluster serves all its slots again.
	 */
	private static final String CLUSTERDOWN = "CLUSTERDOWN";

	/**
	 * A replica's reply to a script or a read, with {@code replica-serve-stale-data no}, while its link to its master
	 * is down or it syncs with a new one: until the link is up again, or the replica is promoted in its master's place
	 * (a plain write is answered {@code READONLY} there whatever the link, as a store set to a replica would be).
	 */
	private static final String MASTERDOWN = "MASTERDOWN";

	/**
	 * A Cluster node's reply to a command on several keys of one slot (each of uid's scripts touches the keys of one
	 * hash tag) while the slot moves to another master and only some of the keys are still here: until the move ends.
	 */
	private static final String TRYAGAIN = "TRYAGAIN";

	/**
	 * Redis's reply to every command but {@code SCRIPT KILL} and {@code SHUTDOWN NOSAVE} while another client's
	 * script or function runs past {@code busy-reply-threshold}: until it ends or is killed. Not {@code BUSYKEY} nor
	 * {@code BUSYGROUP}, which are other words.
	 */
	private static final String BUSY = "BUSY";

	/** The replies that say Redis does not serve yet, by their error code (the reply's first word). */
	private static final Set<String> NOT_SERVING_YET = Set.of(LOADING, CLUSTERDOWN, MASTERDOWN, TRYAGAIN, BUSY);

	private RedisReachability() {
	}

	/**
	 * Tells whether Redis does not serve yet: the connection could not be made or broke, the call timed out (as
	 * Spring's exception hierarchy says), or Redis answered that it does not serve for a while (still loading its
	 * data, a Cluster down, a replica cut off from its master, a slot moving, another script running too long), which
	 * Spring Data Redis reports as an error like any other reply (a {@code RedisSystemException} over Lettuce's
	 * exception, such as {@code RedisLoadingException}, whose message is the reply, or uid's own socket's reply).
	 * @param ex what a call on Redis threw
	 * @return whether Redis does not serve yet
	 */
	public static boolean isUnreachable(DataAccessException ex) {
		if (isConnectionOrTimeout(ex)) {
			return true;
		}
		for (Throwable cause = ex; cause != null; cause = cause.getCause()) {
			if (NOT_SERVING_YET.contains(errorCode(cause.getMessage()))) {
				return true;
			}
		}
		return false;
	}

	/** Returns the error code an error reply starts with, its first word; the whole message when it has one word. */
	private static String errorCode(String message) {
		if (message == null) {
			return "";
		}
		int space = message.indexOf(' ');
		return (space < 0) ? message : message.substring(0, space);
	}

	/**
	 * Says why Redis does not serve, for a message: Spring's own words for a connection or a timeout, Redis's reply
	 * for the rest, which Spring wraps in a generic "Error in execution".
	 * @param ex what a call on Redis threw, one that {@link #isUnreachable} counts
	 * @return the reason
	 */
	public static String reason(DataAccessException ex) {
		return isConnectionOrTimeout(ex) ? ex.getMessage() : ex.getMostSpecificCause().getMessage();
	}

	/** Whether Spring's exception hierarchy says the connection failed or the call timed out. */
	private static boolean isConnectionOrTimeout(DataAccessException ex) {
		return ex instanceof DataAccessResourceFailureException || ex instanceof QueryTimeoutException;
	}

}
