package io.github.uidgen.worker.jdbc;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import io.github.uidgen.worker.WorkerAssignment;
import io.github.uidgen.worker.fleet.ClaimEnd;

import org.springframework.jdbc.core.SqlParameterValue;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * The SQL of lease mode, one table of {@code worker_id} rows. Every change that takes or keeps a lease is a single
 * conditional {@code UPDATE} (or a primary-key {@code INSERT}), so concurrent claimants are serialised by the
 * database's row locks and unique key, never by reading first and writing later. Each method runs its statements
 * through the given client, in the transaction its caller opened.
 */
final class LeaseTable {

	/**
	 * The outcome of one claim attempt, with how the previous holder's lease had ended, for the claim history: the
	 * row's lease expiry as found (a release sets it to the time of the release).
	 *
	 * @param workerId the worker ID taken
	 * @param highWaterMarkMillis the mark it starts after: the one it had, and for an expired lease at least its expiry
	 * @param previousEnd how the previous lease ended; {@code null} for a worker ID used for the first time
	 * @param previousEndMillis when, in epoch milliseconds by the database clock
	 */
	record Claim(long workerId, long highWaterMarkMillis, ClaimEnd previousEnd, long previousEndMillis) {

		/** Every worker ID up to the maximum is leased. */
		static final Claim FULL = new Claim(-1, WorkerAssignment.NO_MARK, null, 0);

		/** Free IDs were seen but others took them first; try again. */
		static final Claim RACED = new Claim(-2, WorkerAssignment.NO_MARK, null, 0);

		static Claim firstUse(long workerId) {
			return new Claim(workerId, WorkerAssignment.NO_MARK, null, 0);
		}

		boolean taken() {
			return this.workerId >= 0;
		}

	}

	/** Who holds a lease, for the message of a lost one. */
	record Holder(String instanceId, boolean released, boolean expired) {
	}

	/** The live leases among the worker IDs a layout holds, for the message of a full table. */
	record LiveLeases(long count, List<String> holders) {
	}

	/**
	 * The {@code worker_id} of the row that records the layout ({@code instance_id} holds it): above any worker ID a
	 * layout holds (at most 61 worker bits), so every query of worker IDs, this version's and older ones', passes it
	 * by; and below {@link Long#MAX_VALUE}, so {@code worker_id + 1} does not overflow.
	 */
	static final long LAYOUT_ROW = 1L << 62;

	/**
	 * The {@code instance_id} of a row made free, never leased, when the table's layout was recorded: instance IDs
	 * are never blank, so no claim's row carries it.
	 */
	static final String NEVER_LEASED = "";

	/**
	 * How many worker IDs, from 0 up, are made rows of their own when the layout is recorded: all of a layout of up
	 * to 12 worker bits. A claim of a worker ID beyond them inserts its row.
	 */
	static final long FREE_ROWS_AT_MOST = 4096;

	/**
	 * How many free worker IDs a claim reads, lowest first from its start point, to lock one of: as many claimants of
	 * the same moment each take one in their first round.
	 */
	static final int CANDIDATES = 64;

	/** Where the candidates' placeholders go in {@link #lockLowestFreeSql}. */
	private static final String CANDIDATE_LIST = "/* candidates */";

	/** How many rows one statement makes free. */
	private static final int FREE_ROWS_PER_STATEMENT = 512;

	/** How many holders {@link #liveLeases} names. */
	private static final int NAMED_HOLDERS = 8;

	private final String table;

	private final String ownFreeSql;

	private final String lockLowestFreeSql;

	private final String freeFromSql;

	private final String freeByMarkSql;

	private final String takeSql;

	private final String freeBehindSql;

	private final String lockFreeSql;

	private final String lockFreeBehindSql;

	private final String unusedFromSql;

	private final String insertSql;

	private final String renewSql;

	private final String releaseWithMarkSql;

	private final String releaseSql;

	private final String holderSql;

	private final String liveCountSql;

	private final String liveHoldersSql;

	private final String layoutSql;

	private final String insertLayoutSql;

	private final String freeRowsSql;

	/** What ends an insert that leaves the rows that exist as they are. */
	private final String unlessThere;

