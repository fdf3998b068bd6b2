package io.github.uidgen.segment.jdbc;

import java.sql.ResultSetMetaData;
import java.sql.Types;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import javax.sql.DataSource;

import io.github.uidgen.InvalidSettingException;
import io.github.uidgen.jdbc.DatabaseReachability;
import io.github.uidgen.segment.SegmentRange;
import io.github.uidgen.segment.SegmentStore;
import io.github.uidgen.segment.SegmentStoreException;
import io.github.uidgen.segment.SegmentStoreUnavailableException;
import io.github.uidgen.segment.StoredKeys;

import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.ResultSetExtractor;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.TransactionException;

/**
 * Claims segments from Meituan Leaf's own {@code leaf_alloc} table, with Leaf's arithmetic, so that Leaf servers and
 * uid instances hand out numbers from the same rows side by side, during a rolling replacement and after it.
 *
 * <p>A row is {@code (biz_tag, max_id, step, description, update_time)}; {@code max_id} is the next number nobody
 * owns: a claim of {@code n} numbers moves it from {@code m} to {@code m + n} and owns {@code m .. m + n - 1}, as
 * Leaf's {@code SegmentIDGenImpl} does (a new row's {@code max_id} 1 makes the first number 1). A claim is, in one transaction of its own ({@code REQUIRES_NEW}),
 * {@code UPDATE leaf_alloc SET max_id = max_id + GREATEST(step, ?) WHERE biz_tag = ?} and
 * {@code SELECT max_id, step FROM leaf_alloc WHERE biz_tag = ?}: a relative increment under the row lock, read back
 * before the lock is let go, like Leaf's {@code updateMaxIdAndGetLeafAlloc}. The {@code step} column is never written
 * and is honoured as the smallest step, as Leaf honours it: a generator asking for fewer numbers gets {@code step}.
 *
 * <p>Unlike the {@code db} store, a key without a row is never created: Leaf's operators create rows, and a typo must
 * not start a new sequence at 1. The claim fails with {@link LeafAllocRowException} carrying the {@code INSERT}; a row
 * inserted later is claimed from at the next attempt, without a restart. So does a row whose {@code step} is not
 * positive, rolled back so nothing is claimed. A table that is missing or not shaped like Leaf's fails with
 * {@link LeafAllocTableException}. Every claim is bounded by a transaction timeout.
 *
 * <p>{@link #readKeys(int)} lists the rows for operators with plain {@code SELECT}s under the same timeout, taking no
 * lock a claim (uid's or a Leaf server's) waits for.
 */
public final class LeafAllocSegmentStore implements SegmentStore {

	/** Leaf's table name. */
	public static final String DEFAULT_TABLE = "leaf_alloc";

	/** Default limit on one claim. */
	public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(5);

	private final JdbcTemplate jdbcTemplate;

	private final JdbcClient jdbc;

	private final SegmentTransactions transactions;

	private final StoredKeysQuery keysQuery;

	private final String table;

	private final String advance;

	private final String read;

	private volatile SegmentDialect checkedDialect;

	/** Whether the table has Leaf's {@code update_time}; set before {@link #checkedDialect}. */
	private volatile boolean updateTimeColumn;

	private LeafAllocSegmentStore(Builder builder) {
		this.jdbcTemplate = new JdbcTemplate(builder.dataSource);
		this.jdbc = JdbcClient.create(this.jdbcTemplate);
		this.transactions = new SegmentTransactions(this.jdbcTemplate, builder.timeout);
		this.keysQuery = new StoredKeysQuery(builder.dataSource, builder.timeout);
		this.table = builder.table;
		this.advance = "UPDATE " + this.table + " SET max_id = max_id + GREATEST(step, ?) WHERE biz_tag = ?";
		this.read = "SELECT max_id, step FROM " + this.table + " WHERE biz_tag = ?";
	}

	/**
	 * Starts building a store on a data source.
	 * @param dataSource the database that holds Leaf's table
	 * @return a builder
	 */
	public static Builder builder(DataSource dataSource) {
		return new Builder(dataSource);
	}

	@Override
	public SegmentRange claim(String key, long size) {
		checkTable();
		SegmentRange range = this.transactions.claim((status) -> advance(key, size), (ex) -> translate(key, ex));
		if (range == null) {
			throw new SegmentStoreException("No max_id read back for biz_tag '" + key + "' from " + this.table);
		}
		return range;
	}

