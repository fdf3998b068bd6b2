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

	@Override
	public WorkerAssignment assign(long maxWorkerId) {
		WorkerNodeTable table = new WorkerNodeTable(this.store.dialect(), this.store.table());
		String nodePort = (this.port != null) ? this.port : "pid" + HostEnvironment.current().processId();
		long id;
		try {
			id = this.store.runner()
				.autoCommit((connection) -> table.insert(connection, this.hostName, nodePort, this.container));
		}
		catch (SQLException ex) {
			throw this.store.translate(ex);
		}
		if (id > maxWorkerId) {
			throw new WorkerIdOutOfRangeException(id, maxWorkerId, table.table() + " has handed out " + id
					+ " worker IDs, one per start and never reused. Give the layout more worker bits, or switch to "
					+ "lease mode, which reuses worker IDs.");
		}
		logger.info("uid worker ID {} assigned by a new row in {} (disposable mode, host {}, port {})", id,
				table.table(), this.hostName, nodePort);
		return WorkerAssignment.fresh(id);
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
