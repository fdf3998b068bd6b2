package io.github.uidgen.worker.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

import io.github.uidgen.worker.WorkerAssignment;

/**
 * The SQL of lease mode, one table of {@code worker_id} rows. Every change that takes or keeps a lease is a single
 * conditional {@code UPDATE} (or a primary-key {@code INSERT}), so concurrent claimants are serialised by the
 * database's row locks and unique key, never by reading first and writing later.
 */
final class LeaseTable {

	/** The outcome of one claim attempt. */
	record Claim(long workerId, long highWaterMarkMillis) {

		/** Every worker ID up to the maximum is leased. */
		static final Claim FULL = new Claim(-1, WorkerAssignment.NO_MARK);

		/** Free IDs were seen but others took them first; try again. */
		static final Claim RACED = new Claim(-2, WorkerAssignment.NO_MARK);

	}

	/** Who holds a lease, for the message of a lost one. */
	record Holder(String instanceId, boolean released, boolean expired) {
	}

	/** The live leases among the worker IDs a layout holds, for the message of a full table. */
	record LiveLeases(long count, List<String> holders) {
	}

	/** How many holders {@link #liveLeases} names. */
	private static final int NAMED_HOLDERS = 8;

	private final String table;

	private final String freeWithSaneMarkSql;

	private final String freeByMarkSql;

	private final String takeSql;

	private final String markSql;

	private final String lowestUnusedSql;

	private final String insertSql;

	private final String renewSql;

	private final String releaseWithMarkSql;

	private final String releaseSql;

	private final String holderSql;

	private final String liveCountSql;

	private final String liveHoldersSql;

	LeaseTable(SqlDialect dialect, String table) {
		this.table = table;
		String now = dialect.now();
		String free = "(lease_token IS NULL OR lease_expires_at < " + now + ")";
		String greatestMark = "high_water_mark = COALESCE(GREATEST(high_water_mark, ?), ?)";
		String own = "CASE WHEN instance_id = ? THEN 0 ELSE 1 END";
		this.freeWithSaneMarkSql = "SELECT worker_id FROM " + table + " WHERE worker_id <= ? AND " + free
				+ " AND (high_water_mark IS NULL OR high_water_mark <= " + dialect.nowMillis() + " + ?) ORDER BY " + own
				+ ", worker_id LIMIT 16";
		this.freeByMarkSql = "SELECT worker_id FROM " + table + " WHERE worker_id <= ? AND " + free
				+ " ORDER BY high_water_mark, worker_id LIMIT 16";
		this.takeSql = "UPDATE " + table + " SET instance_id = ?, lease_token = ?, host_name = ?, port = ?, "
				+ "lease_expires_at = " + dialect.nowPlusMicros() + ", modified = " + now + " WHERE worker_id = ? AND "
				+ free;
		this.markSql = "SELECT high_water_mark FROM " + table + " WHERE worker_id = ?";
		this.lowestUnusedSql = "SELECT CASE WHEN NOT EXISTS (SELECT 1 FROM " + table + " WHERE worker_id = 0) THEN 0 "
				+ "ELSE (SELECT MIN(a.worker_id) + 1 FROM " + table + " a WHERE NOT EXISTS (SELECT 1 FROM " + table
				+ " b WHERE b.worker_id = a.worker_id + 1)) END";
		this.insertSql = "INSERT INTO " + table + " (worker_id, instance_id, lease_token, host_name, port, "
				+ "lease_expires_at, high_water_mark, created, modified) VALUES (?, ?, ?, ?, ?, "
				+ dialect.nowPlusMicros() + ", NULL, " + now + ", " + now + ")";
		this.renewSql = "UPDATE " + table + " SET " + greatestMark + ", lease_expires_at = " + dialect.nowPlusMicros()
				+ ", modified = " + now + " WHERE worker_id = ? AND instance_id = ? AND lease_token = ?";
		this.releaseWithMarkSql = "UPDATE " + table + " SET " + greatestMark + ", lease_token = NULL, "
				+ "lease_expires_at = " + now + ", modified = " + now
				+ " WHERE worker_id = ? AND instance_id = ? AND lease_token = ?";
		this.releaseSql = "UPDATE " + table + " SET lease_token = NULL, lease_expires_at = " + now + ", modified = "
				+ now + " WHERE worker_id = ? AND instance_id = ? AND lease_token = ?";
		this.holderSql = "SELECT instance_id, CASE WHEN lease_token IS NULL THEN 1 ELSE 0 END, CASE WHEN "
				+ "lease_expires_at < " + now + " THEN 1 ELSE 0 END FROM " + table + " WHERE worker_id = ?";
		String live = " WHERE worker_id <= ? AND lease_token IS NOT NULL AND lease_expires_at >= " + now;
		this.liveCountSql = "SELECT COUNT(*) FROM " + table + live;
		this.liveHoldersSql = "SELECT instance_id FROM " + table + live + " ORDER BY worker_id LIMIT " + NAMED_HOLDERS;
	}