	private final String freeRowValues;

	/**
	 * Prepares the SQL of one table.
	 * @param dialect the database
	 * @param table the lease table
	 * @param locking how claims lock rows there
	 */
	LeaseTable(SqlDialect dialect, String table, RowLocking locking) {
		this.table = table;
		// Every write is stopped by the server, where it can, before the client gives up on it (see RowLocking).
		String bound = locking.statementPrefix();
		String now = dialect.now();
		String free = "(lease_token IS NULL OR lease_expires_at < " + now + ")";
		String greatestMark = "high_water_mark = COALESCE(GREATEST(high_water_mark, ?), ?)";
		// From a start point on, wrapping round to the lowest: 0 for the lowest first.
		String fromStart = "CASE WHEN worker_id >= ? THEN 0 ELSE 1 END, worker_id";
		String saneMark = "(high_water_mark IS NULL OR high_water_mark <= " + dialect.nowMillis() + " + ?)";
		this.ownFreeSql = "SELECT worker_id FROM " + table + " WHERE instance_id = ? AND worker_id <= ? AND " + free
				+ " AND " + saneMark + " ORDER BY worker_id LIMIT 1";
		this.freeFromSql = "SELECT worker_id FROM " + table + " WHERE worker_id >= ? AND worker_id <= ? AND " + free
				+ " AND " + saneMark + " ORDER BY worker_id LIMIT " + CANDIDATES;
		this.freeByMarkSql = "SELECT worker_id FROM " + table + " WHERE worker_id <= ? AND " + free
				+ " ORDER BY high_water_mark, worker_id LIMIT 16";
		this.takeSql = bound + "UPDATE " + table + " SET instance_id = ?, lease_token = ?, host_name = ?, port = ?, "
				+ "lease_expires_at = " + dialect.nowPlusMicros() + ", modified = " + now + " WHERE worker_id = ? AND "
				+ free;
		// A lease that ran out without a release counts as a mark at its expiry (see lockedRow).
		String behind = "(high_water_mark IS NULL OR high_water_mark <= ?) AND (lease_token IS NULL OR "
				+ dialect.epochMillis("lease_expires_at") + " <= ?)";
		this.freeBehindSql = "SELECT worker_id FROM " + table + " WHERE worker_id <= ? AND " + free + " AND " + behind
				+ " ORDER BY " + fromStart + " LIMIT 16";
		// A row another claimant has locked is passed over, or given up at once, where the database can (it is that
		// claimant's to take or leave), instead of waited for: waiting made simultaneous claimants queue on one row.
		String lock = locking.lockSuffix();
		String lockedRow = "SELECT worker_id, high_water_mark, CASE WHEN lease_token IS NULL THEN 1 ELSE 0 END, "
				+ dialect.epochMillis("lease_expires_at") + ", CASE WHEN instance_id = '" + NEVER_LEASED
				+ "' THEN 1 ELSE 0 END FROM " + table;
		this.lockFreeSql = lockedRow + " WHERE worker_id = ? AND " + free + lock;
		// Locks the lowest of the candidates a plain read found that is still free and that no other claimant has
		// locked, where the database can pass over those: claimants of the same moment each take another one in one
		// statement, without a race. Looked up by key, one by one, so that no rows but the candidates are read with
		// a lock: a scan from 0 locked every row of a running instance on its way, and 1,000 claimants at once held
		// up each other and the renewals.
		this.lockLowestFreeSql = lockedRow + " WHERE worker_id IN (" + CANDIDATE_LIST + ") AND " + free + " AND "
				+ saneMark + " ORDER BY worker_id LIMIT 1" + lock;
		// The mark is checked again as the row is locked: an expired holder may still have raised it meanwhile.
		this.lockFreeBehindSql = this.lockFreeSql.replace(lock, " AND " + behind + lock);
		// The first worker ID at or after the start point without a row: the start point itself, or the one after
		// the first row from it on whose next ID has no row. Read in key order, it stops at the first gap.
		this.unusedFromSql = "SELECT CASE WHEN NOT EXISTS (SELECT 1 FROM " + table + " WHERE worker_id = ?) THEN ? "
				+ "ELSE (SELECT a.worker_id + 1 FROM " + table + " a WHERE a.worker_id >= ? AND NOT EXISTS (SELECT 1 "
				+ "FROM " + table + " b WHERE b.worker_id = a.worker_id + 1) ORDER BY a.worker_id LIMIT 1) END";
		// Fails at once where the database can when another claimant is inserting the same worker ID: waiting for it
		// to commit made claimants queue, and each loser then held a shared lock on the winner's row until it rolled
		// back, which the winner's renewals waited for.
		String columns = " (worker_id, instance_id, lease_token, host_name, port, lease_expires_at, high_water_mark, "
				+ "created, modified) VALUES ";
		this.insertSql = locking.insertPrefix() + "INSERT INTO " + table + columns + "(?, ?, ?, ?, ?, "
				+ dialect.nowPlusMicros() + ", NULL, " + now + ", " + now + ")";
		this.renewSql = bound + "UPDATE " + table + " SET " + greatestMark + ", lease_expires_at = "
				+ dialect.nowPlusMicros() + ", modified = " + now
				+ " WHERE worker_id = ? AND instance_id = ? AND lease_token = ?";
		this.releaseWithMarkSql = bound + "UPDATE " + table + " SET " + greatestMark + ", lease_token = NULL, "
				+ "lease_expires_at = " + now + ", modified = " + now
				+ " WHERE worker_id = ? AND instance_id = ? AND lease_token = ?";
		this.releaseSql = bound + "UPDATE " + table + " SET lease_token = NULL, lease_expires_at = " + now
				+ ", modified = " + now + " WHERE worker_id = ? AND instance_id = ? AND lease_token = ?";
		this.holderSql = "SELECT instance_id, CASE WHEN lease_token IS NULL THEN 1 ELSE 0 END, CASE WHEN "
				+ "lease_expires_at < " + now + " THEN 1 ELSE 0 END FROM " + table + " WHERE worker_id = ?";
		String live = " WHERE worker_id <= ? AND lease_token IS NOT NULL AND lease_expires_at >= " + now;
		this.liveCountSql = "SELECT COUNT(*) FROM " + table + live;
		this.liveHoldersSql = "SELECT instance_id FROM " + table + live + " ORDER BY worker_id LIMIT " + NAMED_HOLDERS;
		this.layoutSql = "SELECT instance_id FROM " + table + " WHERE worker_id = " + LAYOUT_ROW;
		// Inserts nothing, and says so, where the row exists: MySQL Connector/J counts a row that ON DUPLICATE KEY UPDATE
		// found as one changed, and every first start that raced to record the layout took itself for the one that had.
		// A start that meets another's insert of the row waits for its commit (a second at most on MariaDB), then finds
		// the row there; the shared lock that finding it takes keeps no other start waiting, where the no-op update's
		// exclusive one queued a fleet starting together on the row, and giving up at once made them ask again and
		// again (4.7 rounds each of 1,000 first starts). The free rows are made the same way.
		String insertUnlessThere = ((dialect == SqlDialect.POSTGRESQL) ? "INSERT INTO " : "INSERT IGNORE INTO ") + table
				+ columns;
		this.unlessThere = (dialect == SqlDialect.POSTGRESQL) ? " ON CONFLICT (worker_id) DO NOTHING" : "";
		this.insertLayoutSql = locking.layoutInsertPrefix() + insertUnlessThere + "(" + LAYOUT_ROW + ", ?, NULL, "
				+ "'uid layout record', NULL, " + now + ", NULL, " + now + ", " + now + ")" + this.unlessThere;
		this.freeRowsSql = bound + insertUnlessThere;
		this.freeRowValues = ", '" + NEVER_LEASED + "', NULL, '', NULL, " + now + ", NULL, " + now + ", " + now + ")";
	}

