package io.github.uidgen.segment.jdbc;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Function;
import java.util.regex.Pattern;

import io.github.uidgen.InvalidSettingException;
import io.github.uidgen.segment.SegmentStoreException;

import org.springframework.dao.DataAccessException;
import org.springframework.dao.PessimisticLockingFailureException;
import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.support.JdbcTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.TransactionException;
import org.springframework.transaction.support.TransactionCallback;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Runs a database segment store's work in transactions of its own ({@code REQUIRES_NEW}, {@code READ COMMITTED},
 * bounded by a timeout): a claim is committed when it returns, even when the calling thread is inside a transaction
 * that later rolls back (joining that transaction would let a rollback hand the same range out twice), and a claim
 * that meets a deadlock or lock timeout is tried again after a short random pause, a few times.
 */
final class SegmentTransactions {

	private static final Pattern TABLE = Pattern
		.compile("[A-Za-z_][A-Za-z0-9_]{0,63}(\\.[A-Za-z_][A-Za-z0-9_]{0,63})?");

	private static final int MAX_ATTEMPTS = 3;

	private final JdbcTemplate jdbcTemplate;

	private final TransactionTemplate transactions;

	SegmentTransactions(JdbcTemplate jdbcTemplate, Duration timeout) {
		this.jdbcTemplate = jdbcTemplate;
		this.transactions = new TransactionTemplate(new JdbcTransactionManager(jdbcTemplate.getDataSource()));
		this.transactions.setPropagationBehavior(TransactionDefinition.PROPAGATION_REQUIRES_NEW);
		this.transactions.setIsolationLevel(TransactionDefinition.ISOLATION_READ_COMMITTED);
		this.transactions.setTimeout((int) Math.max(1, (timeout.toMillis() + 999) / 1000));
	}

	/**
	 * Runs work once, in a transaction of its own.
	 * @param work the work
	 * @return what it returned
	 */
	<T> T execute(TransactionCallback<T> work) {
		return this.transactions.execute(work);
	}

	/**
	 * Asks the database which it is, in a transaction of its own: joining a caller's would let DDL that follows
	 * commit it early (MySQL) or roll back with it (PostgreSQL).
	 * @return the dialect
	 */
	SegmentDialect dialect() {
		return SegmentDialect.of(execute((status) -> this.jdbcTemplate
			.execute((ConnectionCallback<String>) (connection) -> connection.getMetaData().getDatabaseProductName())));
	}

	/**
	 * Runs a claim in a transaction of its own, again after a deadlock or lock timeout; other failures, and the last
	 * lock failure, go through {@code translate}. A {@link SegmentStoreException} the claim throws rolls it back and
	 * is passed on as it is.
	 * @param claim the claim
	 * @param translate turns a database failure into what the generator reports
	 * @return what the claim returned
	 */
	<T> T claim(TransactionCallback<T> claim, Function<RuntimeException, SegmentStoreException> translate) {
		for (int attempt = 1;; attempt++) {
			try {
				return execute(claim);
			}
			catch (PessimisticLockingFailureException ex) {
				if (attempt >= MAX_ATTEMPTS) {
					throw translate.apply(ex);
				}
				backOff(attempt);
			}
			catch (DataAccessException | TransactionException ex) {
				throw translate.apply(ex);
			}
		}
	}

	/**
	 * Waits a few random milliseconds, longer with each attempt, so instances that collided do not collide again.
	 * @param attempt the attempt that failed, from 1
	 */
	static void backOff(int attempt) {
		try {
			Thread.sleep(ThreadLocalRandom.current().nextLong(1, 10L * attempt + 2));
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new SegmentStoreException("Interrupted while claiming a uid segment", ex);
		}
	}

	/**
	 * Checks a table name a store puts into its statements.
	 * @param table the name
	 * @param example a name to suggest, or {@code null}
	 * @return the name
	 * @throws InvalidSettingException when it is not a plain, optionally schema-qualified identifier
	 */
	static String checkTable(String table, String example) {
		if (table == null || !TABLE.matcher(table).matches()) {
			throw new InvalidSettingException("table", table, "use a table name of letters, digits and "
					+ "underscores (starting with a letter or underscore, at most 64), optionally prefixed by a "
					+ "schema and a dot" + ((example != null) ? ", such as " + example : ""));
		}
		return table;
	}

	/**
	 * Checks how long one claim may take.
	 * @param timeout the limit
	 * @return the limit
	 * @throws InvalidSettingException when it is not positive
	 */
	static Duration checkTimeout(Duration timeout) {
		if (timeout == null || timeout.isNegative() || timeout.isZero()) {
			throw new InvalidSettingException("timeout", timeout, "use a positive duration, such as 5s");
		}
		return timeout;
	}

}
