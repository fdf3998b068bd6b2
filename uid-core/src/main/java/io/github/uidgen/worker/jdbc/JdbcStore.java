package io.github.uidgen.worker.jdbc;

import java.net.SocketTimeoutException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Locale;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;

import javax.sql.DataSource;

import io.github.uidgen.jdbc.DatabaseReachability;
import io.github.uidgen.worker.WorkerAssignmentException;
import io.github.uidgen.worker.WorkerStoreUnavailableException;
import io.github.uidgen.worker.WorkerTableMissingException;
import io.github.uidgen.worker.support.ClaimBackOff;

import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.BadSqlGrammarException;
import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.support.JdbcTransactionManager;
import org.springframework.jdbc.support.SQLExceptionSubclassTranslator;
import org.springframework.jdbc.support.SQLExceptionTranslator;
import org.springframework.transaction.CannotCreateTransactionException;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.TransactionException;
import org.springframework.transaction.TransactionSystemException;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The database table a db assigner works on, through spring-jdbc: every piece of work runs in a short READ COMMITTED
 * transaction of its own ({@code REQUIRES_NEW}, on a transaction manager of the store's own, on connections whose
 * round trips are bounded), so a claim or a mark is committed when the call returns, whatever transaction the caller
 * is in; a single statement on the periodic path runs committed on its own instead ({@link #callAlone}). Also
 * detects the database at first use, creates the table when asked to, and turns Spring's {@link DataAccessException}s
 * into the assigner's exceptions; commit and rollback failures are translated too.
 */
final class JdbcStore {

	/**
	 * Sets READ COMMITTED for the transaction it begins, and for no other: one statement, where Spring's isolation
	 * level costs MySQL Connector/J three (the session's level read, set, and set back after the commit) around every
	 * claim and release. MySQL and MariaDB apply it to the next transaction, PostgreSQL to the one it opens. Claims
	 * need the level: their locking reads release the rows that do not match at once, where REPEATABLE READ keeps
	 * them locked, and with them the renewals of their holders, until the claim commits.
	 */
	private static final String READ_COMMITTED = "SET TRANSACTION ISOLATION LEVEL READ COMMITTED";

	/** MariaDB's {@code ER_STATEMENT_TIMEOUT}: the statement ran past its {@code max_statement_time}. */
	private static final int MARIADB_STATEMENT_TIMEOUT = 1969;

	private final String defaultTable;

	private final String table;

	private final boolean initializeSchema;

	private final Duration roundTripTimeout;

	/** Where the round trip's bound comes from, for messages: a setting, or the assigner's own constant. */
	private final String roundTripTimeoutSource;

	private final TransactionTemplate transactions;

	/** A scope without a transaction, which holds one connection for the statements run in it. */
	private final TransactionTemplate withoutTransaction;

	private final JdbcTemplate jdbcTemplate;

	private final JdbcClient jdbc;

	private volatile SqlDialect dialect;

	/** How claims lock rows there, told with the dialect. */
	private volatile RowLocking rowLocking = RowLocking.WAITING;

	/** The tables named after the store's that its first look at a table listed (see {@link #found}). */
	private volatile Set<String> listedAtFirstLook;

	/**
	 * Creates the store of one table.
	 * @param dataSource the database
	 * @param defaultTable the name the shipped DDL uses for the table
	 * @param table the configured name, already validated
	 * @param initializeSchema whether to create the table at first use when missing
	 * @param roundTripTimeout how long any one database round trip may take
	 * @param roundTripTimeoutSource where that bound comes from, for messages
	 */
	JdbcStore(DataSource dataSource, String defaultTable, String table, boolean initializeSchema,
			Duration roundTripTimeout, String roundTripTimeoutSource) {
		this(dataSource, null, defaultTable, table, initializeSchema, roundTripTimeout, roundTripTimeoutSource);
	}

	/**
	 * Creates the store of one table, which opens connections of its own while the pool cannot hand them out (see
	 * {@link PoolOrDirectDataSource}).
	 * @param dataSource the database, usually a pool
	 * @param direct connections to the same database without the pool, or {@code null} to use the pool alone
	 * @param defaultTable the name the shipped DDL uses for the table
	 * @param table the configured name, already validated
	 * @param initializeSchema whether to create the table at first use when missing
	 * @param roundTripTimeout how long any one database round trip may take, and a call wait for the pool's
	 * connection before later calls open their own
	 * @param roundTripTimeoutSource where that bound comes from, for messages
	 */
	JdbcStore(DataSource dataSource, DataSource direct, String defaultTable, String table, boolean initializeSchema,
			Duration roundTripTimeout, String roundTripTimeoutSource) {
		this.defaultTable = defaultTable;
		this.table = table;
		this.initializeSchema = initializeSchema;
		this.roundTripTimeout = roundTripTimeout;
		this.roundTripTimeoutSource = roundTripTimeoutSource;
		DataSource routed = (direct != null) ? new PoolOrDirectDataSource(dataSource, direct, roundTripTimeout)
				: dataSource;
		DataSource bounded = new BoundedRoundTripDataSource(routed, roundTripTimeout);
		// By JDBC exception subclass and SQLState class: portable, and no metadata round trip to pick error codes.
		SQLExceptionTranslator translator = new SQLExceptionSubclassTranslator();
		JdbcTransactionManager transactionManager = new JdbcTransactionManager(bounded);
		transactionManager.setExceptionTranslator(translator);
		// A commit that failed on a connection that still works leaves the transaction open, and a pool that sets
		// auto-commit back on as the connection returns commits it then: a claim reported failed would hold its row.
		transactionManager.setRollbackOnCommitFailure(true);
		this.transactions = new TransactionTemplate(transactionManager);
		// READ COMMITTED comes from the transaction's first statement (see inTransaction), not from Spring.
		this.transactions.setPropagationBehavior(TransactionDefinition.PROPAGATION_REQUIRES_NEW);
		this.withoutTransaction = new TransactionTemplate(transactionManager);
		this.withoutTransaction.setPropagationBehavior(TransactionDefinition.PROPAGATION_NOT_SUPPORTED);
		this.jdbcTemplate = new JdbcTemplate(bounded);
		this.jdbcTemplate.setExceptionTranslator(translator);
		this.jdbc = JdbcClient.create(this.jdbcTemplate);
	}

	String table() {
		return this.table;
	}

	/**
	 * Runs work in a transaction of its own, committed when the work returns and rolled back when it throws.
	 * @param work the statements
	 * @return what the work returns
	 * @throws DataAccessException as Spring translated it, for callers that react to contention
	 * @throws CannotCreateTransactionException when no connection can be had
	 */
	<T> T inTransaction(Function<JdbcClient, T> work) {
		return this.transactions.execute((status) -> {
			this.jdbc.sql(READ_COMMITTED).update();
			return work.apply(this.jdbc);
		});
	}

	/**
	 * Runs work in a transaction of its own, and failures as {@link #translate} turns them.
	 * @param work the statements
	 * @return what the work returns
	 */
	<T> T call(Function<JdbcClient, T> work) {
		try {
			return inTransaction(work);
		}
		catch (RuntimeException ex) {
			throw translate(ex);
		}
	}

	/**
	 * Runs one statement committed on its own: on a connection in auto-commit, the pool's default, the statement is
	 * the only thing sent. Every instance renews its lease every period, which at fleet scale is most of what the
	 * database does for uid, and a transaction of its own costs MySQL and MariaDB four statements besides the one (the
	 * isolation level set, auto-commit switched off and on again, the commit); a single statement
	 * is atomic without them, and an {@code UPDATE} of one row by its key reads the row's latest committed version
	 * at the databases' default levels (READ COMMITTED, and MySQL's REPEATABLE READ). A pool set to PostgreSQL's
	 * REPEATABLE READ or SERIALIZABLE makes a renewal that races a claimant taking its expired lease fail as a
	 * serialization error rather than as a lost lease; the next renewal finds the lease lost. Where the pool hands
	 * out connections with auto-commit off (as {@code spring.datasource.hikari.auto-commit=false} does, common with
	 * JPA), which the connection tells without a round trip (the MySQL, MariaDB and PostgreSQL drivers keep it,
	 * HikariCP passes it on), the statement is committed before the connection goes back, or rolled back when
	 * it fails, so nothing is left open; the connection keeps its auto-commit setting. The connection's round trips
	 * are bounded and routed as for {@link #call}, and failures are turned by {@link #translate}. A caller in a
	 * transaction of Spring's own (never the mark keeper, which renews on threads of its own) gets {@link #call}:
	 * the connection would otherwise join that transaction's synchronization and go back to the pool only when it
	 * ends. Work of more than one statement keeps {@link #call}.
	 * @param statement the one statement
	 * @return what the statement returns
	 */
	<T> T callAlone(Function<JdbcClient, T> statement) {
		if (TransactionSynchronizationManager.isSynchronizationActive()) {
			return call(statement);
		}
		try {
			// The scope binds the connection that the callback gets to the thread, so the statement runs on it too.
			return this.withoutTransaction.execute((status) -> this.jdbcTemplate
				.execute((ConnectionCallback<T>) (connection) -> runAlone(connection, statement)));
		}
		catch (RuntimeException ex) {
			throw translate(ex);
		}
	}

	private <T> T runAlone(Connection connection, Function<JdbcClient, T> statement) throws SQLException {
		if (connection.getAutoCommit()) {
			return statement.apply(this.jdbc);
		}
		T result;
		try {
			result = statement.apply(this.jdbc);
		}
		catch (RuntimeException ex) {
			try {
				connection.rollback();
			}
			catch (SQLException rollbackFailure) {
				ex.addSuppressed(rollbackFailure);
			}
			throw ex;
		}
		connection.commit();
		return result;
	}

	/** Detects the database once and creates the table when asked to. */
	SqlDialect dialect() {
		SqlDialect current = this.dialect;
		if (current != null) {
			return current;
		}
		synchronized (this) {
			if (this.dialect != null) {
				return this.dialect;
			}
			try {
				current = onConnection((connection) -> {
					this.rowLocking = RowLocking.of(connection.getMetaData(), this.roundTripTimeout);
					return SqlDialect.of(connection.getMetaData());
				});
				if (this.initializeSchema) {
					createTableIfMissing(current, this.defaultTable, this.table);
				}
			}
			catch (DataAccessException | TransactionException ex) {
				throw DatabaseReachability.isUnreachable(ex) ? unavailable(ex)
						: new WorkerAssignmentException("Cannot prepare the uid worker ID tables: " + detail(ex), ex);
			}
			this.dialect = current;
			return current;
		}
	}

	/** Tells how claims lock rows in the database; detected with the dialect. */
	RowLocking rowLocking() {
		dialect();
		return this.rowLocking;
	}

	/**
	 * Makes sure a further table of the store (one the shipped DDL names {@code defaultTable}) is there: creates it
	 * when schema initialisation is on, else asks the database's metadata.
	 * @param defaultTable the name the shipped DDL uses
	 * @param table the configured name, already validated
	 * @return whether the table exists
	 */
	boolean prepareTable(String defaultTable, String table) {
		SqlDialect current = dialect();
		try {
			if (this.initializeSchema) {
				createTableIfMissing(current, defaultTable, table);
				return true;
			}
			return Boolean.TRUE.equals(onConnection((connection) -> found(connection, table)));
		}
		catch (DataAccessException | TransactionException ex) {
			throw DatabaseReachability.isUnreachable(ex) ? unavailable(ex)
					: new WorkerAssignmentException("Cannot prepare the uid table " + table + ": " + detail(ex), ex);
		}
	}

	/**
	 * Returns the statement that creates a table of the store, for the database in use.
	 * @param defaultTable the name the shipped DDL uses
	 * @param table the configured name
	 * @return the DDL, with a trailing semicolon
	 */
	String ddl(String defaultTable, String table) {
		return SchemaScript.createTable(dialect(), defaultTable, table) + ";";
	}

	/**
	 * Creates a table unless the database's metadata lists it already. {@code CREATE TABLE IF NOT EXISTS} of a table
	 * in use is not free: MariaDB makes it wait for a metadata lock that every open transaction on the table holds,
	 * and every later statement on the table waits behind it (of a fleet of 1,000 starting together, 308 such
	 * statements waited at once, 4.7 s each on average, and held up the claims and renewals behind them). The first
	 * start that finds the table missing takes a lock named after it ({@link #schemaLockName}), looks again holding
	 * it and creates it: 40 first starts of 1,000 on a new table each ran the statement once the table was there,
	 * and the claims behind them waited up to 18 s. The others, finding the lock held, wait for its release without
	 * keeping it, and find the table made: taking turns on it, each looking again while holding it, kept up to 181
	 * starts of 1,000 waiting one behind another, up to 6.9 s (MariaDB with a pool of threads). Only where the table
	 * is still missing after the wait (the start that held the lock could not create it) does a start take the lock
	 * and create it itself.
	 */
	private void createTableIfMissing(SqlDialect dialect, String defaultTable, String table) {
		if (Boolean.TRUE.equals(onConnection((connection) -> found(connection, table)))) {
			return;
		}
		String ddl = SchemaScript.createTable(dialect, defaultTable, table);
		String lockName = schemaLockName(table);
		int lockSeconds = (int) Math.max(1, this.roundTripTimeout.toSeconds() - 1);
		onConnection((connection) -> {
			boolean locked = dialect.tryLock(connection, lockName);
			if (!locked) {
				dialect.awaitRelease(connection, lockName, lockSeconds);
				if (TableName.exists(connection, table)) {
					return null;
				}
				locked = dialect.lock(connection, lockName, lockSeconds);
			}
			try {
				if (!TableName.exists(connection, table)) {
					createTable(connection, ddl);
				}
			}
			finally {
				if (locked) {
					dialect.unlock(connection, lockName);
				}
			}
			return null;
		});
	}

	/**
	 * Tells whether a table of the store is there. The store's first look lists every table named after the store's
	 * own in one read of the database's metadata, the lease table's claim history among them, and answers from it;
	 * later looks answer from that list for a table it has, and ask the database for one it has not, which may have
	 * been created since: every start of a fleet looked for each of its two tables in a read of its own.
	 */
	private boolean found(Connection connection, String table) throws SQLException {
		Set<String> listed = this.listedAtFirstLook;
		if (listed == null) {
			listed = TableName.namedAfter(connection, this.table);
			this.listedAtFirstLook = listed;
			return listed.contains(table.toLowerCase(Locale.ROOT));
		}
		return listed.contains(table.toLowerCase(Locale.ROOT)) || TableName.exists(connection, table);
	}

	/**
	 * Names the database lock that starts creating a table take turns on: short enough for MySQL's 64 characters,
	 * whatever the table's name.
	 */
	static String schemaLockName(String table) {
		return "uid-create-" + Integer.toHexString(table.toLowerCase(Locale.ROOT).hashCode());
	}

	/**
	 * Runs {@code CREATE TABLE IF NOT EXISTS} and commits it, once more after a failure: where the named lock was
	 * not had in time, instances starting together race to create the table, and PostgreSQL lets the loser fail even
	 * with {@code IF NOT EXISTS}.
	 */
	private static void createTable(Connection connection, String ddl) throws SQLException {
		try {
			execute(connection, ddl);
		}
		catch (SQLException ex) {
			if (!connection.getAutoCommit()) {
				connection.rollback();
			}
			ClaimBackOff.pause(5);
			execute(connection, ddl);
		}
	}

	private static void execute(Connection connection, String ddl) throws SQLException {
		try (Statement statement = connection.createStatement()) {
			statement.execute(ddl);
		}
		if (!connection.getAutoCommit()) {
			connection.commit();
		}
	}

	/**
	 * Turns a failure of work on the table into the exception the assigner throws: the store is unreachable, the
	 * table is missing (with the DDL to run), or the table could not be used; the assigner's own exceptions pass.
	 * @param ex what the work threw
	 * @return the exception to throw
	 */
	RuntimeException translate(RuntimeException ex) {
		SQLException stopped = stoppedByTheServer(ex);
		if (stopped != null) {
			return new WorkerStoreUnavailableException("The database that hands out uid worker IDs stopped a statement "
					+ "of uid's that ran for " + RowLocking.serverBoundSeconds(this.roundTripTimeout) + " s, the bound "
					+ "uid sets on it within the round trip's (" + this.roundTripTimeoutSource + "): "
					+ stopped.getMessage() + "; the call is retried. Check the database's load, locks held on "
					+ this.table + " and the network.", ex);
		}
		Throwable timeout = roundTripTimeout(ex);
		if (timeout != null) {
			return new WorkerStoreUnavailableException("The database that hands out uid worker IDs did not answer "
					+ "within " + this.roundTripTimeout.toMillis() + " ms, the bound uid sets on each of its round "
					+ "trips (" + this.roundTripTimeoutSource + "), and the driver closed the connection ("
					+ timeout.getMessage() + "); the call is retried. Check the database's load, locks held on "
					+ this.table + " and the network.", ex);
		}
		if (DatabaseReachability.isUnreachable(ex)) {
			return unavailable(ex);
		}
		if (ex instanceof BadSqlGrammarException && !tableExists()) {
			return new WorkerTableMissingException(this.table,
					SchemaScript.createTable(this.dialect, this.defaultTable, this.table) + ";", ex);
		}
		if (ex instanceof DataAccessException || ex instanceof TransactionException) {
			return new WorkerAssignmentException("The uid worker ID table " + this.table + " could not be used: "
					+ detail(ex), ex);
		}
		return ex;
	}

	/**
	 * Asks the database's metadata whether the table exists, after a statement on it was refused.
	 * @return whether it does, {@code true} when that cannot be told, so the refusal is reported as it was
	 */
	private boolean tableExists() {
		try {
			return Boolean.TRUE.equals(onConnection((connection) -> TableName.exists(connection, this.table)));
		}
		catch (RuntimeException ex) {
			return true;
		}
	}

	/**
	 * Runs work that only reads the connection's metadata, outside a transaction: a transaction of its own costs
	 * MySQL and MariaDB four statements around it (the isolation level set, auto-commit off and on, the commit), and
	 * every instance of a fleet starting together asks three times (the database, then whether each
	 * table exists). On a connection with auto-commit off, what the reads may have opened is rolled back before the
	 * connection goes back.
	 */
	private <T> T onConnection(ConnectionCallback<T> work) {
		return this.withoutTransaction.execute((status) -> this.jdbcTemplate.execute((ConnectionCallback<T>) (
				connection) -> {
			T result = work.doInConnection(connection);
			if (!connection.getAutoCommit()) {
				connection.rollback();
			}
			return result;
		}));
	}

	/**
	 * Finds the round trip's timeout among the causes.
	 * @return the timeout, or {@code null} when the failure is not one
	 */
	private static Throwable roundTripTimeout(Throwable ex) {
		return causeMatching(ex, (cause) -> cause instanceof SocketTimeoutException
				|| cause instanceof SQLTimeoutException);
	}

	/**
	 * Finds a cause that matches, also behind a failed rollback (which then says only that the connection is closed,
	 * and keeps the statement's failure as its application exception).
	 * @return the cause, or {@code null} when none matches
	 */
	private static Throwable causeMatching(Throwable ex, Predicate<Throwable> matches) {
		for (Throwable cause = ex; cause != null; cause = cause.getCause()) {
			if (matches.test(cause)) {
				return cause;
			}
			if (cause instanceof TransactionSystemException system && system.getApplicationException() != null) {
				Throwable behind = causeMatching(system.getApplicationException(), matches);
				if (behind != null) {
					return behind;
				}
			}
		}
		return null;
	}

	/**
	 * Finds, among the causes, MariaDB's error that a statement ran past its {@code max_statement_time}, which uid
	 * sets on its statements there (see {@link RowLocking#statementPrefix()}).
	 * @return the error, or {@code null} when the failure is not one
	 */
	private static SQLException stoppedByTheServer(Throwable ex) {
		return (SQLException) causeMatching(ex, (cause) -> cause instanceof SQLException sql
				&& sql.getErrorCode() == MARIADB_STATEMENT_TIMEOUT);
	}

	private static WorkerStoreUnavailableException unavailable(RuntimeException ex) {
		return new WorkerStoreUnavailableException("Cannot reach the database that hands out uid worker IDs ("
				+ detail(ex) + "); check that it runs and that the DataSource URL and credentials are right.", ex);
	}

	/** What the driver or the pool said, which Spring's exception wraps. */
	private static String detail(RuntimeException ex) {
		return (ex.getCause() != null) ? ex.getCause().getMessage() : ex.getMessage();
	}

}
