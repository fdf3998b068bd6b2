package io.github.uidgen.segment.jdbc;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.LongUnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.TransactionException;
import org.springframework.transaction.support.TransactionCallback;

/**
 * Claims segments from a table of the application's database (MySQL, MariaDB or PostgreSQL), one row per key.
 *
 * <p>A claim is {@code UPDATE <table> SET max_id = max_id + ? WHERE segment_key = ?} followed by reading the new
 * {@code max_id}, in one transaction of its own ({@code REQUIRES_NEW}): the row lock serialises instances claiming
 * the same key, and a claim is committed when it returns even when the calling thread is inside a transaction that
 * later rolls back (joining that transaction would let a rollback hand the same range out twice). A key without a
 * row gets one, with {@code max_id} 0, in the same transaction. Every claim is bounded by a transaction timeout.
 *
 * <p>The table ({@code UID_SEGMENT} by default; DDL in {@code schema-mysql.sql} and {@code schema-postgresql.sql}
 * next to this class) is created at the first claim when {@link Builder#initializeSchema(boolean)} is set; when it
 * is missing otherwise, the claim fails with {@link SegmentTableMissingException}, which carries the DDL.
 *
 * <p>{@link #readKeys(int)} lists the rows for operators with plain {@code SELECT}s under the same timeout, taking no
 * lock a claim waits for.
 */
public final class JdbcSegmentStore implements SegmentStore {

	/** Default table name. */
	public static final String DEFAULT_TABLE = "UID_SEGMENT";

	/** Default limit on one claim. */
	public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(5);

	private final JdbcTemplate jdbcTemplate;

	private final JdbcClient jdbc;

	private final SegmentTransactions transactions;

	private final StoredKeysQuery keysQuery;

	private final String table;

	private final boolean initializeSchema;

	private volatile Statements statements;

	private JdbcSegmentStore(Builder builder) {
		this.jdbcTemplate = new JdbcTemplate(builder.dataSource);
		this.jdbc = JdbcClient.create(this.jdbcTemplate);
		this.transactions = new SegmentTransactions(this.jdbcTemplate, builder.timeout);
		this.keysQuery = new StoredKeysQuery(builder.dataSource, builder.timeout);
		this.table = builder.table;
		this.initializeSchema = builder.initializeSchema;
	}

	/**
	 * Starts building a store on a data source.
	 * @param dataSource the application's database
	 * @return a builder
	 */
	public static Builder builder(DataSource dataSource) {
		return new Builder(dataSource);
	}

	@Override
	public SegmentRange claim(String key, long size) {
		Statements sql = statements();
		// A deadlock or lock timeout between instances creating the same key's row at once is tried again.
		Long last = this.transactions.claim((status) -> advance(sql, key, size), (ex) -> translate(key, ex));
		if (last == null) {
			throw new SegmentStoreException("No max_id read back for key '" + key + "' from " + this.table);
		}
		return new SegmentRange(last - size + 1, last);
	}

	/** Moves the key's counter on by {@code size}, creating its row first when it has none; returns the new value. */
	private Long advance(Statements sql, String key, long size) {
		if (this.jdbc.sql(sql.advance).param(size).param(key).update() == 0) {
			this.jdbc.sql(sql.insertIfAbsent).param(key).update();
			if (this.jdbc.sql(sql.advance).param(size).param(key).update() != 1) {
				throw new SegmentStoreException("The row of key '" + key + "' in " + this.table
						+ " disappeared while it was claimed from");
			}
		}
		return this.jdbc.sql(sql.read).param(key).query(Long.class).single();
	}

	/**
	 * Reads every key's row: {@code max_id}, and {@code modified} as the last claim; no step, since the generators
	 * choose theirs. A table that is not there yet holds no keys when the store creates it at the first claim.
	 */
	@Override
	public Optional<StoredKeys> readKeys(int maxKeys) {
		SegmentDialect dialect = dialectForReading();
		String listing = "SELECT segment_key, max_id, NULL, " + dialect.millisOfWritten("modified") + " FROM "
				+ this.table + " ORDER BY segment_key LIMIT ?";
		try {
			return Optional.of(this.keysQuery.read(name(), this.table, listing, maxKeys, LongUnaryOperator.identity()));
		}
		catch (DataAccessException ex) {
			if (SqlFailures.isTableMissing(ex)) {
				if (this.initializeSchema) {
					return Optional.of(new StoredKeys(name(), this.table, 0, List.of()));
				}
				throw new SegmentTableMissingException(this.table, createTableSql(dialect) + ";", ex);
			}
			throw translate(null, ex);
		}
	}

	/** Returns the database's dialect without creating the table: a reading writes nothing. */
	private SegmentDialect dialectForReading() {
		Statements current = this.statements;
		if (current != null) {
			return current.dialect;
		}
		try {
			return this.transactions.dialect();
		}
		catch (DataAccessException | TransactionException ex) {
			throw translate(null, ex);
		}
	}

	@Override
	public String name() {
		return "db";
	}

	/**
	 * Returns the table segments are claimed from.
	 * @return the table name as configured
	 */
	public String table() {
		return this.table;
	}