	String table() {
		return this.table;
	}

	/**
	 * Tries once, in the caller's transaction, to lease a worker ID. Among free (released or expired) worker IDs
	 * whose mark lies no further than {@code maxMarkLeadMillis} ahead of the database clock, this instance's previous
	 * one comes first, then the lowest; else the lowest never used; and only when neither exists a free one whose mark
	 * lies further ahead (the nearest first), which a host with a fast clock left behind.
	 * @return the claim, {@link Claim#FULL} or {@link Claim#RACED}
	 * @throws SQLException a duplicate key or deadlock means another claimant won: try again
	 */
	Claim tryClaim(Connection connection, long maxWorkerId, String instanceId, String token, String hostName,
			String port, long leaseMicros, long maxMarkLeadMillis) throws SQLException {
		List<Long> sane = select(connection, this.freeWithSaneMarkSql, maxWorkerId, maxMarkLeadMillis, instanceId);
		Claim claim = takeFirstFree(connection, sane, instanceId, token, hostName, port, leaseMicros);
		if (claim != null) {
			return claim;
		}
		long unused = lowestUnused(connection);
		if (unused <= maxWorkerId) {
			try (PreparedStatement insert = connection.prepareStatement(this.insertSql)) {
				insert.setLong(1, unused);
				insert.setString(2, instanceId);
				insert.setString(3, token);
				insert.setString(4, hostName);
				insert.setString(5, port);
				insert.setLong(6, leaseMicros);
				insert.executeUpdate();
			}
			return new Claim(unused, WorkerAssignment.NO_MARK);
		}
		List<Long> ahead = select(connection, this.freeByMarkSql, maxWorkerId);
		claim = takeFirstFree(connection, ahead, instanceId, token, hostName, port, leaseMicros);
		if (claim != null) {
			return claim;
		}
		return Claim.FULL;
	}

	/**
	 * Takes the first candidate that is still free.
	 * @return the claim, {@link Claim#RACED} when others took every candidate first, {@code null} without candidates
	 */
	private Claim takeFirstFree(Connection connection, List<Long> candidates, String instanceId, String token,
			String hostName, String port, long leaseMicros) throws SQLException {
		for (long candidate : candidates) {
			try (PreparedStatement take = connection.prepareStatement(this.takeSql)) {
				take.setString(1, instanceId);
				take.setString(2, token);
				take.setString(3, hostName);
				take.setString(4, port);
				take.setLong(5, leaseMicros);
				take.setLong(6, candidate);
				if (take.executeUpdate() == 1) {
					return new Claim(candidate, readMark(connection, candidate));
				}
			}
		}
		return candidates.isEmpty() ? null : Claim.RACED;
	}

