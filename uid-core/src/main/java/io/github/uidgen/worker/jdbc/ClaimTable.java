package io.github.uidgen.worker.jdbc;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.List;

import io.github.uidgen.worker.WorkerAssignment;
import io.github.uidgen.worker.fleet.ClaimEnd;
import io.github.uidgen.worker.fleet.ClaimHistory;
import io.github.uidgen.worker.fleet.WorkerClaim;
import io.github.uidgen.worker.support.LeaseSettings;

import org.springframework.jdbc.core.SqlParameterValue;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * The SQL of lease mode's claim history: one row per claim of a worker ID, numbered per worker ID
 * ({@code claim_no}), keyed by both. Every write runs in the transaction of the claim or release it records, after
 * that transaction has locked the worker ID's lease row (taken, inserted or released it): the lease row's lock
 * serialises every writer of one worker ID's history, so the numbering needs no lock of its own and no claimant
 * waits on a history row another holds.
 */
final class ClaimTable {

	private final String table;

	private final String closeSql;

	private final String closeReleasedSql;

	private final String lastNumberSql;

	private final String insertSql;

	private final String pruneSql;

	private final String historySql;

	ClaimTable(SqlDialect dialect, String table) {
		this.table = table;
		String open = " WHERE worker_id = ? AND end_kind = '" + ClaimEnd.OPEN.name() + "'";
		this.closeSql = "UPDATE " + table + " SET ended_at = " + dialect.fromEpochMillis() + ", end_kind = ?" + open;
		this.closeReleasedSql = "UPDATE " + table + " SET ended_at = " + dialect.now() + ", end_kind = '"
				+ ClaimEnd.RELEASED.name() + "'" + open;
		this.lastNumberSql = "SELECT COALESCE(MAX(claim_no), 0) FROM " + table + " WHERE worker_id = ?";
		this.insertSql = "INSERT INTO " + table + " (worker_id, claim_no, instance_id, host_name, claimed_at, "
				+ "ended_at, after_mark, end_kind) VALUES (?, ?, ?, ?, " + dialect.now() + ", NULL, ?, '"
				+ ClaimEnd.OPEN.name() + "')";
		this.pruneSql = "DELETE FROM " + table + " WHERE worker_id = ? AND claim_no <= ?";
		this.historySql = "SELECT instance_id, host_name, " + dialect.epochMillis("claimed_at") + ", "
				+ dialect.epochMillis("ended_at") + ", after_mark, end_kind FROM " + table
				+ " WHERE worker_id = ? ORDER BY claim_no DESC LIMIT " + LeaseSettings.MAX_CLAIM_HISTORY;
	}

	String table() {
		return this.table;
	}

	/**
	 * Records a claim the transaction just made: closes the previous holder's claim still open (one whose lease ran
	 * out, or whose release an older version made without a history), opens this one and drops the oldest beyond
	 * {@code keep}.
	 * @param claim the claim as {@link LeaseTable} made it
	 * @param keep how many claims of the worker ID to keep
	 */
	void recordClaim(JdbcClient jdbc, LeaseTable.Claim claim, String instanceId, String hostName, int keep) {
		long workerId = claim.workerId();
		if (claim.previousEnd() != null) {
			jdbc.sql(this.closeSql).params(claim.previousEndMillis(), claim.previousEnd().name(), workerId).update();
		}
		long number = jdbc.sql(this.lastNumberSql).param(workerId).query(Long.class).single() + 1;
		Long afterMark = (claim.highWaterMarkMillis() != WorkerAssignment.NO_MARK) ? claim.highWaterMarkMillis() : null;
		jdbc.sql(this.insertSql)
			.params(workerId, number, instanceId, hostName, new SqlParameterValue(Types.BIGINT, afterMark))
			.update();
		if (number > keep) {
			jdbc.sql(this.pruneSql).params(workerId, number - keep).update();
		}
	}

	/** Closes the claim of a worker ID its holder just released, in the release's transaction. */
	void recordRelease(JdbcClient jdbc, long workerId) {
		jdbc.sql(this.closeReleasedSql).param(workerId).update();
	}

	/**
	 * Reads the claims kept of one worker ID, newest first; a plain read, which takes no lock.
	 * @return the history
	 */
	ClaimHistory history(JdbcClient jdbc, long workerId) {
		List<WorkerClaim> claims = jdbc.sql(this.historySql)
			.param(workerId)
			.query((row, number) -> claim(row, workerId))
			.list();
		return new ClaimHistory(workerId, claims);
	}

	private static WorkerClaim claim(ResultSet row, long workerId) throws SQLException {
		Instant from = instant(row, 3);
		Instant to = instant(row, 4);
		long afterMark = row.getLong(5);
		if (row.wasNull()) {
			afterMark = WorkerAssignment.NO_MARK;
		}
		return new WorkerClaim(workerId, row.getString(1), row.getString(2), from, to, afterMark,
				ClaimEnd.valueOf(row.getString(6)));
	}

	/** A time read as epoch milliseconds, {@code null} when the column is. */
	static Instant instant(ResultSet row, int column) throws SQLException {
		long millis = row.getLong(column);
		return row.wasNull() ? null : Instant.ofEpochMilli(millis);
	}

}
