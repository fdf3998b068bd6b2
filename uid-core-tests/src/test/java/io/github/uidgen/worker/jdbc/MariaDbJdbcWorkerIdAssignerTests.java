package io.github.uidgen.worker.jdbc;

import java.sql.Connection;
import java.sql.SQLException;

import javax.sql.DataSource;

import com.mysql.cj.jdbc.JdbcConnection;
import com.mysql.cj.jdbc.MysqlDataSource;
import com.zaxxer.hikari.HikariDataSource;
import io.github.uidgen.testsupport.TestDatabases;
import io.github.uidgen.testsupport.TestDatabases.Database;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The database assigner's disposable mode, table handling and commits on MariaDB, through the MySQL driver, and
 * what a renewal costs the server.
 */
class MariaDbJdbcWorkerIdAssignerTests extends AbstractJdbcWorkerIdAssignerTests {

	private static final int RENEWALS = 20;

	@Override
	Database database() {
		return Database.MARIADB;
	}

	@Override
	String referenceWorkerNodeDdl(String table) {
		return "CREATE TABLE " + table + " (ID BIGINT NOT NULL AUTO_INCREMENT COMMENT 'worker id', "
				+ "HOST_NAME VARCHAR(64) NOT NULL COMMENT 'host', PORT VARCHAR(64) NOT NULL COMMENT 'port', "
				+ "TYPE INT NOT NULL COMMENT 'ACTUAL or CONTAINER', LAUNCH_DATE DATE NOT NULL COMMENT 'launched', "
				+ "MODIFIED TIMESTAMP NOT NULL COMMENT 'modified', CREATED TIMESTAMP NOT NULL COMMENT 'created', "
				+ "PRIMARY KEY (ID)) COMMENT = 'worker nodes' ENGINE = INNODB";
	}

	@Override
	String qualifier() {
		return "test";
	}

	@Override
	DataSource unreachableDataSource() {
		MysqlDataSource dataSource = new MysqlDataSource();
		dataSource.setUrl("jdbc:mysql://127.0.0.1:1/test?connectTimeout=2000");
		dataSource.setUser("root");
		return dataSource;
	}

	@Override
	boolean transactionOpen(Connection connection) throws SQLException {
		return connection.unwrap(JdbcConnection.class).getSession().getServerSession().inTransactionOnServer();
	}

	@Test
	void aRenewalIsOneStatementOnTheServer() {
		assertThat(statementsPerRenewal(true)).isEqualTo(1);
	}

	@Test
	void aRenewalThroughAPoolWithAutoCommitOffIsTheStatementAndItsCommit() {
		assertThat(statementsPerRenewal(false)).isEqualTo(2);
	}

	/**
	 * Claims a worker ID through a pool of one connection, renews it, and counts the statements of the renewals by
	 * the session's {@code Questions} status, which counts every statement a client sends (not pings).
	 */
	private double statementsPerRenewal(boolean autoCommit) {
		try (HikariDataSource pool = onePool(autoCommit)) {
			JdbcLeaseWorkerIdAssigner assigner = leaseAssigner(pool, "counted");
			long workerId = assigner.assign(1023).workerId();
			assigner.renew(workerId, MARK);
			long before = questions(pool);
			// What asking costs, so that only the renewals are counted.
			long asking = questions(pool) - before;
			long start = questions(pool);
			for (int i = 1; i <= RENEWALS; i++) {
				assigner.renew(workerId, MARK + i);
			}
			long statements = questions(pool) - start - asking;
			assertThat(mark(workerId)).isEqualTo(MARK + RENEWALS);
			return (double) statements / RENEWALS;
		}
	}

	private static long questions(DataSource pool) {
		return Long.parseLong(TestDatabases.query(pool, "SHOW SESSION STATUS LIKE 'Questions'").get(0).get(1).toString());
	}

}
