package io.github.uidgen.worker.jdbc;

import java.time.Duration;
import java.util.Objects;

import javax.sql.DataSource;

import io.github.uidgen.worker.AbstractLeaseBuilder;
import io.github.uidgen.worker.HostEnvironment;
import io.github.uidgen.worker.LeaseSettings;
import io.github.uidgen.worker.WorkerAssignment;
import io.github.uidgen.worker.WorkerIdAssigner;
import io.github.uidgen.worker.WorkerIdOutOfRangeException;
import io.github.uidgen.worker.WorkerLeaseLostException;
import io.github.uidgen.worker.WorkerTableMissingException;

/**
 * Hands out worker IDs from a MySQL, MariaDB or PostgreSQL database, in one of two modes.
 *
 * <p><strong>{@link Mode#LEASE}</strong> (the default) reuses worker IDs, so a few worker bits last for ever. A
 * start claims this instance's previous worker ID if it is free, else the lowest released or expired one, else the
 * lowest never used; when every ID up to the layout's maximum is leased it fails with
 * {@link WorkerIdOutOfRangeException}. The lease is renewed by the generator's heartbeat and released on close; a
 * lease that is still live is never taken, not even by an instance with the same instance ID. Each row also holds
 * the worker's high-water mark, written ahead of issue, so whoever takes a worker ID next starts after every ID its
 * previous holder may have issued. Lease expiry is computed and compared by the <em>database's</em> clock, so
 * instances whose clocks disagree still agree on who holds what. A renewal is one conditional {@code UPDATE} that
 * only matches while the claim (worker ID, instance ID and a per-claim token) still holds the lease: an instance
 * that lost its lease gets {@link WorkerLeaseLostException} and can never overwrite the next holder's mark, and
 * marks never decrease.
 *
 * <p><strong>{@link Mode#DISPOSABLE}</strong> inserts a row per start into the reference UidGenerator's
 * {@code WORKER_NODE} table and uses the generated {@code ID}: never reused, so every start uses up one worker ID,
 * and the layout must hold as many as there will ever be starts.
 *
 * <p>Table names are configurable and checked to be plain identifiers. A missing table fails with
 * {@link WorkerTableMissingException} carrying the DDL to run (shipped as {@code schema-mysql.sql} and
 * {@code schema-postgresql.sql} next to this class), unless schema initialisation is on; an unreachable database
 * fails with {@link io.github.uidgen.worker.WorkerStoreUnavailableException}. The assigner runs its statements on
 * connections and transactions of its own, outside any transaction of the caller.
 */
public final class JdbcWorkerIdAssigner implements WorkerIdAssigner {

	/** How worker IDs are handed out. */
	public enum Mode {

		/** Reusable worker IDs under a renewed lease, with the high-water mark stored beside them. */
		LEASE,

		/** A new row, and so a new worker ID, in the {@code WORKER_NODE} table at every start. */
		DISPOSABLE

	}

	/** Default lease table. */
	public static final String DEFAULT_LEASE_TABLE = SchemaScript.DEFAULT_LEASE_TABLE;

	/** Default disposable-mode table, the reference's. */
	public static final String DEFAULT_WORKER_NODE_TABLE = SchemaScript.DEFAULT_WORKER_NODE_TABLE;

	/** Default lease duration. */
	public static final Duration DEFAULT_LEASE_DURATION = LeaseSettings.DEFAULT_LEASE_DURATION;

	private static final int MAX_INSTANCE_ID_LENGTH = 255;

	private final Mode mode;

	private final String leaseTableName;

	private final String workerNodeTableName;

	private final LeaseSettings lease;

	private final String hostName;

	private final boolean initializeSchema;

	/** The mode at work; this class holds the configuration. */
	private final WorkerIdAssigner modeAssigner;

	private JdbcWorkerIdAssigner(Builder builder, LeaseSettings lease) {
		this.mode = builder.mode;
		this.leaseTableName = builder.leaseTable;
		this.workerNodeTableName = builder.workerNodeTable;
		this.lease = lease;
		HostEnvironment host = HostEnvironment.current();
		this.hostName = (builder.hostName != null) ? builder.hostName : host.hostName();
		this.initializeSchema = builder.initializeSchema;
		if (this.mode == Mode.LEASE) {
			JdbcStore store = new JdbcStore(builder.dataSource, DEFAULT_LEASE_TABLE, this.leaseTableName,
					this.initializeSchema, lease.heartbeatInterval());
			this.modeAssigner = new LeaseModeAssigner(store, lease, this.hostName);
		}
		else {
			JdbcStore store = new JdbcStore(builder.dataSource, DEFAULT_WORKER_NODE_TABLE, this.workerNodeTableName,
					this.initializeSchema, lease.heartbeatInterval());
			this.modeAssigner = new DisposableModeAssigner(store, this.hostName, lease.port(), host.isContainer());
		}
	}

