package io.github.uidgen.worker.jdbc;

import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import io.github.uidgen.worker.AbstractLeaseBuilder;
import io.github.uidgen.worker.HostEnvironment;
import io.github.uidgen.worker.LeaseSettings;
import io.github.uidgen.worker.WorkerAssignment;
import io.github.uidgen.worker.WorkerAssignmentException;
import io.github.uidgen.worker.WorkerIdAssigner;
import io.github.uidgen.worker.WorkerIdOutOfRangeException;
import io.github.uidgen.worker.WorkerLeaseLostException;
import io.github.uidgen.worker.WorkerTableMissingException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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

	private static final Logger logger = LoggerFactory.getLogger(JdbcWorkerIdAssigner.class);

	/** Enough for dozens of instances starting in the same instant, each round taking one free ID. */
	private static final int MAX_CLAIM_ATTEMPTS = 100;

	private static final int MAX_INSTANCE_ID_LENGTH = 255;

	private final ConnectionRunner runner;

	private final Mode mode;

	private final String leaseTableName;

	private final String workerNodeTableName;

	private final LeaseSettings lease;

	private final String hostName;

	private final String port;

	private final boolean initializeSchema;

	private final boolean container;

	/** The token of each lease this assigner holds; a renewal only matches with it. */
	private final Map<Long, String> tokens = new ConcurrentHashMap<>();

	private volatile SqlDialect dialect;

	private volatile LeaseTable leaseTable;

	private JdbcWorkerIdAssigner(Builder builder, LeaseSettings lease) {
		this.runner = new ConnectionRunner(builder.dataSource);
		this.mode = builder.mode;
		this.leaseTableName = builder.leaseTable;
		this.workerNodeTableName = builder.workerNodeTable;
		this.lease = lease;
		HostEnvironment host = HostEnvironment.current();
		this.hostName = (builder.hostName != null) ? builder.hostName : host.hostName();
		this.port = lease.port();
		this.initializeSchema = builder.initializeSchema;
		this.container = host.isContainer();
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
		SqlDialect current = prepare();
		return (this.mode == Mode.DISPOSABLE) ? insertWorkerNode(current, maxWorkerId)
				: claimLease(current, maxWorkerId);
	}

	@Override
	public void renew(long workerId, long highWaterMarkMillis) {
		if (this.mode == Mode.DISPOSABLE) {
			// A disposable worker ID is never handed out again, so its mark protects nothing.
			return;
		}
		String token = this.tokens.get(workerId);
		if (token == null) {
			throw new WorkerLeaseLostException(workerId, "this assigner holds no lease on it");
		}
		LeaseTable table = leaseTable(this.dialect);
		boolean held;
		try {
			held = this.runner.autoCommit((connection) -> table.renew(connection, workerId,
					this.lease.instanceId(), token, highWaterMarkMillis, micros(this.lease.leaseDuration())));
		}
		catch (SQLException ex) {
			throw translate(ex, table.table(), DEFAULT_LEASE_TABLE);
		}
		if (!held) {
			this.tokens.remove(workerId, token);
			throw new WorkerLeaseLostException(workerId, lostDetail(table, workerId));
		}
	}

	@Override
	public void release(long workerId, long highWaterMarkMillis) {
		if (this.mode == Mode.DISPOSABLE) {
			return;
		}
		String token = this.tokens.remove(workerId);
		if (token == null) {
			return;
		}
		LeaseTable table = leaseTable(this.dialect);
		try {
			boolean held = this.runner.autoCommit((connection) -> table.release(connection, workerId,
					this.lease.instanceId(), token, highWaterMarkMillis));
			if (held) {
				logger.info("uid worker ID {} released in {}", workerId, table.table());
			}
			else {
				logger.warn("uid worker ID {} was no longer leased by this instance at release", workerId);
			}
		}
		catch (SQLException ex) {
			throw translate(ex, table.table(), DEFAULT_LEASE_TABLE);
		}
	}

	@Override
	public Duration renewInterval() {
		return (this.mode == Mode.LEASE) ? this.lease.heartbeatInterval() : Duration.ZERO;
	}

	@Override
	public String name() {
		return "db";
	}

	/** Detects the database once and creates the table when asked to. */
	private SqlDialect prepare() {
		SqlDialect current = this.dialect;
		if (current != null) {
			return current;
		}
		synchronized (this) {
			if (this.dialect != null) {
				return this.dialect;
			}
			try {
				current = this.runner.autoCommit(SqlDialect::of);
				if (this.initializeSchema) {
					String ddl = (this.mode == Mode.LEASE)
							? SchemaScript.createTable(current, DEFAULT_LEASE_TABLE, this.leaseTableName)
							: SchemaScript.createTable(current, DEFAULT_WORKER_NODE_TABLE, this.workerNodeTableName);
					createTable(ddl);
				}
			}
			catch (SQLException ex) {
				throw (SqlFailures.isConnectionFailure(ex)) ? ConnectionRunner.unavailable(ex)
						: new WorkerAssignmentException("Cannot prepare the uid worker ID tables: " + ex.getMessage(),
								ex);
			}
			this.dialect = current;
			return current;
		}
	}

	/**
	 * Runs {@code CREATE TABLE IF NOT EXISTS}, once more after a failure: instances starting together race to
	 * create the table, and PostgreSQL lets the loser fail even with {@code IF NOT EXISTS}.
	 */
	private void createTable(String ddl) throws SQLException {
		ConnectionRunner.SqlWork<Boolean> create = (connection) -> {
			try (Statement statement = connection.createStatement()) {
				return statement.execute(ddl);
			}
		};
		try {
			this.runner.autoCommit(create);
		}
		catch (SQLException ex) {
			if (SqlFailures.isConnectionFailure(ex)) {
				throw ex;
			}
			backOff(5);
			this.runner.autoCommit(create);
		}
	}

	private WorkerAssignment claimLease(SqlDialect current, long maxWorkerId) {
		LeaseTable table = leaseTable(current);
		long leaseMicros = micros(this.lease.leaseDuration());
		SQLException lastContention = null;
		for (int attempt = 1; attempt <= MAX_CLAIM_ATTEMPTS; attempt++) {
			String token = UUID.randomUUID().toString();
			LeaseTable.Claim claim;
			try {
				claim = this.runner.inTransaction((connection) -> table.tryClaim(connection, maxWorkerId,
						this.lease.instanceId(), token, this.hostName, this.port, leaseMicros));
			}
			catch (SQLException ex) {
				if (!SqlFailures.isContention(ex)) {
					throw translate(ex, table.table(), DEFAULT_LEASE_TABLE);
				}
				lastContention = ex;
				backOff(attempt);
				continue;
			}
			if (claim == LeaseTable.Claim.RACED) {
				backOff(attempt);
				continue;
			}
			if (claim == LeaseTable.Claim.FULL) {
				throw full(table, maxWorkerId);
			}
			this.tokens.put(claim.workerId(), token);
			WorkerAssignment assignment = new WorkerAssignment(claim.workerId(), claim.highWaterMarkMillis());
			logger.info("uid worker ID {} leased from {} for instance '{}' ({}, lease {})", claim.workerId(),
					table.table(), this.lease.instanceId(), describeMark(assignment), this.lease.leaseDuration());
			return assignment;
		}
		throw new WorkerAssignmentException("Could not claim a uid worker ID from " + table.table() + " in "
				+ MAX_CLAIM_ATTEMPTS + " attempts: too many instances claimed at the same moment. Start again.",
				lastContention);
	}

	private WorkerIdOutOfRangeException full(LeaseTable table, long maxWorkerId) {
		long live;
		try {
			live = this.runner.autoCommit((connection) -> table.liveLeases(connection, maxWorkerId));
		}
		catch (SQLException ex) {
			live = maxWorkerId + 1;
		}
		return this.lease.allTaken(maxWorkerId, live + " live leases in " + table.table());
	}

	private WorkerAssignment insertWorkerNode(SqlDialect current, long maxWorkerId) {
		WorkerNodeTable table = new WorkerNodeTable(current, this.workerNodeTableName);
		String nodePort = (this.port != null) ? this.port : "pid" + HostEnvironment.current().processId();
		long id;
		try {
			id = this.runner.autoCommit((connection) -> table.insert(connection, this.hostName, nodePort,
					this.container));
		}
		catch (SQLException ex) {
			throw translate(ex, table.table(), DEFAULT_WORKER_NODE_TABLE);
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

	private String lostDetail(LeaseTable table, long workerId) {
		try {
			LeaseTable.Holder holder = this.runner.autoCommit((connection) -> table.holder(connection, workerId));
			if (holder == null) {
				return "its row in " + table.table() + " is gone";
			}
			if (holder.released()) {
				return "it was released";
			}
			return "the lease expired and instance '" + holder.instanceId() + "' holds it now";
		}
		catch (SQLException | RuntimeException ex) {
			return "the lease is no longer this instance's";
		}
	}

	private LeaseTable leaseTable(SqlDialect current) {
		LeaseTable table = this.leaseTable;
		if (table == null) {
			table = new LeaseTable((current != null) ? current : prepare(), this.leaseTableName);
			this.leaseTable = table;
		}
		return table;
	}

	private RuntimeException translate(SQLException ex, String table, String defaultTable) {
		if (SqlFailures.isConnectionFailure(ex)) {
			return ConnectionRunner.unavailable(ex);
		}
		if (SqlFailures.isTableMissing(ex)) {
			return new WorkerTableMissingException(table, SchemaScript.createTable(this.dialect, defaultTable, table)
					+ ";", ex);
		}
		return new WorkerAssignmentException("The uid worker ID table " + table + " could not be used: "
				+ ex.getMessage(), ex);
	}

	private static void backOff(int attempt) {
		try {
			Thread.sleep(ThreadLocalRandom.current().nextLong(1, Math.min(50, 2L * attempt + 3)));
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new WorkerAssignmentException("Interrupted while claiming a uid worker ID", ex);
		}
	}

	private static long micros(Duration duration) {
		return TimeUnit.NANOSECONDS.toMicros(duration.toNanos());
	}

	private static String describeMark(WorkerAssignment assignment) {
		return assignment.hasMark() ? "mark " + Instant.ofEpochMilli(assignment.highWaterMarkMillis()) : "no mark";
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
		return this.port;
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