	/** Leaf's claim: a relative increment, read back under the same row lock; fails (rolled back) on a bad row. */
	private SegmentRange advance(String key, long size) {
		if (this.jdbc.sql(this.advance).param(size).param(key).update() == 0) {
			throw new LeafAllocRowException(this.table, key, "There is no row for biz_tag '" + key + "' in "
					+ this.table + ", the Leaf table uid segments of key '" + key + "' are claimed from.",
					insertStatement(key, size));
		}
		long[] row = this.jdbc.sql(this.read)
			.param(key)
			.query((rs, rowNum) -> new long[] { rs.getLong(1), rs.getLong(2) })
			.single();
		long maxId = row[0];
		long step = row[1];
		if (step <= 0) {
			throw new LeafAllocRowException(this.table, key, "The row of biz_tag '" + key + "' in " + this.table
					+ " has step " + step + "; Leaf and uid need a positive step (the smallest segment).",
					"UPDATE " + this.table + " SET step = 1000 WHERE biz_tag = " + quote(key) + ";");
		}
		long claimed = Math.max(size, step);
		return new SegmentRange(maxId - claimed, maxId - 1);
	}

	private String insertStatement(String key, long size) {
		return "INSERT INTO " + this.table + " (biz_tag, max_id, step, description) VALUES (" + quote(key) + ", 1, "
				+ size + ", " + quote("uid segment key " + key) + ");";
	}

	private static String quote(String value) {
		return "'" + value.replace("'", "''") + "'";
	}

	/**
	 * Reads every row: {@code biz_tag}, the last number handed out ({@code max_id - 1}, since Leaf's {@code max_id} is
	 * the next number nobody owns), {@code step}, and {@code update_time} as the last claim ({@code null} when the
	 * table has no such column). Leaf's MySQL DDL moves {@code update_time} at every claim
	 * ({@code ON UPDATE CURRENT_TIMESTAMP}); on PostgreSQL only a trigger of the deployment's own moves it.
	 */
	@Override
	public Optional<StoredKeys> readKeys(int maxKeys) {
		SegmentDialect dialect = checkTable();
		String lastClaim = this.updateTimeColumn ? dialect.millisOfTimestamp("update_time") : "NULL";
		String listing = "SELECT biz_tag, max_id, step, " + lastClaim + " FROM " + this.table
				+ " ORDER BY biz_tag LIMIT ?";
		try {
			return Optional.of(this.keysQuery.read(name(), this.table, listing, maxKeys, (maxId) -> maxId - 1));
		}
		catch (DataAccessException ex) {
			throw translate(null, ex);
		}
	}

	@Override
	public String name() {
		return "leaf";
	}

	/**
	 * Returns the table segments are claimed from.
	 * @return the table name as configured
	 */
	public String table() {
		return this.table;
	}

	/**
	 * Checks now, rather than at the first claim, that the table exists with Leaf's columns: an application that
	 * claims no segment at start (segment numbers beside a Snowflake generator) still refuses a wrong table then.
	 * @throws LeafAllocTableException when the table is missing or not shaped like Leaf's
	 * @throws SegmentStoreException when the database cannot be asked; the check is made again at the first claim
	 */
	public void verifyTable() {
		checkTable();
	}

	/**
	 * Checks once that the table exists with Leaf's columns; again at the next claim when it did not, so a table
	 * created while the application runs is picked up.
	 * @return the database's dialect
	 */
	private SegmentDialect checkTable() {
		SegmentDialect checked = this.checkedDialect;
		if (checked != null) {
			return checked;
		}
		synchronized (this) {
			if (this.checkedDialect != null) {
				return this.checkedDialect;
			}
			SegmentDialect dialect;
			Map<String, Integer> columns;
			try {
				dialect = this.transactions.dialect();
			}
			catch (DataAccessException | TransactionException ex) {
				throw translate(null, ex);
			}
			try {
				columns = this.transactions.execute((status) -> this.jdbcTemplate
					.query("SELECT * FROM " + this.table + " WHERE 1 = 0", columnTypes()));
			}
			catch (DataAccessException | TransactionException ex) {
				if (SqlFailures.isTableMissing(ex)) {
					throw new LeafAllocTableException(this.table, "The Leaf table " + this.table + " does not exist "
							+ "in the application's database. Point uid.segment.leaf.table at the leaf_alloc table of "
							+ "the Leaf deployment, or create it as Leaf's scripts/leaf_alloc.sql does:\n\n"
							+ leafDdl(dialect), ex);
				}
				throw translate(null, ex);
			}
			String problem = shapeProblem(columns);
			if (problem != null) {
				throw new LeafAllocTableException(this.table, "The table " + this.table + " is not Leaf's leaf_alloc: "
						+ problem + " (columns found: " + columns.keySet() + "). Point uid.segment.leaf.table at the "
						+ "leaf_alloc table of the Leaf deployment, whose rows are (biz_tag varchar, max_id bigint, "
						+ "step int, description, update_time).", null);
			}
			this.updateTimeColumn = columns.containsKey("update_time");
			this.checkedDialect = dialect;
			return dialect;
		}
	}