	String table() {
		return this.table;
	}

	/**
	 * Tries once to lease a worker ID. Among free (released, expired or never leased) worker IDs whose mark lies no
	 * further than {@code maxMarkLeadMillis} ahead of the database clock, this instance's previous one comes first,
	 * then, of the lowest {@value #CANDIDATES} from the start point on (read without a lock), the lowest that no other
	 * claimant is taking, locked as it is found; else the lowest without a row from the start point on; and only when
	 * neither exists a free one whose mark lies further ahead (the nearest first), which a host with a fast clock left
	 * behind. The search wraps round to 0 past the maximum; from 0 it takes the lowest.
	 * @param startAt where the search for a free or unused worker ID starts, from 0 to {@code maxWorkerId}
	 * @return the claim, {@link Claim#FULL} or {@link Claim#RACED}
	 * @throws org.springframework.dao.DuplicateKeyException when another claimant inserted the same worker ID
	 * first, and {@link org.springframework.dao.ConcurrencyFailureException} on a deadlock, or where the database
	 * can only give up on a locked row: try again
	 */
	Claim tryClaim(JdbcClient jdbc, long maxWorkerId, long startAt, String instanceId, String token, String hostName,
			String port, long leaseMicros, long maxMarkLeadMillis) {
		Long own = jdbc.sql(this.ownFreeSql)
			.params(instanceId, maxWorkerId, maxMarkLeadMillis)
			.query(Long.class)
			.optional()
			.orElse(null);
		Claim claim = (own != null) ? take(jdbc, lockFree(jdbc, this.lockFreeSql, own), own, instanceId, token,
				hostName, port, leaseMicros) : null;
		if (claim != null) {
			return claim;
		}
		List<Long> candidates = freeFrom(jdbc, startAt, maxWorkerId, maxMarkLeadMillis);
		if (candidates.isEmpty() && startAt > 0) {
			candidates = freeFrom(jdbc, 0, startAt - 1, maxMarkLeadMillis);
		}
		if (!candidates.isEmpty()) {
			List<Object> params = new ArrayList<>(candidates);
			params.add(maxMarkLeadMillis);
			String placeholders = String.join(", ", Collections.nCopies(candidates.size(), "?"));
			Claim lowest = jdbc.sql(this.lockLowestFreeSql.replace(CANDIDATE_LIST, placeholders))
				.params(params)
				.query(LeaseTable::lockedRow)
				.optional()
				.orElse(null);
			claim = (lowest != null)
					? take(jdbc, lowest, lowest.workerId(), instanceId, token, hostName, port, leaseMicros) : null;
			// Else other claimants are taking every one of them, or have taken them since they were read.
			return (claim != null) ? claim : Claim.RACED;
		}
		long unused = unused(jdbc, maxWorkerId, startAt);
		if (unused <= maxWorkerId) {
			jdbc.sql(this.insertSql).params(unused, instanceId, token, hostName, text(port), leaseMicros).update();
			return Claim.firstUse(unused);
		}
		List<Long> ahead = jdbc.sql(this.freeByMarkSql).param(maxWorkerId).query(Long.class).list();
		claim = takeFirstFree(jdbc, ahead, instanceId, token, hostName, port, leaseMicros);
		if (claim != null) {
			return claim;
		}
		return Claim.FULL;
	}

