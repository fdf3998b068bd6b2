package io.github.uidgen.worker.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

import javax.sql.DataSource;

import org.springframework.jdbc.datasource.DelegatingDataSource;

/**
 * The application's pool, and beside it a data source that opens connections to the same database without the pool,
 * which a db assigner uses while the pool cannot hand out connections: from a call whose connection the pool failed to
 * give until the pool gives one again, and while a call has been waiting for the pool's connection for longer than
 * the bound on a round trip. A pool that lost its connections in an outage connects again only at its next retry
 * (HikariCP's come up to 5 s apart once an outage has gone on for seconds); a connection of its own, opened for the
 * call, reaches the database as soon as it answers again.
 *
 * <p>Calls go back to the pool once it hands out connections: the calls still waiting for it get theirs, or, when
 * none waits (they failed), a probe on a thread of its own asks the pool for a connection once the database answers a
 * direct one, so that no call waits for a pool that has not connected yet. Only which connection a call runs on
 * changes: each call is the same statements, committed the same way.
 */
final class PoolOrDirectDataSource extends DelegatingDataSource {

	private final DataSource direct;

	private final long stalledNanos;

	/** When each call now waiting for a connection of the pool started to wait, by {@link System#nanoTime()}. */
	private final Set<long[]> waiting = ConcurrentHashMap.newKeySet();

	private final AtomicBoolean probing = new AtomicBoolean();

	private volatile boolean poolFailed;

	/**
	 * Puts a data source beside a pool.
	 * @param pool the application's data source
	 * @param direct connections to the same database, opened for each call
	 * @param stalled how long a call may wait for the pool's connection before later calls open their own
	 */
	PoolOrDirectDataSource(DataSource pool, DataSource direct, Duration stalled) {
		super(pool);
		this.direct = direct;
		this.stalledNanos = stalled.toNanos();
	}

	@Override
	public Connection getConnection() throws SQLException {
		if (this.poolFailed || this.probing.get() || poolStalled()) {
			Connection connection = this.direct.getConnection();
			if (this.poolFailed && this.probing.compareAndSet(false, true)) {
				// The database answers: find out, without holding up a call, when the pool does again.
				startProbe();
			}
			return connection;
		}
		return fromPool();
	}

	private Connection fromPool() throws SQLException {
		long[] since = { System.nanoTime() };
		this.waiting.add(since);
		try {
			Connection connection = obtainTargetDataSource().getConnection();
			this.poolFailed = false;
			return connection;
		}
		catch (SQLException | RuntimeException ex) {
			this.poolFailed = true;
			throw ex;
		}
		finally {
			this.waiting.remove(since);
		}
	}

	/** Asks the pool for a connection and gives it back; it ends when the pool answers, by the pool's own timeout. */
	private void startProbe() {
		Thread probe = new Thread(() -> {
			try {
				fromPool().close();
			}
			catch (SQLException | RuntimeException ex) {
				// Still failing: the next direct connection starts another probe.
			}
			finally {
				this.probing.set(false);
			}
		}, "uid-db-pool-probe");
		probe.setDaemon(true);
		try {
			probe.start();
		}
		catch (RuntimeException | Error ex) {
			this.probing.set(false);
			throw ex;
		}
	}

	private boolean poolStalled() {
		long now = System.nanoTime();
		for (long[] since : this.waiting) {
			if (now - since[0] > this.stalledNanos) {
				return true;
			}
		}
		return false;
	}

}
