package io.github.uidgen.worker.jdbc;

import java.sql.SQLException;
import java.time.Duration;

import io.github.uidgen.worker.HostEnvironment;
import io.github.uidgen.worker.WorkerAssignment;
import io.github.uidgen.worker.WorkerIdAssigner;
import io.github.uidgen.worker.WorkerIdOutOfRangeException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link JdbcWorkerIdAssigner.Mode#DISPOSABLE}: a new row in the {@code WORKER_NODE} table at every start, whose
 * generated {@code ID} is the worker ID. Nothing is renewed or released: the ID is never handed out again, so its
 * mark protects nothing.
 */
final class DisposableModeAssigner implements WorkerIdAssigner {

	private static final Logger logger = LoggerFactory.getLogger(JdbcWorkerIdAssigner.class);

	private final JdbcStore store;

	private final String hostName;

	private final String port;

	private final boolean container;

	DisposableModeAssigner(JdbcStore store, String hostName, String port, boolean container) {
		this.store = store;
		this.hostName = hostName;
		this.port = port;
		this.container = container;
	}

	/**
	 * Inserts this start's row and uses its ID, in one transaction that is rolled back when the ID does not fit
	 * the layout: a refused start leaves no row behind. (The database's counter still moves on, but every later ID
	 * is larger still, so nothing usable is lost.)
	 */
	@Override
	public WorkerAssignment assign(long maxWorkerId) {
		WorkerNodeTable table = new WorkerNodeTable(this.store.dialect(), this.store.table());
		String nodePort = (this.port != null) ? this.port : "pid" + HostEnvironment.current().processId();
		long id;
		try {
			id = this.store.runner().inTransaction((connection) -> {
				long inserted = table.insert(connection, this.hostName, nodePort, this.container);
				if (inserted > maxWorkerId) {
					throw outOfRange(table, inserted, maxWorkerId);
				}
				return inserted;
			});
		}
		catch (SQLException ex) {
			throw this.store.translate(ex);
		}
		logger.info("uid worker ID {} assigned by a new row in {} (disposable mode, host {}, port {})", id,
				table.table(), this.hostName, nodePort);
		if (id > maxWorkerId - maxWorkerId / 10) {
			logger.warn("uid worker ID {} is within 10% of the largest the layout holds ({}): disposable mode uses up "
					+ "one worker ID per start, so starts will soon be refused. Give the layout more worker bits, or "
					+ "switch to lease mode, which reuses worker IDs.", id, maxWorkerId);
		}
		return WorkerAssignment.fresh(id);
	}

	private static WorkerIdOutOfRangeException outOfRange(WorkerNodeTable table, long id, long maxWorkerId) {
		return new WorkerIdOutOfRangeException(id, maxWorkerId, table.table() + " would hand out worker ID " + id
				+ ", one per start and never reused; the start is refused and its row rolled back. Give the layout "
				+ "more worker bits, or switch to lease mode, which reuses worker IDs.");
	}

	@Override
	public void renew(long workerId, long highWaterMarkMillis) {
	}

	@Override
	public void release(long workerId, long highWaterMarkMillis) {
	}

	@Override
	public Duration renewInterval() {
		return Duration.ZERO;
	}

	@Override
	public String name() {
		return "db";
	}

}