	/**
	 * Tries once to lease a further worker ID whose mark is at most {@code latestMarkMillis}: the lowest free one
	 * with such a mark from the start point on, else the lowest never used from the start point on (see
	 * {@link #tryClaim}).
	 * @param startAt where the search starts, from 0 to {@code maxWorkerId}
	 * @return the claim, {@link Claim#FULL} when there is no such worker ID, or {@link Claim#RACED}
	 * @throws org.springframework.dao.DuplicateKeyException when another claimant inserted the same worker ID
	 * first, and {@link org.springframework.dao.ConcurrencyFailureException} on a deadlock: try again
	 */
	Claim tryClaimBehind(JdbcClient jdbc, long maxWorkerId, long startAt, String instanceId, String token,
			String hostName, String port, long leaseMicros, long latestMarkMillis) {
		List<Long> behind = jdbc.sql(this.freeBehindSql)
			.params(maxWorkerId, latestMarkMillis, latestMarkMillis, startAt)
			.query(Long.class)
			.list();
		for (long candidate : behind) {
			Claim claim = take(jdbc, lockFree(jdbc, this.lockFreeBehindSql, candidate, latestMarkMillis,
					latestMarkMillis), candidate, instanceId, token, hostName, port, leaseMicros);
			if (claim != null) {
				return claim;
			}
		}
		if (!behind.isEmpty()) {
			return Claim.RACED;
		}
		long unused = unused(jdbc, maxWorkerId, startAt);
		if (unused <= maxWorkerId) {
			jdbc.sql(this.insertSql).params(unused, instanceId, token, hostName, text(port), leaseMicros).update();
			return Claim.firstUse(unused);
		}
		return Claim.FULL;
	}

