package io.github.uidgen.segment.jdbc;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.LongUnaryOperator;

import javax.sql.DataSource;

import io.github.uidgen.segment.StoredKey;
import io.github.uidgen.segment.StoredKeys;

import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Reads what a database segment store holds, for operators: the first keys in key order (the order of the table's
 * primary key, under the database's collation) and how many there are. Two plain {@code SELECT}s, each bounded by a
 * query timeout and run outside the store's transactions: InnoDB and PostgreSQL answer them from a snapshot without
 * row locks, so a claim never waits on a reading, nor a reading on a claim.
 */
final class StoredKeysQuery {

	private final JdbcTemplate jdbcTemplate;

	/**
	 * Prepares the reading.
	 * @param dataSource the store's database
	 * @param timeout the limit on each statement, in whole seconds rounded up
	 */
	StoredKeysQuery(DataSource dataSource, Duration timeout) {
		this.jdbcTemplate = new JdbcTemplate(dataSource);
		this.jdbcTemplate.setQueryTimeout((int) Math.max(1, (timeout.toMillis() + 999) / 1000));
	}

	/**
	 * Reads the keys of a table.
	 * @param store the store's name
	 * @param table the table
	 * @param listing a {@code SELECT} of key, counter, step (or {@code NULL}) and last claim in epoch milliseconds (or
	 * {@code NULL}), ordered by key, ending in {@code LIMIT ?}
	 * @param maxKeys how many keys to list at most; none when not positive
	 * @param toMaxId turns the counter column into the last number handed out
	 * @return the keys
	 * @throws org.springframework.dao.DataAccessException when the database cannot answer
	 */
	StoredKeys read(String store, String table, String listing, int maxKeys, LongUnaryOperator toMaxId) {
		List<StoredKey> keys = (maxKeys > 0)
				? this.jdbcTemplate.query(listing, (rs, rowNum) -> key(rs, toMaxId), maxKeys) : List.of();
		// Counted after listing: keys are only ever added, so the count covers every key listed.
		Long count = this.jdbcTemplate.queryForObject("SELECT COUNT(*) FROM " + table, Long.class);
		return new StoredKeys(store, table, Math.max((count != null) ? count : 0, keys.size()), keys);
	}

	private static StoredKey key(ResultSet rs, LongUnaryOperator toMaxId) throws SQLException {
		String key = rs.getString(1);
		long counter = rs.getLong(2);
		long step = rs.getLong(3);
		Long stepOrNull = rs.wasNull() ? null : step;
		long millis = rs.getLong(4);
		Instant lastClaim = rs.wasNull() ? null : Instant.ofEpochMilli(millis);
		return new StoredKey(key, toMaxId.applyAsLong(counter), stepOrNull, lastClaim);
	}

}
