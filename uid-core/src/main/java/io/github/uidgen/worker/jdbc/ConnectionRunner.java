package io.github.uidgen.worker.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;

import javax.sql.DataSource;

import io.github.uidgen.worker.WorkerStoreUnavailableException;

/**
 * Runs work on a connection of its own, in a short transaction of its own, whatever transaction the calling
 * thread may be in: a claim or a mark must be committed when the call returns.
 *
 * <p>Every connection gets a network timeout of its own while the work runs, so a statement on a database that
 * stopped answering (paused, or cut off without a reset) fails within that time instead of waiting on the socket for
 * ever (MySQL Connector/J's default) and holding the mark keeper with it.
 */
final class ConnectionRunner {

	/** Work to do on a connection. */
	@FunctionalInterface
	interface SqlWork<T> {

		T run(Connection connection) throws SQLException;

	}

	private final DataSource dataSource;

	private final int networkTimeoutMillis;

	/**
	 * Creates a runner.
	 * @param dataSource the database
	 * @param networkTimeout how long any one database round trip may take
	 */
	ConnectionRunner(DataSource dataSource, Duration networkTimeout) {
		this.dataSource = dataSource;
		this.networkTimeoutMillis = (int) Math.min(Integer.MAX_VALUE, Math.max(1, networkTimeout.toMillis()));
	}

	/**
	 * Runs the work in one READ COMMITTED transaction, committed on return and rolled back on failure.
	 * @throws WorkerStoreUnavailableException when no connection can be had
	 * @throws SQLException from the work
	 */
	<T> T inTransaction(SqlWork<T> work) throws SQLException {
		return withConnection((connection) -> {
			boolean autoCommit = connection.getAutoCommit();
			int isolation = connection.getTransactionIsolation();
			try {
				connection.setAutoCommit(false);
				connection.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
				return runAndCommit(connection, work);
			}
			finally {
				restore(connection, autoCommit, isolation);
			}
		});
	}

	/**
	 * Runs the work with auto-commit, for single statements.
	 * @throws WorkerStoreUnavailableException when no connection can be had
	 * @throws SQLException from the work
	 */
	<T> T autoCommit(SqlWork<T> work) throws SQLException {
		return withConnection((connection) -> {
			if (connection.getAutoCommit()) {
				return work.run(connection);
			}
			// A pool may hand out connections without auto-commit; commit explicitly then.
			return runAndCommit(connection, work);
		});
	}

	/** Runs the work on a connection whose round trips are bounded, then gives the connection back as it was. */
	private <T> T withConnection(SqlWork<T> work) throws SQLException {
		try (Connection connection = connect()) {
			int previous = boundNetworkTimeout(connection);
			try {
				return work.run(connection);
			}
			finally {
				if (previous >= 0) {
					restoreNetworkTimeout(connection, previous);
				}
			}
		}
	}

	/** Sets this runner's network timeout; returns the previous one, or -1 when the driver has none. */
	private int boundNetworkTimeout(Connection connection) {
		try {
			int previous = connection.getNetworkTimeout();
			connection.setNetworkTimeout(Runnable::run, this.networkTimeoutMillis);
			return previous;
		}
		catch (SQLException | UnsupportedOperationException | AbstractMethodError ex) {
			return -1;
		}
	}

	private static void restoreNetworkTimeout(Connection connection, int previous) {
		try {
			connection.setNetworkTimeout(Runnable::run, previous);
		}
		catch (SQLException ignored) {
			// A broken connection is discarded by the pool on close.
		}
	}

	/** Runs the work and commits, or rolls back when it fails. */
	private static <T> T runAndCommit(Connection connection, SqlWork<T> work) throws SQLException {
		try {
			T result = work.run(connection);
			connection.commit();
			return result;
		}
		catch (SQLException | RuntimeException ex) {
			rollbackQuietly(connection, ex);
			throw ex;
		}
	}

	private Connection connect() {
		try {
			return this.dataSource.getConnection();
		}
		catch (SQLException | RuntimeException ex) {
			// Pools report a database that is down at their first use with runtime exceptions of their own.
			throw unavailable(ex);
		}
	}

	static WorkerStoreUnavailableException unavailable(Exception ex) {
		return new WorkerStoreUnavailableException("Cannot reach the database that hands out uid worker IDs ("
				+ ex.getMessage() + "); check that it runs and that the DataSource URL and credentials are right.", ex);
	}

	private static void rollbackQuietly(Connection connection, Exception cause) {
		try {
			connection.rollback();
		}
		catch (SQLException ex) {
			cause.addSuppressed(ex);
		}
	}

	private static void restore(Connection connection, boolean autoCommit, int isolation) {
		try {
			connection.setTransactionIsolation(isolation);
			connection.setAutoCommit(autoCommit);
		}
		catch (SQLException ignored) {
			// A broken connection is discarded by the pool on close.
		}
	}

}
