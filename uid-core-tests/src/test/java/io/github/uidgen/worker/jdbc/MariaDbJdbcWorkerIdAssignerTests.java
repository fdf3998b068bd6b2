package io.github.uidgen.worker.jdbc;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.OptionalLong;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import com.mysql.cj.jdbc.JdbcConnection;
import com.mysql.cj.jdbc.MysqlDataSource;
import com.zaxxer.hikari.HikariDataSource;
import io.github.uidgen.UidLayout;
import io.github.uidgen.testsupport.StatementCuttingProxy;
import io.github.uidgen.testsupport.TestDatabases;
import io.github.uidgen.testsupport.TestDatabases.Database;
import io.github.uidgen.worker.RecordedLayout;
import io.github.uidgen.worker.WorkerAssignmentException;
import io.github.uidgen.worker.WorkerStoreUnavailableException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

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
	 * A release is a transaction of its two writes (the lease, the claim history) and four statements around them:
	 * auto-commit off and on, READ COMMITTED for the transaction, the commit. With the level set through Spring, MySQL
	 * Connector/J read the session's level and set it, and set it back after the commit: two statements more in every
	 * claim and release.
	 */
	@Test
	void aReleaseIsItsTwoWritesAndFourStatementsAroundThem() {
		try (HikariDataSource pool = onePool(true)) {
			JdbcLeaseWorkerIdAssigner assigner = leaseAssigner(pool, "released");
			long workerId = assigner.assign(1023).workerId();
			assertThat(statementsOf(pool, () -> assigner.release(workerId, MARK))).isEqualTo(6);
			assertThat(mark(workerId)).isEqualTo(MARK);
		}
	}

	/** Claims a worker ID through a pool of one connection, renews it, and counts the statements of the renewals. */
	private double statementsPerRenewal(boolean autoCommit) {
		try (HikariDataSource pool = onePool(autoCommit)) {
			JdbcLeaseWorkerIdAssigner assigner = leaseAssigner(pool, "counted");
			long workerId = assigner.assign(1023).workerId();
			assigner.renew(workerId, MARK);
			long statements = statementsOf(pool, () -> {
				for (int i = 1; i <= RENEWALS; i++) {
					assigner.renew(workerId, MARK + i);
				}
			});
			assertThat(mark(workerId)).isEqualTo(MARK + RENEWALS);
			return (double) statements / RENEWALS;
		}
	}

	/**
	 * Counts the statements some work sends through a pool of one connection, by the session's {@code Questions}
	 * status, which counts every statement a client sends (not pings), less what asking for it costs.
	 */
	private static long statementsOf(DataSource pool, Runnable work) {
		long before = questions(pool);
		long asking = questions(pool) - before;
		long start = questions(pool);
		work.run();
		return questions(pool) - start - asking;
	}

	private static long questions(DataSource pool) {
		return sessionStatus(pool, "Questions");
	}

	/**
	 * Claimants released at once onto one table each take a worker ID of their own within a few rounds, and do not
	 * take turns: counted on each claimant's one connection, a round is a claim transaction ended (committed, or rolled
	 * back after a lost race). When every round searched from the lowest unused worker ID, all claimants inserted the
	 * same one, one won and the others waited on its key lock and tried again, some N(N+1)/2 rounds in all.
	 */
	@Test
	void claimantsStartingTogetherTakeDistinctWorkerIdsInAFewRoundsEach() throws Exception {
		ClaimedTogether claimed = claimTogether(CLAIMANTS, 1023);
		assertThat(claimed.workerIds()).hasSize(CLAIMANTS);
		// One round each, and one more for most of them after the race for the lowest worker ID at the start.
		assertThat(claimed.rounds().getAsLong()).isLessThanOrEqualTo(3L * CLAIMANTS);
	}

	/**
	 * A start on tables that exist looks for both, the lease table and its claim history, in one read of the
	 * database's metadata, then reads the layout: two statements, where a look for each table made three. Every
	 * instance of a fleet makes them at every start.
	 */
	@Test
	void aStartOnTablesThatExistLooksForBothInOneRead() {
		try (HikariDataSource pool = onePool(true)) {
			leaseAssigner(pool, "first").recordLayout(UidLayout.defaults());
			JdbcLeaseWorkerIdAssigner next = leaseAssigner(pool, "next");
			assertThat(statementsOf(pool, () -> next.recordLayout(UidLayout.defaults()))).isEqualTo(2);
			assertThat(next.assign(1023).workerId()).isZero();
		}
	}

	@Test
	void aLayoutAlreadyRecordedIsReadWithoutWritingTheTable() {
		try (HikariDataSource pool = onePool(true)) {
			leaseAssigner(pool, "first").recordLayout(UidLayout.defaults());
			JdbcLeaseWorkerIdAssigner next = leaseAssigner(pool, "next");
			next.fleet().orElseThrow().read(1);
			long writes = sessionStatus(pool, "Com_insert") + sessionStatus(pool, "Com_update");
			// One read, without a transaction's statements around it: every start of a fleet makes it.
			assertThat(statementsOf(pool, () -> next.recordLayout(UidLayout.defaults()))).isOne();
			// An insert of the row that exists locks it until the commit: a fleet starting together queued on it.
			assertThat(sessionStatus(pool, "Com_insert") + sessionStatus(pool, "Com_update")).isEqualTo(writes);
		}
	}

	/**
	 * MySQL Connector/J reports MariaDB 10.11 as version 5.5 (MariaDB's handshake names it "5.5.5-10.11.19-MariaDB"
	 * for old replication clients): the claims read MariaDB's own version from it, else they waited on other
	 * claimants' locks, as on a database that has no way around them.
	 */
	@Test
	void claimsOnMariaDbThroughMySqlConnectorJDoNotWaitOnOtherClaimantsLocks() throws SQLException {
		try (HikariDataSource pool = onePool(true); Connection connection = pool.getConnection();
				ResultSet result = connection.createStatement().executeQuery("SELECT VERSION()")) {
			assertThat(result.next()).isTrue();
			String version = result.getString(1);
			String[] parts = version.split("[.-]");
			boolean skipLocked = Integer.parseInt(parts[0]) > 10
					|| (Integer.parseInt(parts[0]) == 10 && Integer.parseInt(parts[1]) >= 6);
			RowLocking locking = RowLocking.of(connection.getMetaData(), Duration.ofSeconds(10));
			assertThat(locking.lockSuffix()).as("MariaDB %s", version)
				.isEqualTo(skipLocked ? " FOR UPDATE SKIP LOCKED" : " FOR UPDATE NOWAIT");
			assertThat(locking.insertPrefix()).isEqualTo("SET STATEMENT innodb_lock_wait_timeout = 0 FOR ");
			assertThat(locking.layoutInsertPrefix()).isEqualTo("SET STATEMENT innodb_lock_wait_timeout = 1 FOR ");
			assertThat(locking.statementPrefix()).isEqualTo("SET STATEMENT max_statement_time = 9 FOR ");
		}
	}

	/**
	 * Whether a table exists is asked of its own database: asked of every one, MySQL Connector/J lists the databases,
	 * then the tables of each, a statement apiece, and every start asks for two tables (12 of the 36 statements of a
	 * start on MariaDB with nothing else on it).
	 */
	@Test
	void whetherATableExistsIsOneStatement() throws SQLException {
		leaseAssigner(pool(), "creator").fleet().orElseThrow().read(1);
		try (HikariDataSource pool = onePool(true); Connection connection = pool.getConnection()) {
			String questions = "SELECT VARIABLE_VALUE FROM information_schema.SESSION_STATUS WHERE VARIABLE_NAME = "
					+ "'QUESTIONS'";
			long before = single(connection, questions);
			long asking = single(connection, questions) - before;
			long start = single(connection, questions);
			assertThat(TableName.exists(connection, leaseTable())).isTrue();
			assertThat(TableName.exists(connection, leaseTable() + "_missing")).isFalse();
			assertThat(TableName.exists(connection, qualifier() + "." + leaseTable())).isTrue();
			assertThat(single(connection, questions) - start - asking).isEqualTo(3);
		}
	}

	/**
	 * A first start that meets another start's insert of the layout row waits for it to commit, then finds the row
	 * there, in one attempt or two: starts that gave up at once on the row and asked again made 4.7 attempts each, 1,000
	 * first starts at once, and those that waited to update it queued one behind another.
	 */
	@Test
	void aFirstStartWaitsForAnotherStartsInsertOfTheLayoutRowAndReadsIt() throws Exception {
		ExecutorService thread = Executors.newSingleThreadExecutor();
		try (HikariDataSource pool = onePool(true); HikariDataSource holderPool = onePool(false);
				Connection holder = holderPool.getConnection()) {
			JdbcLeaseWorkerIdAssigner assigner = leaseAssigner(pool, "first");
			// The tables made, nothing recorded yet.
			assigner.fleet().orElseThrow().read(1);
			long insertsBefore = sessionStatus(pool, "Com_insert");
			insertLayoutRow(holder);
			Future<?> recording = thread.submit(() -> assigner.recordLayout(UidLayout.defaults()));
			// INNODB_TRX is a copy that MariaDB refreshes when it is older than 100 ms: asked more often, it never is.
			awaitWhileRunning(recording, "the start waits on the row", () -> !TestDatabases.query(pool(),
					"SELECT trx_id FROM information_schema.INNODB_TRX WHERE trx_state = 'LOCK WAIT'").isEmpty());
			holder.commit();
			recording.get(30, TimeUnit.SECONDS);
			assertThat(sessionStatus(pool, "Com_insert") - insertsBefore).isBetween(1L, 2L);
		}
		finally {
			thread.shutdownNow();
		}
	}

	/**
	 * A session that holds its insert of the layout row uncommitted throughout: the start waits for it a second at a
	 * time, five times, and fails naming the lock, not as a database that does not answer. Once the session is gone,
	 * the start records the layout.
	 */
	@Test
	void aFirstStartFailsNamingTheLockWhenAnotherSessionHoldsTheLayoutRowThroughout() throws Exception {
		try (HikariDataSource pool = onePool(true); HikariDataSource holderPool = onePool(false)) {
			// A round trip's bound of 2 s, above the second a start waits on the row.
			JdbcLeaseWorkerIdAssigner assigner = withTwoSecondRoundTrips(pool);
			assigner.fleet().orElseThrow().read(1);
			try (Connection holder = holderPool.getConnection()) {
				insertLayoutRow(holder);
				assertThatExceptionOfType(WorkerAssignmentException.class)
					.isThrownBy(() -> assigner.recordLayout(UidLayout.defaults()))
					.isNotInstanceOf(WorkerStoreUnavailableException.class)
					.withMessageContaining("stayed locked by another start's uncommitted insert through 5 attempts");
				holder.rollback();
			}
			assigner.recordLayout(UidLayout.defaults());
			assertThat(TestDatabases.query(pool, "SELECT instance_id FROM " + leaseTable() + " WHERE worker_id = "
					+ (1L << 62)).get(0).get(0)).isEqualTo(RecordedLayout.of(UidLayout.defaults()));
		}
	}

	/**
	 * The server stops a renewal before its client gives up on it. A renewal waiting for its row's lock was left
	 * waiting in the server once its client had given up at the round trip's bound (up to 50 s, MariaDB's default lock
	 * wait), and so were claims: when a fleet of 1,000 started on a database that fell behind, it was still running
	 * 836 claims' reads and 281 renewals for 112 instances 40 s later, on 1.5 cores. With the row locked by a session of
	 * the test's own and a round trip's bound of 2 s, the renewal fails as a store that does not answer, stopped by
	 * the server after 1 s, and nothing of it is left there; once the row is free, the next renewal goes through.
	 */
	@Test
	void aRenewalWaitingForItsRowIsStoppedByTheServerBeforeItsClientGivesUp() throws Exception {
		try (HikariDataSource pool = onePool(true); HikariDataSource holderPool = onePool(false)) {
			JdbcLeaseWorkerIdAssigner assigner = withTwoSecondRoundTrips(pool);
			long workerId = assigner.assign(1023).workerId();
			try (Connection holder = holderPool.getConnection()) {
				single(holder, "SELECT COUNT(*) FROM " + leaseTable() + " WHERE worker_id = " + workerId + " FOR UPDATE");
				WorkerStoreUnavailableException failure = catchThrowableOfType(WorkerStoreUnavailableException.class,
						() -> assigner.renew(workerId, MARK));
				assertThat(failure).isNotNull();
				// Well within the 50 s the server lets a statement wait for a lock.
				await("the renewal gone from the server").atMost(Duration.ofSeconds(20))
					.pollInterval(Duration.ofMillis(50))
					.until(() -> renewalsAtTheDatabase(leaseTable()) == 0);
				assertThat(failure).hasMessageContaining("stopped a statement of uid's that ran for 1 s");
				holder.rollback();
			}
			assigner.renew(workerId, MARK);
			assertThat(mark(workerId)).isEqualTo(MARK);
		}
	}

	/**
	 * A claim whose {@code COMMIT} the server carried out but whose answer never came back, as when the network fails
	 * between the two: the driver reports the broken connection, HikariCP closes it, and the rollback that follows a
	 * failed commit fails in turn with only "Connection is closed" (no SQL state), which Spring throws in place of the
	 * commit's failure. That is the database out of reach for this call, to be tried again (a start does, within
	 * {@code uid.worker.store-wait-at-start}), not a table uid cannot use; tried again, the claim takes a worker ID.
	 */
	@Test
	void aClaimWhoseCommitIsCutOffIsReportedAsTheDatabaseOutOfReach() {
		try (StatementCuttingProxy proxy = StatementCuttingProxy.start(3306);
				HikariDataSource pool = proxy.pool("uid-test-cut-claim")) {
			JdbcLeaseWorkerIdAssigner assigner = leaseAssigner(pool, "cut off");
			assigner.release(assigner.assign(1023).workerId(), MARK);
			proxy.loseReply("commit");
			assertThatExceptionOfType(WorkerStoreUnavailableException.class).isThrownBy(() -> assigner.assign(1023))
				.withMessageContaining("Cannot reach the database that hands out uid worker IDs");
			assertThat(proxy.cuts()).singleElement().asString().isEqualToIgnoringCase("reply OK commit");
			long workerId = assigner.assign(1023).workerId();
			assigner.release(workerId, MARK);
		}
	}

	/** Inserts the layout row of the default layout, as another start would, uncommitted on a manual-commit session. */
	private void insertLayoutRow(Connection holder) throws SQLException {
		holder.createStatement()
			.executeUpdate("INSERT INTO " + leaseTable() + " (worker_id, instance_id, lease_token, host_name, port, "
					+ "lease_expires_at, high_water_mark, created, modified) VALUES (" + (1L << 62) + ", '"
					+ RecordedLayout.of(UidLayout.defaults()) + "', NULL, 'uid layout record', NULL, UTC_TIMESTAMP(3), "
					+ "NULL, UTC_TIMESTAMP(3), UTC_TIMESTAMP(3))");
	}

	/**
	 * Starts that find a new table missing take turns on a lock named after it and look again holding it. Here a
	 * session of the test's own holds that lock while a start waits on it, creates the tables meanwhile as another
	 * start would, and keeps a transaction open on the lease table, as the claims of started instances do. The start
	 * finds the tables made and claims. When every start that had found the table missing ran
	 * {@code CREATE TABLE IF NOT EXISTS}, that statement waited for the open transaction's metadata lock, and every
	 * later statement on the table waited behind it: 40 of 1,000 first starts on a new table ran it, and claims
	 * waited up to 18 s.
	 */
	@Test
	void aFirstStartThatFindsTheTableMadeMeanwhileDoesNotCreateItAgain() throws Exception {
		ExecutorService thread = Executors.newSingleThreadExecutor();
		try (HikariDataSource pool = onePool(true); HikariDataSource holderPool = onePool(true);
				Connection holder = holderPool.getConnection()) {
			String lockName = JdbcStore.schemaLockName(leaseTable());
			assertThat(single(holder, "SELECT GET_LOCK('" + lockName + "', 0)")).isEqualTo(1);
			// A round trip's bound of 2 s: a start that waited on the metadata lock would fail.
			JdbcLeaseWorkerIdAssigner assigner = withTwoSecondRoundTrips(pool);
			Future<Long> claim = thread.submit(() -> assigner.assign(1023).workerId());
			awaitWhileRunning(claim, "the start waits on the lock named after the table", () -> single(holder,
					"SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE STATE = 'User lock'") > 0);
			holder.createStatement().execute(SchemaScript.createTable(SqlDialect.MYSQL, SchemaScript.DEFAULT_LEASE_TABLE,
					leaseTable()));
			holder.createStatement().execute(SchemaScript.createTable(SqlDialect.MYSQL, SchemaScript.DEFAULT_CLAIM_TABLE,
					TableName.claimHistoryOf(leaseTable())));
			holder.setAutoCommit(false);
			assertThat(single(holder, "SELECT COUNT(*) FROM " + leaseTable())).isZero();
			assertThat(single(holder, "SELECT RELEASE_LOCK('" + lockName + "')")).isEqualTo(1);

			assertThat(claim.get(30, TimeUnit.SECONDS)).isZero();
			holder.rollback();
		}
		finally {
			thread.shutdownNow();
		}
	}

	/**
	 * A start that finds the table missing while another start holds the lock named after it waits for the lock's
	 * release without taking it in turn; where the table is still missing then (here a session of the test's own lets
	 * the lock go without creating anything, as a start that failed to would), it takes the lock and creates the
	 * tables itself.
	 */
	@Test
	void aStartWhoseWaitForAnotherStartsCreationEndsWithoutTheTableCreatesItItself() throws Exception {
		ExecutorService thread = Executors.newSingleThreadExecutor();
		try (HikariDataSource pool = onePool(true); HikariDataSource holderPool = onePool(true);
				Connection holder = holderPool.getConnection()) {
			String lockName = JdbcStore.schemaLockName(leaseTable());
			assertThat(single(holder, "SELECT GET_LOCK('" + lockName + "', 0)")).isEqualTo(1);
			// A lease of 30 s: the start waits up to 9 s for the lock, past the test's release of it.
			JdbcLeaseWorkerIdAssigner assigner = creatingTables(pool, Duration.ofSeconds(30));
			Future<Long> claim = thread.submit(() -> assigner.assign(1023).workerId());
			awaitWhileRunning(claim, "the start waits for the lock named after the table", () -> single(holder,
					"SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE STATE = 'User lock'") > 0);
			assertThat(single(holder, "SELECT RELEASE_LOCK('" + lockName + "')")).isEqualTo(1);

			assertThat(claim.get(30, TimeUnit.SECONDS)).isZero();
			assertThat(single(holder, "SELECT COUNT(*) FROM " + leaseTable() + " WHERE instance_id = 'first'")).isOne();
			assertThat(single(holder, "SELECT COUNT(*) FROM " + TableName.claimHistoryOf(leaseTable()))).isOne();
			assertThat(single(holder, "SELECT IS_FREE_LOCK('" + lockName + "')")).isOne();
		}
		finally {
			thread.shutdownNow();
		}
	}

	/** An assigner on the test's lease table whose lease of 6 s bounds each round trip at 2 s. */
	private JdbcLeaseWorkerIdAssigner withTwoSecondRoundTrips(DataSource pool) {
		return creatingTables(pool, Duration.ofSeconds(6));
	}

	/** A condition the test asks the database, true once the work under way waits where the test wants it to. */
	@FunctionalInterface
	private interface Waiting {

		boolean seen() throws Exception;

	}

	/** Polls until the work is seen waiting, failing if it ends first or 30 s pass. */
	private static void awaitWhileRunning(Future<?> work, String what, Waiting waiting) throws Exception {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
		while (!waiting.seen()) {
			assertThat(System.nanoTime()).as(what).isLessThan(deadline);
			assertThat(work).as(what).isNotDone();
			Thread.sleep(200);
		}
	}

	@Override
	long renewalsAtTheDatabase(String table) {
		return ((Number) TestDatabases.query(pool(), "SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE ID <> "
				+ "CONNECTION_ID() AND INFO LIKE '%UPDATE " + table + " SET %'").get(0).get(0)).longValue();
	}

	/** Claim transactions ended on the pool's one connection. */
	@Override
	OptionalLong transactionsEnded(DataSource pool) {
		return OptionalLong.of(sessionStatus(pool, "Com_commit") + sessionStatus(pool, "Com_rollback"));
	}

	private static long sessionStatus(DataSource pool, String name) {
		return Long.parseLong(TestDatabases.query(pool, "SHOW SESSION STATUS LIKE '" + name + "'").get(0).get(1)
			.toString());
	}

}
