package io.github.uidgen.segment.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

import javax.sql.DataSource;

import io.github.uidgen.segment.SegmentRange;

/**
 * Claims segments from {@code leaf_alloc} exactly as a Leaf server does (its {@code IDAllocMapper} statements, run the
 * way {@code IDAllocDaoImpl} runs them: a session without auto-commit, the update, the select, a commit), and works out
 * the segment as {@code SegmentIDGenImpl.updateSegmentFromDb} does: {@code max_id - step .. max_id - 1}.
 */
final class LeafProtocolClaimer {

	private final DataSource dataSource;

	private final String updateMaxId;

	private final String updateMaxIdByCustomStep;

	private final String getLeafAlloc;

	LeafProtocolClaimer(DataSource dataSource, String table) {
		this.dataSource = dataSource;
		this.updateMaxId = "UPDATE " + table + " SET max_id = max_id + step WHERE biz_tag = ?";
		this.updateMaxIdByCustomStep = "UPDATE " + table + " SET max_id = max_id + ? WHERE biz_tag = ?";
		this.getLeafAlloc = "SELECT biz_tag, max_id, step FROM " + table + " WHERE biz_tag = ?";
	}

	/**
	 * Leaf's first claim of a tag (and the one after its step was reset): {@code updateMaxIdAndGetLeafAlloc}; the
	 * segment is as long as the row's step.
	 * @param tag the biz_tag
	 * @return the segment and the row's step, as read
	 */
	Claim claimWithRowStep(String tag) throws SQLException {
		try (Connection connection = this.dataSource.getConnection()) {
			connection.setAutoCommit(false);
			try (PreparedStatement update = connection.prepareStatement(this.updateMaxId)) {
				update.setString(1, tag);
				update.executeUpdate();
			}
			long[] row = read(connection, tag);
			connection.commit();
			return new Claim(new SegmentRange(row[0] - row[1], row[0] - 1), row[1]);
		}
	}

	/**
	 * Leaf's adaptive claim: {@code updateMaxIdByCustomStepAndGetLeafAlloc} with the step Leaf chose.
	 * @param tag the biz_tag
	 * @param step the step Leaf's buffer moved to
	 * @return the segment and the row's step, as read
	 */
	Claim claimWithStep(String tag, int step) throws SQLException {
		try (Connection connection = this.dataSource.getConnection()) {
			connection.setAutoCommit(false);
			try (PreparedStatement update = connection.prepareStatement(this.updateMaxIdByCustomStep)) {
				update.setInt(1, step);
				update.setString(2, tag);
				update.executeUpdate();
			}
			long[] row = read(connection, tag);
			connection.commit();
			return new Claim(new SegmentRange(row[0] - step, row[0] - 1), row[1]);
		}
	}

	private long[] read(Connection connection, String tag) throws SQLException {
		try (PreparedStatement select = connection.prepareStatement(this.getLeafAlloc)) {
			select.setString(1, tag);
			try (ResultSet result = select.executeQuery()) {
				if (!result.next()) {
					throw new SQLException("no row for " + tag);
				}
				return new long[] { result.getLong("max_id"), result.getLong("step") };
			}
		}
	}

	/** A segment a Leaf server claimed, and the step column it read. */
	record Claim(SegmentRange range, long rowStep) {
	}

}