	private static ResultSetExtractor<Map<String, Integer>> columnTypes() {
		return (rs) -> {
			ResultSetMetaData meta = rs.getMetaData();
			Map<String, Integer> types = new LinkedHashMap<>();
			for (int i = 1; i <= meta.getColumnCount(); i++) {
				types.put(meta.getColumnLabel(i).toLowerCase(Locale.ROOT), meta.getColumnType(i));
			}
			return types;
		};
	}

	/** Returns what keeps the columns from being Leaf's, or {@code null} when they are. */
	private static String shapeProblem(Map<String, Integer> columns) {
		Integer tag = columns.get("biz_tag");
		Integer maxId = columns.get("max_id");
		Integer step = columns.get("step");
		if (tag == null || maxId == null || step == null) {
			return "it has no " + ((tag == null) ? "biz_tag" : (maxId == null) ? "max_id" : "step") + " column";
		}
		if (tag != Types.VARCHAR && tag != Types.CHAR && tag != Types.NVARCHAR && tag != Types.NCHAR
				&& tag != Types.LONGVARCHAR) {
			return "its biz_tag column is not a character column";
		}
		if (maxId != Types.BIGINT) {
			return "its max_id column is not a bigint, so it cannot hold 64-bit numbers";
		}
		if (step != Types.INTEGER && step != Types.BIGINT && step != Types.SMALLINT && step != Types.TINYINT) {
			return "its step column is not an integer column";
		}
		return null;
	}

	/** Leaf's DDL, as in its scripts/leaf_alloc.sql, and the same for PostgreSQL. */
	private String leafDdl(SegmentDialect dialect) {
		if (dialect == SegmentDialect.POSTGRESQL) {
			return "CREATE TABLE " + this.table + " (\n  biz_tag varchar(128) NOT NULL DEFAULT '' PRIMARY KEY,\n"
					+ "  max_id bigint NOT NULL DEFAULT 1,\n  step int NOT NULL,\n  description varchar(256) DEFAULT NULL,"
					+ "\n  update_time timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP\n);";
		}
		return "CREATE TABLE `" + this.table + "` (\n  `biz_tag` varchar(128) NOT NULL DEFAULT '',\n"
				+ "  `max_id` bigint(20) NOT NULL DEFAULT '1',\n  `step` int(11) NOT NULL,\n"
				+ "  `description` varchar(256) DEFAULT NULL,\n"
				+ "  `update_time` timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP,\n"
				+ "  PRIMARY KEY (`biz_tag`)\n) ENGINE=InnoDB;";
	}

	private SegmentStoreException translate(String key, RuntimeException ex) {
		if (ex instanceof SegmentStoreException segmentStoreException) {
			return segmentStoreException;
		}
		if (DatabaseReachability.isUnreachable(ex)) {
			return new SegmentStoreUnavailableException("Cannot reach the database that holds the Leaf table "
					+ this.table + " (" + ex.getMessage() + "); check that it runs and that the DataSource URL and "
					+ "credentials are right.", ex);
		}
		if (SqlFailures.isTableMissing(ex)) {
			// Dropped or renamed after it was checked: check it again at the next claim.
			this.checkedDialect = null;
		}
		return new SegmentStoreException("The Leaf table " + this.table + " could not be used"
				+ ((key != null) ? " for biz_tag '" + key + "'" : "") + ": " + ex.getMessage(), ex);
	}

	@Override
	public String toString() {
		return "LeafAllocSegmentStore[table=" + this.table + "]";
	}

	/**
	 * Settings of a Leaf-table segment store.
	 */
	public static final class Builder {

		private final DataSource dataSource;

		private String table = DEFAULT_TABLE;

		private Duration timeout = DEFAULT_TIMEOUT;

		private Builder(DataSource dataSource) {
			if (dataSource == null) {
				throw new InvalidSettingException("dataSource", null, "pass the DataSource that holds Leaf's table");
			}
			this.dataSource = dataSource;
		}

		/**
		 * Sets the table; {@value #DEFAULT_TABLE} when not set.
		 * @param table letters, digits and underscores, optionally prefixed by a schema and a dot
		 * @return this builder
		 */
		public Builder table(String table) {
			this.table = SegmentTransactions.checkTable(table, DEFAULT_TABLE);
			return this;
		}

		/**
		 * Sets how long one claim may take (a transaction timeout, in whole seconds rounded up).
		 * @param timeout a positive duration
		 * @return this builder
		 */
		public Builder timeout(Duration timeout) {
			this.timeout = SegmentTransactions.checkTimeout(timeout);
			return this;
		}

		/**
		 * Builds the store; it touches the database at its first claim.
		 * @return the store
		 */
		public LeafAllocSegmentStore build() {
			return new LeafAllocSegmentStore(this);
		}

	}

}