	/**
	 * Finds the lowest worker ID without a row from the start point on, else from 0.
	 * @return the worker ID, above {@code maxWorkerId} when every one up to it has a row
	 */
	private long unused(JdbcClient jdbc, long maxWorkerId, long startAt) {
		long unused = jdbc.sql(this.unusedFromSql).params(startAt, startAt, startAt).query(Long.class).single();
		if (unused > maxWorkerId && startAt > 0) {
			unused = jdbc.sql(this.unusedFromSql).params(0L, 0L, 0L).query(Long.class).single();
		}
		return unused;
	}

	/**
	 * Takes the first candidate that is still free.
	 * @return the claim, {@link Claim#RACED} when others took every candidate first, {@code null} without candidates
	 */
	private Claim takeFirstFree(JdbcClient jdbc, List<Long> candidates, String instanceId, String token,
			String hostName, String port, long leaseMicros) {
		for (long candidate : candidates) {
			Claim claim = take(jdbc, lockFree(jdbc, this.lockFreeSql, candidate), candidate, instanceId, token,
					hostName, port, leaseMicros);
			if (claim != null) {
				return claim;
			}
		}
		return candidates.isEmpty() ? null : Claim.RACED;
	}

	/**
	 * Locks a candidate row if it is still free (and matches the further conditions), as the take's own
	 * {@code UPDATE} would, and reads it (see {@link #lockedRow}).
	 * @return the row as found, or {@code null} when another claimant took it first
	 */
	private Claim lockFree(JdbcClient jdbc, String sql, long candidate, Object... moreParams) {
		Object[] params = new Object[1 + moreParams.length];
		params[0] = candidate;
		System.arraycopy(moreParams, 0, params, 1, moreParams.length);
		return jdbc.sql(sql).params(params).query(LeaseTable::lockedRow).optional().orElse(null);
	}

	/** Reads the lowest free worker IDs whose mark is sane in a range, without a lock. */
	private List<Long> freeFrom(JdbcClient jdbc, long from, long to, long maxMarkLeadMillis) {
		return jdbc.sql(this.freeFromSql).params(from, to, maxMarkLeadMillis).query(Long.class).list();
	}

	/**
	 * Reads a row a claim locked: its mark and how its lease ended. A lease that ran out without a release counts as a
	 * mark at its expiry: its holder may have issued on the lease up to then while the database did not answer it, so
	 * the claim starts after that.
	 */
	private static Claim lockedRow(ResultSet row, int number) throws SQLException {
		long workerId = row.getLong(1);
		long mark = row.getLong(2);
		if (row.wasNull()) {
			mark = WorkerAssignment.NO_MARK;
		}
		if (row.getInt(5) == 1) {
			return new Claim(workerId, mark, null, 0);
		}
		ClaimEnd end = (row.getInt(3) == 1) ? ClaimEnd.RELEASED : ClaimEnd.EXPIRED;
		long endMillis = row.getLong(4);
		if (end == ClaimEnd.EXPIRED && (mark == WorkerAssignment.NO_MARK || mark < endMillis)) {
			mark = endMillis;
		}
		return new Claim(workerId, mark, end, endMillis);
	}

	/** Takes a row {@link #lockFree} locked; {@code null} when it was not free. */
	private Claim take(JdbcClient jdbc, Claim locked, long candidate, String instanceId, String token,
			String hostName, String port, long leaseMicros) {
		if (locked == null) {
			return null;
		}
		int taken = jdbc.sql(this.takeSql)
			.params(instanceId, token, hostName, text(port), leaseMicros, candidate)
			.update();
		return (taken == 1) ? locked : null;
	}

