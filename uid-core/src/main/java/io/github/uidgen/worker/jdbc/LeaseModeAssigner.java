package io.github.uidgen.worker.jdbc;

import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.github.uidgen.worker.LeaseSettings;
import io.github.uidgen.worker.LeaseTokens;
import io.github.uidgen.worker.WorkerAssignment;
import io.github.uidgen.worker.WorkerAssignmentException;
import io.github.uidgen.worker.WorkerIdAssigner;
import io.github.uidgen.worker.WorkerIdOutOfRangeException;
import io.github.uidgen.worker.WorkerLeaseLostException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link JdbcWorkerIdAssigner.Mode#LEASE}: reusable worker IDs leased from the lease table, renewed with the
 * high-water mark and released on close.
 */
final class LeaseModeAssigner implements WorkerIdAssigner {

	private static final Logger logger = LoggerFactory.getLogger(JdbcWorkerIdAssigner.class);

	/** Enough for dozens of instances starting in the same instant, each round taking one free ID. */
	private static final int MAX_CLAIM_ATTEMPTS = 100;

	private final JdbcStore store;

	private final LeaseSettings lease;

	private final String hostName;

	private final LeaseTokens tokens = new LeaseTokens();

	private volatile LeaseTable leaseTable;

	LeaseModeAssigner(JdbcStore store, LeaseSettings lease, String hostName) {
		this.store = store;
		this.lease = lease;
		this.hostName = hostName;
	}

	@Override
	public WorkerAssignment assign(long maxWorkerId) {
		return assign(maxWorkerId, LeaseSettings.DEFAULT_MAX_MARK_LEAD);
	}

	@Override
	public WorkerAssignment assign(long maxWorkerId, Duration maxMarkLead) {
		LeaseTable table = leaseTable();
		long leaseMicros = micros(this.lease.leaseDuration());
		SQLException lastContention = null;
		for (int attempt = 1; attempt <= MAX_CLAIM_ATTEMPTS; attempt++) {
			String token = LeaseTokens.newToken();
			LeaseTable.Claim claim;
			try {
				claim = this.store.runner()
					.inTransaction((connection) -> table.tryClaim(connection, maxWorkerId, this.lease.instanceId(),
							token, this.hostName, this.lease.port(), leaseMicros, maxMarkLead.toMillis()));
			}
			catch (SQLException ex) {
				if (!SqlFailures.isContention(ex)) {
					throw this.store.translate(ex);
				}
				lastContention = ex;
				JdbcStore.backOff(attempt);
				continue;
			}
			if (claim == LeaseTable.Claim.RACED) {
				JdbcStore.backOff(attempt);
				continue;
			}
			if (claim == LeaseTable.Claim.FULL) {
				throw full(table, maxWorkerId);
			}
			this.tokens.hold(claim.workerId(), token);
			WorkerAssignment assignment = new WorkerAssignment(claim.workerId(), claim.highWaterMarkMillis());
			logger.info("uid worker ID {} leased from {} for instance '{}' ({}, lease {})", claim.workerId(),
					table.table(), this.lease.instanceId(), describeMark(assignment), this.lease.leaseDuration());
			return assignment;
		}
		throw new WorkerAssignmentException("Could not claim a uid worker ID from " + table.table() + " in "
				+ MAX_CLAIM_ATTEMPTS + " attempts: too many instances claimed at the same moment. Start again.",
				lastContention);
	}

	@Override
	public void renew(long workerId, long highWaterMarkMillis) {
		String token = this.tokens.require(workerId);
		LeaseTable table = leaseTable();
		boolean held;
		try {
			held = this.store.runner()
				.autoCommit((connection) -> table.renew(connection, workerId, this.lease.instanceId(), token,
						highWaterMarkMillis, micros(this.lease.leaseDuration())));
		}
		catch (SQLException ex) {
			throw this.store.translate(ex);
		}
		if (!held) {
			this.tokens.lost(workerId, token);
			throw new WorkerLeaseLostException(workerId, lostDetail(table, workerId));
		}
	}

	@Override
	public void release(long workerId, long highWaterMarkMillis) {
		String token = this.tokens.release(workerId);
		if (token == null) {
			return;
		}
		LeaseTable table = leaseTable();
		try {
			boolean held = this.store.runner()
				.autoCommit((connection) -> table.release(connection, workerId, this.lease.instanceId(), token,
						highWaterMarkMillis));
			if (held) {
				logger.info("uid worker ID {} released in {}", workerId, table.table());
			}
			else {
				logger.warn("uid worker ID {} was no longer leased by this instance at release", workerId);
			}
		}
		catch (SQLException ex) {
			throw this.store.translate(ex);
		}
	}

	@Override
	public Duration renewInterval() {
		return this.lease.heartbeatInterval();
	}

	@Override
	public String name() {
		return "db";
	}

	private WorkerIdOutOfRangeException full(LeaseTable table, long maxWorkerId) {
		LeaseTable.LiveLeases live;
		try {
			live = this.store.runner().autoCommit((connection) -> table.liveLeases(connection, maxWorkerId));
		}
		catch (SQLException ex) {
			live = new LeaseTable.LiveLeases(maxWorkerId + 1, List.of());
		}
		return this.lease.allTaken(maxWorkerId, live.count(), live.holders(), table.table());
	}

	private String lostDetail(LeaseTable table, long workerId) {
		try {
			LeaseTable.Holder holder = this.store.runner()
				.autoCommit((connection) -> table.holder(connection, workerId));
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

	private LeaseTable leaseTable() {
		LeaseTable table = this.leaseTable;
		if (table == null) {
			table = new LeaseTable(this.store.dialect(), this.store.table());
			this.leaseTable = table;
		}
		return table;
	}

	private static long micros(Duration duration) {
		return TimeUnit.NANOSECONDS.toMicros(duration.toNanos());
	}

	private static String describeMark(WorkerAssignment assignment) {
		return assignment.hasMark() ? "mark " + Instant.ofEpochMilli(assignment.highWaterMarkMillis()) : "no mark";
	}

}
