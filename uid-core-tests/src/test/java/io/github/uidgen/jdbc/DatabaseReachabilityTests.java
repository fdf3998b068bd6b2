package io.github.uidgen.jdbc;

import java.sql.SQLException;
import java.sql.SQLTimeoutException;

import org.junit.jupiter.api.Test;

import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.dao.RecoverableDataAccessException;
import org.springframework.dao.TransientDataAccessResourceException;
import org.springframework.jdbc.BadSqlGrammarException;
import org.springframework.jdbc.CannotGetJdbcConnectionException;
import org.springframework.jdbc.UncategorizedSQLException;
import org.springframework.transaction.CannotCreateTransactionException;
import org.springframework.transaction.TransactionSystemException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The one rule both database stores read a failure by: the union of the rules each had of its own, so that a commit
 * whose answer is lost (a {@link TransactionSystemException} from the rollback after it) is the database out of reach
 * for the segment stores too, and a timeout or a connection's SQL state for the worker-ID tables. The stores' own
 * tests show each rule against a real server where one can be made to fail that way.
 */
class DatabaseReachabilityTests {

	@Test
	void whatSpringCallsAResourceFailureATimeoutOrAFailedRollbackIsTheDatabaseOutOfReach() {
		assertThat(DatabaseReachability.isUnreachable(new CannotGetJdbcConnectionException("no connection"))).isTrue();
		assertThat(DatabaseReachability.isUnreachable(new CannotCreateTransactionException("no connection")))
			.isTrue();
		assertThat(DatabaseReachability.isUnreachable(new TransientDataAccessResourceException("busy"))).isTrue();
		assertThat(DatabaseReachability.isUnreachable(new RecoverableDataAccessException("broken"))).isTrue();
		assertThat(DatabaseReachability.isUnreachable(new QueryTimeoutException("slow", new SQLTimeoutException())))
			.isTrue();
		assertThat(DatabaseReachability.isUnreachable(new TransactionSystemException("JDBC rollback failed",
				new SQLException("Connection is closed"))))
			.isTrue();
	}

	@Test
	void aConnectionExceptionsSqlStateDecidesWhereSpringIsSilent() {
		assertThat(DatabaseReachability.isUnreachable(new UncategorizedSQLException("claim", "UPDATE",
				new SQLException("Communications link failure", "08S01"))))
			.isTrue();
		assertThat(DatabaseReachability.isUnreachable(new UncategorizedSQLException("claim", "UPDATE",
				new SQLException("something else", "HY000"))))
			.isFalse();
		assertThat(DatabaseReachability.isUnreachable(new UncategorizedSQLException("claim", "UPDATE",
				new SQLException("no state")))).isFalse();
	}

	@Test
	void aStatementTheDatabaseRefusesIsNot() {
		assertThat(DatabaseReachability.isUnreachable(new BadSqlGrammarException("claim", "UPDATE uid_segment",
				new SQLException("Table 'test.uid_segment' doesn't exist", "42S02", 1146))))
			.isFalse();
		assertThat(DatabaseReachability.isUnreachable(new DataIntegrityViolationException("duplicate"))).isFalse();
	}

}