	private static List<Long> select(Connection connection, String sql, Object... args) throws SQLException {
		List<Long> ids = new ArrayList<>();
		try (PreparedStatement select = connection.prepareStatement(sql)) {
			for (int i = 0; i < args.length; i++) {
				select.setObject(i + 1, args[i]);
			}
			try (ResultSet rows = select.executeQuery()) {
				while (rows.next()) {
					ids.add(rows.getLong(1));
				}
			}
		}
		return ids;
	}

	private long readMark(Connection connection, long workerId) throws SQLException {
		try (PreparedStatement select = connection.prepareStatement(this.markSql)) {
			select.setLong(1, workerId);
			try (ResultSet rows = select.executeQuery()) {
				if (!rows.next()) {
					return WorkerAssignment.NO_MARK;
				}
				long mark = rows.getLong(1);
				return rows.wasNull() ? WorkerAssignment.NO_MARK : mark;
			}
		}
	}

	private long lowestUnused(Connection connection) throws SQLException {
		try (PreparedStatement select = connection.prepareStatement(this.lowestUnusedSql);
				ResultSet rows = select.executeQuery()) {
			rows.next();
			return rows.getLong(1);
		}
	}

	/**
	 * Records a mark and extends the lease in one conditional update that only matches while this claim still
	 * holds the lease, so a holder that lost it can never overwrite the mark of the next one.
	 * @return whether the lease was still held
	 */
	boolean renew(Connection connection, long workerId, String instanceId, String token, long mark, long leaseMicros)
			throws SQLException {
		try (PreparedStatement update = connection.prepareStatement(this.renewSql)) {
			update.setLong(1, mark);
			update.setLong(2, mark);
			update.setLong(3, leaseMicros);
			update.setLong(4, workerId);
			update.setString(5, instanceId);
			update.setString(6, token);
			return update.executeUpdate() == 1;
		}
	}

	/**
	 * Records the final mark (unless there is none) and frees the lease, if this claim still holds it.
	 * @return whether the lease was still held
	 */
	boolean release(Connection connection, long workerId, String instanceId, String token, long mark)
			throws SQLException {
		boolean withMark = mark != WorkerAssignment.NO_MARK;
		try (PreparedStatement update = connection.prepareStatement(withMark ? this.releaseWithMarkSql
				: this.releaseSql)) {
			int index = 1;
			if (withMark) {
				update.setLong(index++, mark);
				update.setLong(index++, mark);
			}
			update.setLong(index++, workerId);
			update.setString(index++, instanceId);
			update.setString(index, token);
			return update.executeUpdate() == 1;
		}
	}

	/**
	 * Returns who holds a worker ID now.
	 * @return the holder, or {@code null} when the row is gone
	 */
	Holder holder(Connection connection, long workerId) throws SQLException {
		try (PreparedStatement select = connection.prepareStatement(this.holderSql)) {
			select.setLong(1, workerId);
			try (ResultSet rows = select.executeQuery()) {
				return rows.next() ? new Holder(rows.getString(1), rows.getInt(2) == 1, rows.getInt(3) == 1) : null;
			}
		}
	}

	/**
	 * Counts the leases held now among worker IDs up to a maximum, and names a few of their holders.
	 * @return the live leases
	 */
	LiveLeases liveLeases(Connection connection, long maxWorkerId) throws SQLException {
		long count;
		try (PreparedStatement select = connection.prepareStatement(this.liveCountSql)) {
			select.setLong(1, maxWorkerId);
			try (ResultSet rows = select.executeQuery()) {
				rows.next();
				count = rows.getLong(1);
			}
		}
		List<String> holders = new ArrayList<>();
		try (PreparedStatement select = connection.prepareStatement(this.liveHoldersSql)) {
			select.setLong(1, maxWorkerId);
			try (ResultSet rows = select.executeQuery()) {
				while (rows.next()) {
					holders.add(rows.getString(1));
				}
			}
		}
		return new LiveLeases(count, holders);
	}

}