	/**
	 * Records a mark and extends the lease in one conditional update that only matches while this claim still
	 * holds the lease, so a holder that lost it can never overwrite the mark of the next one.
	 * @return whether the lease was still held
	 */
	boolean renew(JdbcClient jdbc, long workerId, String instanceId, String token, long mark, long leaseMicros) {
		return jdbc.sql(this.renewSql).params(mark, mark, leaseMicros, workerId, instanceId, token).update() == 1;
	}

	/**
	 * Records the final mark (unless there is none) and frees the lease, if this claim still holds it.
	 * @return whether the lease was still held
	 */
	boolean release(JdbcClient jdbc, long workerId, String instanceId, String token, long mark) {
		JdbcClient.StatementSpec release = (mark != WorkerAssignment.NO_MARK)
				? jdbc.sql(this.releaseWithMarkSql).params(mark, mark, workerId, instanceId, token)
				: jdbc.sql(this.releaseSql).params(workerId, instanceId, token);
		return release.update() == 1;
	}

	/**
	 * Returns who holds a worker ID now.
	 * @return the holder, or {@code null} when the row is gone
	 */
	Holder holder(JdbcClient jdbc, long workerId) {
		return jdbc.sql(this.holderSql)
			.param(workerId)
			.query((row, number) -> new Holder(row.getString(1), row.getInt(2) == 1, row.getInt(3) == 1))
			.optional()
			.orElse(null);
	}

	/**
	 * Counts the leases held now among worker IDs up to a maximum, and names a few of their holders.
	 * @return the live leases
	 */
	LiveLeases liveLeases(JdbcClient jdbc, long maxWorkerId) {
		long count = jdbc.sql(this.liveCountSql).param(maxWorkerId).query(Long.class).single();
		List<String> holders = jdbc.sql(this.liveHoldersSql).param(maxWorkerId).query(String.class).list();
		return new LiveLeases(count, holders);
	}

	/**
	 * Reads the layout the table records.
	 * @return the record, or {@code null} when there is none yet
	 */
	String layout(JdbcClient jdbc) {
		return jdbc.sql(this.layoutSql).query(String.class).optional().orElse(null);
	}

	/**
	 * Records the layout unless one is recorded already. Waits for another start's insert of it to commit or roll
	 * back, a second at most where the database can bound it (see {@link RowLocking#layoutInsertPrefix()}).
	 * @return whether this call recorded it
	 * @throws org.springframework.dao.ConcurrencyFailureException when another start holds the row: read again
	 */
	boolean insertLayoutIfAbsent(JdbcClient jdbc, String layout) {
		return jdbc.sql(this.insertLayoutSql).param(text(layout)).update() == 1;
	}

	/**
	 * Makes the worker IDs of a layout rows of their own, free and never leased, up to {@link #FREE_ROWS_AT_MOST},
	 * leaving rows that exist alone; for the start that records the layout, in its transaction. Claims then find
	 * every worker ID they may take as a row they can lock, and claimants of the same moment pass over each other's
	 * instead of inserting the same new worker ID, all but one losing the race.
	 * @return how many worker IDs, from 0 up, have a row now
	 */
	long createFreeRows(JdbcClient jdbc, long maxWorkerId) {
		long count = Math.min(maxWorkerId + 1, FREE_ROWS_AT_MOST);
		for (long first = 0; first < count; first += FREE_ROWS_PER_STATEMENT) {
			long end = Math.min(count, first + FREE_ROWS_PER_STATEMENT);
			StringBuilder sql = new StringBuilder(this.freeRowsSql);
			for (long workerId = first; workerId < end; workerId++) {
				sql.append((workerId > first) ? ", (" : "(").append(workerId).append(this.freeRowValues);
			}
			jdbc.sql(sql.append(this.unlessThere).toString()).update();
		}
		return count;
	}

	/** A text parameter that may be {@code null}, typed so that binding it needs no round trip to the database. */
	private static SqlParameterValue text(String value) {
		return new SqlParameterValue(Types.VARCHAR, value);
	}

}
