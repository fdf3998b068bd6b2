package io.github.uidgen.worker.jdbc;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;

import javax.sql.DataSource;

import org.springframework.jdbc.datasource.ConnectionProxy;
import org.springframework.jdbc.datasource.DelegatingDataSource;

/**
 * The application's data source as a db assigner sees it: every database round trip on a connection it hands out
 * carries a network timeout, from the moment the connection is taken until it is closed, when the connection's own
 * timeout is restored before it goes back to the pool. A statement on a database that stopped answering (paused, or
 * cut off without a reset) then fails within that time instead of waiting on the socket for ever (MySQL
 * Connector/J's default) and holding the mark keeper with it.
 *
 * <p>The timeout is set as the connection is taken, not when its transaction is prepared, because beginning a
 * transaction already talks to the database (switching auto-commit off).
 */
final class BoundedRoundTripDataSource extends DelegatingDataSource {

	private final int networkTimeoutMillis;

	/**
	 * Wraps a data source.
	 * @param dataSource the application's data source
	 * @param networkTimeout how long any one database round trip may take
	 */
	BoundedRoundTripDataSource(DataSource dataSource, Duration networkTimeout) {
		super(dataSource);
		this.networkTimeoutMillis = (int) Math.min(Integer.MAX_VALUE, Math.max(1, networkTimeout.toMillis()));
	}

	@Override
	public Connection getConnection() throws SQLException {
		return bounded(obtainTargetDataSource().getConnection());
	}

	@Override
	public Connection getConnection(String username, String password) throws SQLException {
		return bounded(obtainTargetDataSource().getConnection(username, password));
	}

	private Connection bounded(Connection connection) {
		int previous;
		try {
			previous = connection.getNetworkTimeout();
			connection.setNetworkTimeout(Runnable::run, this.networkTimeoutMillis);
		}
		catch (SQLException | UnsupportedOperationException | AbstractMethodError ex) {
			// A driver without network timeouts: round trips stay bounded by the driver's own settings only.
			return connection;
		}
		return (Connection) Proxy.newProxyInstance(ConnectionProxy.class.getClassLoader(),
				new Class<?>[] { ConnectionProxy.class }, new RestoringOnClose(connection, previous));
	}

	/** Passes every call to the connection, and restores its network timeout when it is closed. */
	private static final class RestoringOnClose implements InvocationHandler {

		private final Connection target;

		private final int previousNetworkTimeout;

		private boolean closed;

		RestoringOnClose(Connection target, int previousNetworkTimeout) {
			this.target = target;
			this.previousNetworkTimeout = previousNetworkTimeout;
		}

		@Override
		public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
			switch (method.getName()) {
				case "equals":
					return proxy == args[0];
				case "hashCode":
					return System.identityHashCode(proxy);
				case "getTargetConnection":
					return this.target;
				case "close":
					close();
					return null;
				default:
					try {
						return method.invoke(this.target, args);
					}
					catch (InvocationTargetException ex) {
						throw ex.getTargetException();
					}
			}
		}

		private void close() throws SQLException {
			if (this.closed) {
				return;
			}
			this.closed = true;
			try {
				this.target.setNetworkTimeout(Runnable::run, this.previousNetworkTimeout);
			}
			catch (SQLException ex) {
				// A broken connection is discarded by the pool on close.
			}
			this.target.close();
		}

	}

}