	/** Detects the database once, creates the table when asked to, and prepares the statements. */
	private Statements statements() {
		Statements current = this.statements;
		if (current != null) {
			return current;
		}
		synchronized (this) {
			if (this.statements != null) {
				return this.statements;
			}
			SegmentDialect dialect;
			try {
				dialect = this.transactions.dialect();
				if (this.initializeSchema) {
					createTable(createTableSql(dialect));
				}
			}
			catch (DataAccessException | TransactionException ex) {
				throw translate(null, ex);
			}
			this.statements = new Statements(dialect, this.table);
			return this.statements;
		}
	}

	/**
	 * Runs {@code CREATE TABLE IF NOT EXISTS}, once more after a failure: instances starting together race to create
	 * the table, and PostgreSQL lets the loser fail even with {@code IF NOT EXISTS}.
	 */
	private void createTable(String ddl) {
		TransactionCallback<Object> create = (status) -> {
			this.jdbcTemplate.execute(ddl);
			return null;
		};
		try {
			this.transactions.execute(create);
		}
		catch (DataAccessException ex) {
			if (DatabaseReachability.isUnreachable(ex)) {
				throw ex;
			}
			SegmentTransactions.backOff(3);
			this.transactions.execute(create);
		}
	}

	/** Returns the shipped {@code CREATE TABLE} statement with the configured table name, without a semicolon. */
	String createTableSql(SegmentDialect dialect) {
		StringBuilder code = new StringBuilder();
		for (String line : load(dialect).split("\n")) {
			if (!line.trim().startsWith("--")) {
				code.append(line).append('\n');
			}
		}
		String statement = code.toString().strip();
		if (statement.endsWith(";")) {
			statement = statement.substring(0, statement.length() - 1);
		}
		return Pattern.compile("\\b" + DEFAULT_TABLE + "\\b")
			.matcher(statement)
			.replaceAll(Matcher.quoteReplacement(this.table));
	}

	private static String load(SegmentDialect dialect) {
		try (InputStream in = JdbcSegmentStore.class.getResourceAsStream(dialect.schemaResource())) {
			if (in == null) {
				throw new IllegalStateException("Missing resource " + dialect.schemaResource() + " next to "
						+ JdbcSegmentStore.class.getName());
			}
			return new String(in.readAllBytes(), StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** Turns a failure into what the generator reports: unreachable, table missing (with its DDL), or unusable. */
	private SegmentStoreException translate(String key, RuntimeException ex) {
		Statements current = this.statements;
		if (current != null && SqlFailures.isTableMissing(ex)) {
			return new SegmentTableMissingException(this.table, createTableSql(current.dialect) + ";", ex);
		}
		if (DatabaseReachability.isUnreachable(ex)) {
			return new SegmentStoreUnavailableException("Cannot reach the database that hands out uid segments ("
					+ ex.getMessage() + "); check that it runs and that the DataSource URL and credentials are right.",
					ex);
		}
		return new SegmentStoreException("The uid segment table " + this.table + " could not be used"
				+ ((key != null) ? " for key '" + key + "'" : "") + ": " + ex.getMessage(), ex);
	}

	@Override
	public String toString() {
		return "JdbcSegmentStore[table=" + this.table + "]";
	}

	/** The statements of one database and table. */
	private static final class Statements {

		final SegmentDialect dialect;

		final String advance;

		final String insertIfAbsent;

		final String read;

		Statements(SegmentDialect dialect, String table) {
			this.dialect = dialect;
			this.advance = "UPDATE " + table + " SET max_id = max_id + ?, modified = " + dialect.now()
					+ " WHERE segment_key = ?";
			this.insertIfAbsent = dialect.insertIfAbsent(table);
			this.read = "SELECT max_id FROM " + table + " WHERE segment_key = ?";
		}

	}

	/**
	 * Settings of a database segment store.
	 */
	public static final class Builder {

		private final DataSource dataSource;

		private String table = DEFAULT_TABLE;

		private boolean initializeSchema;

		private Duration timeout = DEFAULT_TIMEOUT;

		private Builder(DataSource dataSource) {
			if (dataSource == null) {
				throw new InvalidSettingException("dataSource", null, "pass the application's DataSource");
			}
			this.dataSource = dataSource;
		}

		/**
		 * Sets the table; {@code UID_SEGMENT} when not set.
		 * @param table letters, digits and underscores, optionally prefixed by a schema and a dot
		 * @return this builder
		 */
		public Builder table(String table) {
			this.table = SegmentTransactions.checkTable(table, null);
			return this;
		}

		/**
		 * Sets whether to create the table at the first claim when it does not exist.
		 * @param initializeSchema whether to create it
		 * @return this builder
		 */
		public Builder initializeSchema(boolean initializeSchema) {
			this.initializeSchema = initializeSchema;
			return this;
		}

		/**
		 * Sets how long one claim may take (a transaction timeout, in whole seconds rounded up), so that a database
		 * that hangs makes a claim fail instead of blocking it.
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
		public JdbcSegmentStore build() {
			return new JdbcSegmentStore(this);
		}

	}

}
