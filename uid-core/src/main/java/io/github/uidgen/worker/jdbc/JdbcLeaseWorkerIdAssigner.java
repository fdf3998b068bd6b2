package io.github.uidgen.worker.jdbc;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import io.github.uidgen.UidLayout;
import io.github.uidgen.worker.AbstractLeaseBuilder;
import io.github.uidgen.worker.WorkerAssignment;
import io.github.uidgen.worker.WorkerAssignmentException;
import io.github.uidgen.worker.WorkerIdAssigner;
import io.github.uidgen.worker.WorkerIdOutOfRangeException;
import io.github.uidgen.worker.WorkerLeaseLostException;
import io.github.uidgen.worker.RecordedLayout;
import io.github.uidgen.worker.WorkerStoreUnavailableException;
import io.github.uidgen.worker.WorkerTableMissingException;
import io.github.uidgen.worker.fleet.WorkerFleet;
import io.github.uidgen.worker.support.ClaimBackOff;
import io.github.uidgen.worker.support.HostEnvironment;
import io.github.uidgen.worker.support.LeaseSettings;
import io.github.uidgen.worker.support.LeaseTokens;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.dao.ConcurrencyFailureException;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * Leases reusable worker IDs from a table in a MySQL, MariaDB or PostgreSQL database, so a few worker bits last for
 * ever.
 *
 * <p>A start claims this instance's previous worker ID if it is free, else the lowest free one (released, expired,
 * or never leased: the start that records the table's layout makes the layout's worker IDs rows of their own), locked
 * as it is found while passing over rows that other claimants have locked, so that instances starting together each
 * take another in one statement; else the lowest without a row (after a race lost to another claimant, the first such
 * from a random worker ID on, so that they spread out instead of taking turns on one); when every ID up to the
 * layout's maximum is leased it fails with
 * {@link WorkerIdOutOfRangeException}. The lease is renewed by the generator's heartbeat and released on close; a
 * lease that is still live is never taken, not even by an instance with the same instance ID. Each row also holds
 * the worker's high-water mark, written ahead of issue, so whoever takes a worker ID next starts after every ID its
 * previous holder may have issued. Lease expiry is computed and compared by the <em>database's</em> clock, so
 * instances whose clocks disagree still agree on who holds what. A renewal is one conditional {@code UPDATE} that
 * only matches while the claim (worker ID, instance ID and a per-claim token) still holds the lease: an instance
 * that lost its lease gets {@link WorkerLeaseLostException} and can never overwrite the next holder's mark, and
 * marks never decrease.
 *
 * <p>Every claim is kept in a history table beside the lease table (its name with {@code _CLAIM} appended), written
 * in the claim's transaction, closed in the release's (or by the claim that finds the lease expired) and pruned to
 * the newest {@link AbstractLeaseBuilder#claimHistory(int)} claims of each worker ID in the claim's; {@link #fleet()}
 * reads both tables. Without the history table, and without schema initialisation, worker IDs are handed out as
 * before and no history is kept.
 *
 * <p>The table name is configurable and checked to be a plain identifier. A missing table fails with
 * {@link WorkerTableMissingException} carrying the DDL to run (shipped as {@code schema-mysql.sql} and
 * {@code schema-postgresql.sql} next to this class), unless schema initialisation is on; an unreachable database
 * fails with {@link WorkerStoreUnavailableException}. Every claim, release and read runs in a transaction of the
 * assigner's own, and every renewal is its one {@code UPDATE} committed on its own, without transaction statements
 * around it (at fleet scale renewals are most of what the database does for uid); either is committed before the call
 * returns, whatever transaction the caller is in, also on a pool that hands out connections with auto-commit off,
 * and every database round trip is bounded by a third of the lease (10 s by default), which leaves a claim or a
 * schema check at a crowded start the time it may need while a hung connection cannot hold a renewal for long.
 *
 * @see DisposableWorkerIdAssigner
 */
public final class JdbcLeaseWorkerIdAssigner implements WorkerIdAssigner {

	/** Default table. */
	public static final String DEFAULT_TABLE = SchemaScript.DEFAULT_LEASE_TABLE;

	private static final Logger logger = LoggerFactory.getLogger(JdbcLeaseWorkerIdAssigner.class);

	private static final int MAX_INSTANCE_ID_LENGTH = 255;

	/** How many times a start waits for another start's insert of the layout's row before it gives up. */
	private static final int LAYOUT_WAITS = 5;

	/** Enough for dozens of instances starting in the same instant, each round taking one free ID. */
	private static final int MAX_CLAIM_ATTEMPTS = 100;

	private final JdbcStore store;

	private final LeaseSettings lease;

	private final String hostName;

	private final boolean initializeSchema;

	private final LeaseTokens tokens = new LeaseTokens();

	private final RenewalTurns renewalTurns;

	private final String claimTable;

	private final DataSource directDataSource;

	private volatile LeaseTables tables;

	private JdbcLeaseWorkerIdAssigner(Builder builder, LeaseSettings lease) {
		this.lease = lease;
		this.hostName = (builder.hostName != null) ? builder.hostName : HostEnvironment.current().hostName();
		this.initializeSchema = builder.initializeSchema;
		this.claimTable = TableName.claimHistoryOf(builder.leaseTable);
		this.directDataSource = builder.directDataSource;
		Duration roundTrip = lease.leaseDuration().dividedBy(3);
		String roundTripSource = "a third of the lease duration, uid.worker.db.lease-duration";
		this.store = new JdbcStore(builder.dataSource, builder.directDataSource, DEFAULT_TABLE, builder.leaseTable,
				builder.initializeSchema, roundTrip, roundTripSource);
		this.renewalTurns = new RenewalTurns(roundTrip, roundTripSource);
	}

	/**
	 * Starts building an assigner on a data source.
	 * @param dataSource the database holding the lease table
	 * @return a builder
	 */
	public static Builder builder(DataSource dataSource) {
		return new Builder(dataSource);
	}

	/**
	 * Records the layout in a row of the lease table of its own (worker ID 2^62, the layout in {@code instance_id}),
	 * which no claim of this or an older version reads; the table needs no new column. A plain read first, one
	 * statement committed on its own, which takes no lock: once the layout is recorded, every start only reads it.
	 * Else an insert that does nothing when the row exists, then a read, in one transaction. The start that records
	 * it also makes the layout's worker IDs free rows (up to {@link LeaseTable#FREE_ROWS_AT_MOST}), so that claims of
	 * the same moment lock different rows instead of racing to insert the same new one. Of starts racing to record it
	 * first, the others' inserts wait for the first's commit (a second at most on MariaDB, then they try again,
	 * {@value #LAYOUT_WAITS} times in all) and find the row there.
	 */
	@Override
	public void recordLayout(UidLayout layout) {
		LeaseTable table = leaseTable();
		String own = RecordedLayout.of(layout);
		// One statement, without a transaction's seven around it, for every start but a new table's first.
		String recorded = this.store.callAlone(table::layout);
		for (int round = 1; recorded == null; round++) {
			try {
				recorded = this.store.inTransaction((jdbc) -> {
					String found = table.layout(jdbc);
					if (found != null) {
						return found;
					}
					if (table.insertLayoutIfAbsent(jdbc, own)) {
						long free = table.createFreeRows(jdbc, layout.getMaxWorkerId());
						logger.info("uid layout recorded in {}: {}; worker IDs 0 to {} made free rows", table.table(),
								own, free - 1);
					}
					return table.layout(jdbc);
				});
			}
			catch (ConcurrencyFailureException ex) {
				// Another first start is inserting the row, or the database broke a deadlock between them: read again.
				if (round == LAYOUT_WAITS) {
					throw new WorkerAssignmentException("The uid layout row of " + table.table() + " (worker_id "
							+ LeaseTable.LAYOUT_ROW + ") stayed locked by another start's uncommitted insert through "
							+ round + " attempts; is a session holding a transaction open on " + table.table() + "?",
							ex);
				}
			}
			catch (RuntimeException ex) {
				throw this.store.translate(ex);
			}
			if (recorded == null) {
				if (round == MAX_CLAIM_ATTEMPTS) {
					throw new WorkerAssignmentException("The uid layout row of " + table.table() + " was deleted "
							+ round + " times while it was being recorded; is something deleting rows of the table?");
				}
				ClaimBackOff.pause(round);
			}
		}
		RecordedLayout.check(recorded, layout, "table " + table.table(),
				"the row with worker_id " + LeaseTable.LAYOUT_ROW + " in " + table.table());
	}

	@Override
	public WorkerAssignment assign(long maxWorkerId) {
		return assign(maxWorkerId, LeaseSettings.DEFAULT_MAX_MARK_LEAD);
	}

	@Override
	public WorkerAssignment assign(long maxWorkerId, Duration maxMarkLead) {
		LeaseTable table = leaseTable();
		WorkerAssignment assignment = claim(table, maxWorkerId, (jdbc, startAt, token, leaseMicros) -> table.tryClaim(
				jdbc, maxWorkerId, startAt, this.lease.instanceId(), token, this.hostName, this.lease.port(),
				leaseMicros, maxMarkLead.toMillis()));
		if (assignment == null) {
			throw full(table, maxWorkerId);
		}
		logger.info("uid worker ID {} leased from {} for instance '{}' ({}, lease {})", assignment.workerId(),
				table.table(), this.lease.instanceId(), describeMark(assignment), this.lease.leaseDuration());
		return assignment;
	}

	@Override
	public Optional<WorkerAssignment> assignBehind(long maxWorkerId, long latestMarkMillis) {
		LeaseTable table = leaseTable();
		WorkerAssignment assignment = claim(table, maxWorkerId, (jdbc, startAt, token, leaseMicros) -> table
			.tryClaimBehind(jdbc, maxWorkerId, startAt, this.lease.instanceId(), token, this.hostName,
					this.lease.port(), leaseMicros, latestMarkMillis));
		if (assignment != null) {
			logger.info("uid worker ID {} leased from {} for instance '{}' as well, its mark behind {} ({})",
					assignment.workerId(), table.table(), this.lease.instanceId(),
					Instant.ofEpochMilli(latestMarkMillis), describeMark(assignment));
		}
		return Optional.ofNullable(assignment);
	}

	/** One attempt at a claim, in a transaction, from a start point, with the token it leases under. */
	@FunctionalInterface
	private interface ClaimAttempt {

		LeaseTable.Claim tryOnce(JdbcClient jdbc, long startAt, String token, long leaseMicros);

	}

	/**
	 * Runs claim attempts until one wins; returns {@code null} when there is nothing to claim. A claim is recorded
	 * in the history in its own transaction: a failure to record it fails the claim.
	 *
	 * <p>The first attempt searches from worker ID 0, so a claim that meets no other takes the lowest. Every
	 * attempt after a lost race starts its search at a random worker ID instead: claimants that start together all
	 * compute the same lowest one, and searching from there again made them take turns on it, one winner per round
	 * and every loser waiting on the winner's key lock (a fleet of 1,000 started at once ran its claims past the
	 * round trip's bound). Spread out, the next attempts rarely meet.
	 */
	private WorkerAssignment claim(LeaseTable table, long maxWorkerId, ClaimAttempt attempt) {
		ClaimTable claims = tables().claims();
		long leaseMicros = micros(this.lease.leaseDuration());
		RuntimeException lastContention = null;
		long startAt = 0;
		for (int round = 1; round <= MAX_CLAIM_ATTEMPTS; round++) {
			String token = LeaseTokens.newToken();
			long from = startAt;
			LeaseTable.Claim claim;
			try {
				claim = this.store.inTransaction((jdbc) -> {
					LeaseTable.Claim made = attempt.tryOnce(jdbc, from, token, leaseMicros);
					if (made.taken() && claims != null) {
						claims.recordClaim(jdbc, made, this.lease.instanceId(), this.hostName,
								this.lease.claimHistory());
					}
					return made;
				});
			}
			catch (DuplicateKeyException | ConcurrencyFailureException ex) {
				// Another claimant inserted the same worker ID first, or the database broke a deadlock: try again.
				lastContention = ex;
				startAt = randomStart(maxWorkerId);
				ClaimBackOff.pause(round);
				continue;
			}
			catch (RuntimeException ex) {
				throw this.store.translate(ex);
			}
			if (claim == LeaseTable.Claim.RACED) {
				startAt = randomStart(maxWorkerId);
				ClaimBackOff.pause(round);
				continue;
			}
			if (claim == LeaseTable.Claim.FULL) {
				return null;
			}
			this.tokens.hold(claim.workerId(), token);
			return new WorkerAssignment(claim.workerId(), claim.highWaterMarkMillis());
		}
		throw new WorkerAssignmentException("Could not claim a uid worker ID from " + table.table() + " in "
				+ MAX_CLAIM_ATTEMPTS + " attempts: too many instances claimed at the same moment. Start again.",
				lastContention);
	}

	@Override
	public void renew(long workerId, long highWaterMarkMillis) {
		String token = this.tokens.require(workerId);
		LeaseTable table = leaseTable();
		// One renewal of the worker ID at the database at a time, each on a connection of its own.
		boolean held = this.store.callAlone((jdbc) -> this.renewalTurns.inTurn(workerId, () -> table.renew(jdbc,
				workerId, this.lease.instanceId(), token, highWaterMarkMillis, micros(this.lease.leaseDuration()))));
		if (!held) {
			this.tokens.lost(workerId, token);
			throw new WorkerLeaseLostException(workerId, lostDetail(table, workerId));
		}
	}

	/** How many renewals of a worker ID wait for the one at the database to come back; see {@link RenewalTurns}. */
	int renewalsWaitingTheirTurn(long workerId) {
		return this.renewalTurns.waiting(workerId);
	}

	@Override
	public void release(long workerId, long highWaterMarkMillis) {
		String token = this.tokens.release(workerId);
		if (token == null) {
			return;
		}
		LeaseTable table = leaseTable();
		ClaimTable claims = tables().claims();
		boolean held = this.store.call((jdbc) -> {
			boolean released = table.release(jdbc, workerId, this.lease.instanceId(), token, highWaterMarkMillis);
			if (released && claims != null) {
				claims.recordRelease(jdbc, workerId);
			}
			return released;
		});
		if (held) {
			logger.info("uid worker ID {} released in {}", workerId, table.table());
		}
		else {
			logger.warn("uid worker ID {} was no longer leased by this instance at release", workerId);
		}
	}

	/**
	 * Reads the lease table and the claim history table; see {@link JdbcLeaseFleet}.
	 */
	@Override
	public Optional<WorkerFleet> fleet() {
		return Optional.of(new JdbcLeaseFleet(this.store, this::tables));
	}

	@Override
	public Duration renewInterval() {
		return this.lease.heartbeatInterval();
	}

	/**
	 * Returns the lease: the database lets nobody else take the worker ID before it runs out by the database's clock,
	 * and a claim of a lease that ran out starts after its expiry.
	 */
	@Override
	public Duration leaseHold() {
		return this.lease.leaseDuration();
	}

	@Override
	public String name() {
		return "db";
	}

	public String getLeaseTable() {
		return this.store.table();
	}

	public String getClaimTable() {
		return this.claimTable;
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

	/**
	 * Returns the connections to the database without the pool, used while the pool cannot hand out connections.
	 * @return the data source, or {@code null} when every call goes through the pool
	 */
	public DataSource getDirectDataSource() {
		return this.directDataSource;
	}

	@Override
	public String toString() {
		return "JdbcLeaseWorkerIdAssigner[table " + this.store.table() + ", instance '" + this.lease.instanceId()
				+ "']";
	}

	private WorkerIdOutOfRangeException full(LeaseTable table, long maxWorkerId) {
		LeaseTable.LiveLeases live;
		try {
			live = this.store.inTransaction((jdbc) -> table.liveLeases(jdbc, maxWorkerId));
		}
		catch (RuntimeException ex) {
			live = new LeaseTable.LiveLeases(maxWorkerId + 1, List.of());
		}
		return this.lease.allTaken(maxWorkerId, live.count(), live.holders(), table.table());
	}

	private String lostDetail(LeaseTable table, long workerId) {
		try {
			LeaseTable.Holder holder = this.store.inTransaction((jdbc) -> table.holder(jdbc, workerId));
			if (holder == null) {
				return "its row in " + table.table() + " is gone";
			}
			if (holder.released()) {
				return "it was released";
			}
			return "the lease expired and instance '" + holder.instanceId() + "' holds it now";
		}
		catch (RuntimeException ex) {
			return "the lease is no longer this instance's";
		}
	}

	private LeaseTable leaseTable() {
		return tables().lease();
	}

	/** Prepares the tables at first use, and keeps them once they are settled. */
	private LeaseTables tables() {
		LeaseTables prepared = this.tables;
		if (prepared != null) {
			return prepared;
		}
		synchronized (this) {
			prepared = this.tables;
			if (prepared == null) {
				prepared = LeaseTables.prepare(this.store, this.claimTable);
				if (prepared.settled()) {
					this.tables = prepared;
				}
			}
			return prepared;
		}
	}

	/** A worker ID from 0 to the maximum, at random. */
	private static long randomStart(long maxWorkerId) {
		return ThreadLocalRandom.current().nextLong(Math.max(1, maxWorkerId + 1));
	}

	private static long micros(Duration duration) {
		return TimeUnit.NANOSECONDS.toMicros(duration.toNanos());
	}

	private static String describeMark(WorkerAssignment assignment) {
		return assignment.hasMark() ? "mark " + Instant.ofEpochMilli(assignment.highWaterMarkMillis()) : "no mark";
	}

	/**
	 * Builds a {@link JdbcLeaseWorkerIdAssigner}; settings left unset (or set to {@code null}) keep their defaults.
	 */
	public static final class Builder extends AbstractLeaseBuilder<Builder> {

		private final DataSource dataSource;

		private String leaseTable = DEFAULT_TABLE;

		private String hostName;

		private boolean initializeSchema;

		private DataSource directDataSource;

		private Builder(DataSource dataSource) {
			super(MAX_INSTANCE_ID_LENGTH, LeaseSettings.HEARTBEATS_PER_LEASE);
			this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
		}

		/**
		 * Sets the lease table; {@value JdbcLeaseWorkerIdAssigner#DEFAULT_TABLE} by default.
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
		 * Sets whether the lease table is created at start when missing; off by default.
		 * @param initializeSchema whether to run the shipped DDL
		 * @return this builder
		 */
		public Builder initializeSchema(boolean initializeSchema) {
			this.initializeSchema = initializeSchema;
			return this;
		}

		/**
		 * Sets connections to the same database without the pool, for the calls made while the pool cannot hand
		 * out connections: from a call whose connection the pool failed to give until a connection is had again,
		 * and while a call has waited for the pool's connection longer than a round trip's bound (a third of the
		 * lease). A pool that lost
		 * its connections in an outage connects again only at its next retry (HikariCP's come up to 5 s apart
		 * once an outage has gone on for seconds, and that back-off cannot be configured); a connection opened for
		 * the call reaches the database as soon as it answers again, so renewals resume within a retry (100 ms).
		 * Each call is the same statements, committed the same way, whichever connection it runs on, and the
		 * connection's round trips are bounded alike. It must reach the same database, catalog and
		 * schema as the pool. Unset by default: every call waits for the pool.
		 * @param directDataSource a data source that opens a connection on each call, or {@code null}
		 * @return this builder
		 */
		public Builder directDataSource(DataSource directDataSource) {
			this.directDataSource = directDataSource;
			return this;
		}

		/**
		 * Builds the assigner; it connects to the database only when a worker ID is claimed.
		 * @return the assigner
		 */
		public JdbcLeaseWorkerIdAssigner build() {
			return new JdbcLeaseWorkerIdAssigner(this, leaseSettings());
		}

	}

}
