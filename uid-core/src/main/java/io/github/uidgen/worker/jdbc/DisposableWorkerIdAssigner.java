package io.github.uidgen.worker.jdbc;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

import javax.sql.DataSource;

import io.github.uidgen.worker.WorkerAssignment;
import io.github.uidgen.worker.WorkerIdAssigner;
import io.github.uidgen.worker.WorkerIdOutOfRangeException;
import io.github.uidgen.worker.WorkerStoreUnavailableException;
import io.github.uidgen.worker.WorkerTableMissingException;
import io.github.uidgen.worker.fleet.WorkerFleet;
import io.github.uidgen.worker.support.HostEnvironment;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands out a new worker ID at every start, as the reference UidGenerator's assigner of the same name does: a new row
 * in its {@code WORKER_NODE} table (on MySQL, MariaDB or PostgreSQL), whose generated {@code ID} is the worker ID.
 *
 * <p>An ID is never handed out again, so nothing is renewed or released and no mark is kept; but every start uses
 * one up, and the layout must hold as many worker IDs as there will ever be starts. A start whose ID would not fit
 * fails with {@link WorkerIdOutOfRangeException} and leaves no row behind. The table has the reference's columns,
 * so an existing one keeps working.
 *
 * <p>The table name is configurable and checked to be a plain identifier. A missing table fails with
 * {@link WorkerTableMissingException} carrying the DDL to run, unless schema initialisation is on; an unreachable
 * database fails with {@link WorkerStoreUnavailableException}. The row is inserted in a transaction of the
 * assigner's own, committed before the call returns, whatever transaction the caller is in.
 *
 * @see JdbcLeaseWorkerIdAssigner
 */
public final class DisposableWorkerIdAssigner implements WorkerIdAssigner {

	/** Default table, the reference's. */
	public static final String DEFAULT_TABLE = SchemaScript.DEFAULT_WORKER_NODE_TABLE;

	/** How long any one database round trip may take. */
	private static final Duration ROUND_TRIP_TIMEOUT = Duration.ofSeconds(10);

	private static final Logger logger = LoggerFactory.getLogger(DisposableWorkerIdAssigner.class);

	private final JdbcStore store;

	private final String hostName;

	private final String port;

	private final boolean container;

	private final boolean initializeSchema;

	private DisposableWorkerIdAssigner(Builder builder) {
		HostEnvironment host = HostEnvironment.current();
		this.hostName = (builder.hostName != null) ? builder.hostName : host.hostName();
		this.port = builder.port;
		this.container = host.isContainer();
		this.initializeSchema = builder.initializeSchema;
		this.store = new JdbcStore(builder.dataSource, DEFAULT_TABLE, builder.workerNodeTable,
				builder.initializeSchema, ROUND_TRIP_TIMEOUT, "fixed for the disposable mode");
	}

	/**
	 * Starts building an assigner on a data source.
	 * @param dataSource the database holding the worker-node table
	 * @return a builder
	 */
	public static Builder builder(DataSource dataSource) {
		return new Builder(dataSource);
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
		long id = this.store.call((jdbc) -> {
			long inserted = table.insert(jdbc, this.hostName, nodePort, this.container);
			if (inserted > maxWorkerId) {
				throw outOfRange(table, inserted, maxWorkerId);
			}
			return inserted;
		});
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

	/** Nothing to renew: the ID is never handed out again, so its mark protects nothing. */
	@Override
	public void renew(long workerId, long highWaterMarkMillis) {
	}

	/** Nothing to release: the ID is never handed out again. */
	@Override
	public void release(long workerId, long highWaterMarkMillis) {
	}

	/**
	 * Reads the worker-node table, whose rows are both the fleet and its history: one start per worker ID, listed as
	 * held for ever; see {@link WorkerNodeFleet}.
	 */
	@Override
	public Optional<WorkerFleet> fleet() {
		return Optional.of(new WorkerNodeFleet(this.store, () -> new WorkerNodeTable(this.store.dialect(),
				this.store.table())));
	}

	@Override
	public Duration renewInterval() {
		return Duration.ZERO;
	}

	@Override
	public String name() {
		return "db";
	}

	public String getWorkerNodeTable() {
		return this.store.table();
	}

	public String getHostName() {
		return this.hostName;
	}

	public String getPort() {
		return this.port;
	}

	public boolean isInitializeSchema() {
		return this.initializeSchema;
	}

	@Override
	public String toString() {
		return "DisposableWorkerIdAssigner[table " + this.store.table() + "]";
	}

	/**
	 * Builds a {@link DisposableWorkerIdAssigner}; settings left unset (or set to {@code null}) keep their defaults.
	 */
	public static final class Builder {

		private final DataSource dataSource;

		private String workerNodeTable = DEFAULT_TABLE;

		private String hostName;

		private String port;

		private boolean initializeSchema;

		private Builder(DataSource dataSource) {
			this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
		}

		/**
		 * Sets the worker-node table; {@value DisposableWorkerIdAssigner#DEFAULT_TABLE} by default.
		 * @param workerNodeTable a table name, optionally schema-qualified
		 * @return this builder
		 */
		public Builder workerNodeTable(String workerNodeTable) {
			if (workerNodeTable != null) {
				this.workerNodeTable = TableName.require("workerNodeTable", workerNodeTable);
			}
			return this;
		}

		/**
		 * Sets the host name recorded in the row; detected by default.
		 * @param hostName the host name
		 * @return this builder
		 */
		public Builder hostName(String hostName) {
			this.hostName = (hostName == null || hostName.isBlank()) ? null : hostName.trim();
			return this;
		}

		/**
		 * Sets the port recorded in the row; {@code pid<n>} (this process's ID) by default.
		 * @param port the port the application serves on
		 * @return this builder
		 */
		public Builder port(String port) {
			this.port = (port == null || port.isBlank()) ? null : port.trim();
			return this;
		}

		/**
		 * Sets whether the worker-node table is created at start when missing; off by default.
		 * @param initializeSchema whether to run the shipped DDL
		 * @return this builder
		 */
		public Builder initializeSchema(boolean initializeSchema) {
			this.initializeSchema = initializeSchema;
			return this;
		}

		/**
		 * Builds the assigner; it connects to the database only when a worker ID is claimed.
		 * @return the assigner
		 */
		public DisposableWorkerIdAssigner build() {
			return new DisposableWorkerIdAssigner(this);
		}

	}

}