	/**
	 * Starts building an assigner on a data source.
	 * @param dataSource the database holding the tables
	 * @return a builder
	 */
	public static Builder builder(DataSource dataSource) {
		return new Builder(dataSource);
	}

	@Override
	public WorkerAssignment assign(long maxWorkerId) {
		return this.modeAssigner.assign(maxWorkerId);
	}

	@Override
	public WorkerAssignment assign(long maxWorkerId, Duration maxMarkLead) {
		return this.modeAssigner.assign(maxWorkerId, maxMarkLead);
	}

	@Override
	public void renew(long workerId, long highWaterMarkMillis) {
		this.modeAssigner.renew(workerId, highWaterMarkMillis);
	}

	@Override
	public void release(long workerId, long highWaterMarkMillis) {
		this.modeAssigner.release(workerId, highWaterMarkMillis);
	}

	@Override
	public Duration renewInterval() {
		return this.modeAssigner.renewInterval();
	}

	@Override
	public String name() {
		return "db";
	}

	public Mode getMode() {
		return this.mode;
	}

	public String getLeaseTable() {
		return this.leaseTableName;
	}

	public String getWorkerNodeTable() {
		return this.workerNodeTableName;
	}

	public Duration getLeaseDuration() {
		return this.lease.leaseDuration();
	}

	public Duration getHeartbeatInterval() {
		return this.lease.heartbeatInterval();
	}

	public String getInstanceId() {
		return this.lease.instanceId();
	}

	public String getHostName() {
		return this.hostName;
	}

	public String getPort() {
		return this.lease.port();
	}

	public boolean isInitializeSchema() {
		return this.initializeSchema;
	}

	@Override
	public String toString() {
		return "JdbcWorkerIdAssigner[" + this.mode.name().toLowerCase() + ", table "
				+ ((this.mode == Mode.LEASE) ? this.leaseTableName : this.workerNodeTableName) + ", instance '"
				+ this.lease.instanceId() + "']";
	}

	/**
	 * Builds a {@link JdbcWorkerIdAssigner}; settings left unset (or set to {@code null}) keep their defaults.
	 */
	public static final class Builder extends AbstractLeaseBuilder<Builder> {

		private final DataSource dataSource;

		private Mode mode = Mode.LEASE;

		private String leaseTable = DEFAULT_LEASE_TABLE;

		private String workerNodeTable = DEFAULT_WORKER_NODE_TABLE;

		private String hostName;

		private boolean initializeSchema;

		private Builder(DataSource dataSource) {
			super(MAX_INSTANCE_ID_LENGTH);
			this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
		}

		/**
		 * Sets how worker IDs are handed out; {@link Mode#LEASE} by default.
		 * @param mode the mode
		 * @return this builder
		 */
		public Builder mode(Mode mode) {
			if (mode != null) {
				this.mode = mode;
			}
			return this;
		}

		/**
		 * Sets the disposable-mode table; {@value #DEFAULT_WORKER_NODE_TABLE} by default.
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
		 * Sets the lease-mode table; {@value #DEFAULT_LEASE_TABLE} by default.
		 * @param leaseTable a table name, optionally schema-qualified
		 * @return this builder
		 */
		public Builder leaseTable(String leaseTable) {
			if (leaseTable != null) {
				this.leaseTable = TableName.require("leaseTable", leaseTable);
			}
			return this;
		}

		/**
		 * Sets the host name recorded with the worker ID; detected by default.
		 * @param hostName the host name
		 * @return this builder
		 */
		public Builder hostName(String hostName) {
			this.hostName = (hostName == null || hostName.isBlank()) ? null : hostName.trim();
			return this;
		}

		/**
		 * Sets whether the table of the chosen mode is created at start when missing; off by default.
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
		public JdbcWorkerIdAssigner build() {
			return new JdbcWorkerIdAssigner(this, leaseSettings());
		}

	}

}
