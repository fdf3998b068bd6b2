package io.github.uidgen.worker.jdbc;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import io.github.uidgen.UidLayout;
import io.github.uidgen.testsupport.TestDatabases;
import io.github.uidgen.testsupport.TestDatabases.Database;
import io.github.uidgen.worker.WorkerAssignment;
import io.github.uidgen.worker.WorkerAssignmentException;
import io.github.uidgen.worker.WorkerIdOutOfRangeException;
import io.github.uidgen.worker.RecordedLayout;
import io.github.uidgen.worker.WorkerLeaseLostException;
import io.github.uidgen.worker.WorkerStoreUnavailableException;
import io.github.uidgen.worker.WorkerTableMissingException;
import io.github.uidgen.worker.fleet.WorkerClaim;
import io.github.uidgen.worker.support.HostEnvironment;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;
import org.springframework.transaction.support.TransactionTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * The disposable assigner, and what both database assigners do about tables: missing ones, created ones, qualified
 * names, and a database that cannot be reached; and how their work is committed, a lease renewal (the statement
 * every instance sends every period) included: when the call returns, whether the pool hands out connections with
 * auto-commit on or off (as with {@code spring.datasource.hikari.auto-commit=false}), leaving no transaction open.
 * Each test on tables of its own.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AbstractJdbcWorkerIdAssignerTests {

	static final long MARK = 1_760_000_000_000L;

	/** Claimants released at once; MariaDB's and PostgreSQL's test pools hold more connections. */
	static final int CLAIMANTS = 32;

	private HikariDataSource dataSource;

	private String table;

	abstract Database database();

	/** A reference-style {@code WORKER_NODE} table as a user migrating from the reference already has it. */
	abstract String referenceWorkerNodeDdl(String table);

	/** The database or schema name that qualifies a table name. */
	abstract String qualifier();

	/** A data source of the same kind on a port where nothing listens. */
	abstract DataSource unreachableDataSource();

	/**
	 * Whether the server said, in its last answer on the connection, that a transaction is open there: the
	 * transaction status it sends with every answer, as the driver keeps it (no query, which would itself start one
	 * with auto-commit off; MariaDB's {@code INNODB_TRX} is a copy refreshed at most every 100 ms).
	 */
	abstract boolean transactionOpen(Connection connection) throws SQLException;

	/**
	 * Counts the transactions ended, committed or rolled back, on a pool's one connection, where the database counts
	 * them by session.
	 */
	abstract OptionalLong transactionsEnded(DataSource pool);

	/** Counts the statements the database runs now that renew a worker ID of a lease table, waiting or not. */
	abstract long renewalsAtTheDatabase(String table);

	@BeforeAll
	void openPool() {
		this.dataSource = database().open();
	}

	@BeforeEach
	void newTable() {
		this.table = TestDatabases.uniqueTable("uid_jdbc");
	}

	@AfterEach
	void dropTable() {
		TestDatabases.dropTable(this.dataSource, this.table);
	}

	@AfterAll
	void closePool() {
		this.dataSource.close();
	}

	private DisposableWorkerIdAssigner.Builder disposable() {
		return DisposableWorkerIdAssigner.builder(this.dataSource)
			.workerNodeTable(this.table)
			.hostName("node-host")
			.port("9090");
	}

	@Test
	void disposableModeInsertsOneRowPerStartAndNeverReusesAnId() {
		DisposableWorkerIdAssigner assigner = disposable().initializeSchema(true).build();
		WorkerAssignment first = assigner.assign(1023);
		assigner.renew(first.workerId(), 1_760_000_000_000L);
		assigner.release(first.workerId(), 1_760_000_000_000L);
		WorkerAssignment second = assigner.assign(1023);

		assertThat(first.hasMark()).isFalse();
		assertThat(second.hasMark()).isFalse();
		assertThat(second.workerId()).isGreaterThan(first.workerId());
		assertThat(assigner.renewInterval()).isZero();
		assertThat(assigner.name()).isEqualTo("db");
		List<List<Object>> rows = TestDatabases.query(this.dataSource, "SELECT ID, HOST_NAME, PORT, TYPE, LAUNCH_DATE, "
				+ "CASE WHEN CREATED IS NOT NULL AND MODIFIED IS NOT NULL THEN 1 ELSE 0 END FROM " + this.table
				+ " ORDER BY ID");
		String type = Integer.toString(HostEnvironment.current().isContainer() ? 1 : 2);
		String today = TestDatabases.query(this.dataSource, "SELECT CURRENT_DATE").get(0).get(0).toString();
		assertThat(rows).hasSize(2);
		assertThat(rows).allSatisfy((row) -> assertThat(row.subList(1, 6)).extracting(String::valueOf)
			.containsExactly("node-host", "9090", type, today, "1"));
		assertThat(((Number) rows.get(0).get(0)).longValue()).isEqualTo(first.workerId());
		assertThat(((Number) rows.get(1).get(0)).longValue()).isEqualTo(second.workerId());
		assertThat(LocalDate.parse(today)).isNotNull();
	}

	@Test
	void disposableModeRecordsTheProcessIdWithoutAPortAndTruncatesLongHostNames() {
		DisposableWorkerIdAssigner assigner = DisposableWorkerIdAssigner.builder(this.dataSource)
			.workerNodeTable(this.table)
			.hostName("h".repeat(100))
			.initializeSchema(true)
			.build();
		long id = assigner.assign(1023).workerId();
		List<Object> row = TestDatabases.query(this.dataSource, "SELECT HOST_NAME, PORT FROM " + this.table
				+ " WHERE ID = ?", id).get(0);
		assertThat(row.get(0)).isEqualTo("h".repeat(64));
		assertThat(row.get(1)).isEqualTo("pid" + ProcessHandle.current().pid());
	}

	@Test
	void disposableModeGivesSixteenConcurrentStartsDistinctIds() throws Exception {
		DisposableWorkerIdAssigner assigner = disposable().initializeSchema(true).build();
		assigner.assign(1023);
		ExecutorService pool = Executors.newFixedThreadPool(16);
		CountDownLatch start = new CountDownLatch(1);
		List<Future<Long>> claims = new ArrayList<>();
		for (int i = 0; i < 16; i++) {
			claims.add(pool.submit(() -> {
				start.await();
				return disposable().build().assign(1023).workerId();
			}));
		}
		start.countDown();
		List<Long> ids = new ArrayList<>();
		for (Future<Long> claim : claims) {
			ids.add(claim.get(60, TimeUnit.SECONDS));
		}
		pool.shutdown();
		assertThat(new HashSet<>(ids)).hasSize(16);
	}

	@Test
	void disposableModeRefusesAStartWhoseIdWouldNotFitTheLayoutAndLeavesNoRow() {
		DisposableWorkerIdAssigner assigner = disposable().initializeSchema(true).build();
		long last = 0;
		while (last < 3) {
			last = assigner.assign(3).workerId();
		}
		assertThat(rowIds()).containsExactly(1L, 2L, 3L);
		for (int refused = 0; refused < 2; refused++) {
			assertThatExceptionOfType(WorkerIdOutOfRangeException.class).isThrownBy(() -> assigner.assign(3))
				.satisfies((ex) -> assertThat(ex.getWorkerId()).isGreaterThan(3))
				.satisfies((ex) -> assertThat(ex.getMaxWorkerId()).isEqualTo(3))
				.withMessageContaining("would hand out worker ID")
				.withMessageContaining("one per start and never reused")
				.withMessageContaining("rolled back")
				.withMessageContaining("more worker bits")
				.withMessageContaining("lease mode");
		}
		assertThat(rowIds()).containsExactly(1L, 2L, 3L);
		// A layout with room for more starts carries on above the refused IDs, never below or on one.
		long next = assigner.assign(1023).workerId();
		assertThat(next).isGreaterThan(4);
		assertThat(rowIds()).containsExactly(1L, 2L, 3L, next);
	}

	@Test
	void disposableModeRefusesConcurrentStartsBeyondTheLayoutWithoutRows() throws Exception {
		DisposableWorkerIdAssigner assigner = disposable().initializeSchema(true).build();
		assigner.assign(7);
		ExecutorService pool = Executors.newFixedThreadPool(12);
		CountDownLatch start = new CountDownLatch(1);
		List<Future<Long>> claims = new ArrayList<>();
		for (int i = 0; i < 12; i++) {
			claims.add(pool.submit(() -> {
				start.await();
				try {
					return disposable().build().assign(7).workerId();
				}
				catch (WorkerIdOutOfRangeException ex) {
					return -1L;
				}
			}));
		}
		start.countDown();
		List<Long> granted = new ArrayList<>();
		for (Future<Long> claim : claims) {
			long id = claim.get(60, TimeUnit.SECONDS);
			if (id >= 0) {
				granted.add(id);
			}
		}
		pool.shutdown();
		assertThat(granted).doesNotHaveDuplicates().allSatisfy((id) -> assertThat(id).isBetween(2L, 7L));
		assertThat(rowIds()).hasSize(granted.size() + 1).allSatisfy((id) -> assertThat(id).isLessThanOrEqualTo(7));
	}

	private List<Long> rowIds() {
		return rowIds(this.table);
	}

	private List<Long> rowIds(String table) {
		return TestDatabases.query(this.dataSource, "SELECT ID FROM " + table + " ORDER BY ID")
			.stream()
			.map((row) -> ((Number) row.get(0)).longValue())
			.toList();
	}

	@Test
	void disposableModeKeepsWorkingOnTheReferenceTable() {
		TestDatabases.execute(this.dataSource, referenceWorkerNodeDdl(this.table));
		TestDatabases.execute(this.dataSource, "INSERT INTO " + this.table + " (HOST_NAME, PORT, TYPE, LAUNCH_DATE, "
				+ "MODIFIED, CREATED) VALUES ('10.0.0.8', '1700000000000-12345', 2, CURRENT_DATE, CURRENT_TIMESTAMP, "
				+ "CURRENT_TIMESTAMP)");
		long id = disposable().build().assign(1023).workerId();
		assertThat(id).isEqualTo(2);
		assertThat(TestDatabases.query(this.dataSource, "SELECT COUNT(*) FROM " + this.table).get(0).get(0))
			.hasToString("2");
	}

	@Test
	void aMissingWorkerNodeTableFailsWithTheDdlThatCreatesIt() {
		assertThatExceptionOfType(WorkerTableMissingException.class).isThrownBy(() -> disposable().build().assign(1023))
			.satisfies((ex) -> {
				assertThat(ex.getTable()).isEqualTo(this.table);
				assertThat(ex.getDdl()).contains("CREATE TABLE IF NOT EXISTS " + this.table, "HOST_NAME", "LAUNCH_DATE")
					.doesNotContain("WORKER_NODE");
				assertThat(ex.getMessage()).contains(ex.getDdl(), "initializeSchema");
				TestDatabases.execute(this.dataSource, ex.getDdl());
			});
		assertThat(disposable().build().assign(1023).workerId()).isEqualTo(1);
	}

	@Test
	void aMissingLeaseTableFailsWithTheDdlThatCreatesIt() {
		JdbcLeaseWorkerIdAssigner assigner = JdbcLeaseWorkerIdAssigner.builder(this.dataSource)
			.leaseTable(this.table)
			.build();
		assertThat(assigner.isInitializeSchema()).isFalse();
		assertThatExceptionOfType(WorkerTableMissingException.class).isThrownBy(() -> assigner.assign(1023))
			.satisfies((ex) -> {
				assertThat(ex.getTable()).isEqualTo(this.table);
				assertThat(ex.getDdl()).contains("CREATE TABLE IF NOT EXISTS " + this.table, "high_water_mark",
						"lease_expires_at");
				TestDatabases.execute(this.dataSource, ex.getDdl());
			});
		assertThat(assigner.assign(1023).workerId()).isZero();
	}

	@Test
	void aMissingSchemaQualifiedTableFailsWithTheDdlThatCreatesIt() {
		String qualified = qualifier() + "." + this.table;
		assertThatExceptionOfType(WorkerTableMissingException.class)
			.isThrownBy(() -> JdbcLeaseWorkerIdAssigner.builder(this.dataSource).leaseTable(qualified).build().assign(1023))
			.satisfies((ex) -> assertThat(ex.getDdl()).contains("CREATE TABLE IF NOT EXISTS " + qualified));
	}

	@Test
	void aTableThatExistsWithoutTheExpectedColumnsIsNotReportedMissing() {
		TestDatabases.execute(this.dataSource, "CREATE TABLE " + this.table + " (worker_id BIGINT NOT NULL PRIMARY KEY)");
		assertThatExceptionOfType(WorkerAssignmentException.class)
			.isThrownBy(() -> JdbcLeaseWorkerIdAssigner.builder(this.dataSource).leaseTable(this.table).build().assign(1023))
			.isNotInstanceOf(WorkerTableMissingException.class)
			.withMessageContaining("The uid worker ID table " + this.table + " could not be used")
			// The first column the claim reads that the table lacks.
			.withMessageContaining("instance_id");
	}

	@Test
	void schemaInitialisationCreatesTheLeaseTableAndLeavesAnExistingOneAlone() {
		JdbcLeaseWorkerIdAssigner first = JdbcLeaseWorkerIdAssigner.builder(this.dataSource)
			.leaseTable(this.table)
			.initializeSchema(true)
			.instanceId("first")
			.build();
		long id = first.assign(1023).workerId();
		first.renew(id, 1_760_000_000_000L);
		JdbcLeaseWorkerIdAssigner second = JdbcLeaseWorkerIdAssigner.builder(this.dataSource)
			.leaseTable(this.table)
			.initializeSchema(true)
			.instanceId("second")
			.build();
		assertThat(second.assign(1023).workerId()).isEqualTo(id + 1);
		assertThat(TestDatabases.query(this.dataSource, "SELECT COUNT(*) FROM " + this.table).get(0).get(0))
			.hasToString("2");
	}

	@Test
	void aQualifiedTableNameWorks() {
		String qualified = qualifier() + "." + this.table;
		JdbcLeaseWorkerIdAssigner assigner = JdbcLeaseWorkerIdAssigner.builder(this.dataSource)
			.leaseTable(qualified)
			.initializeSchema(true)
			.build();
		long id = assigner.assign(1023).workerId();
		assigner.renew(id, 1_760_000_000_000L);
		assigner.release(id, 1_760_000_000_001L);
		assertThat(assigner.assign(1023).highWaterMarkMillis()).isEqualTo(1_760_000_000_001L);
	}

	@Test
	void claimsRowsAndMarksAreCommittedWhenTheCallReturnsWhateverTransactionTheCallerIsIn() {
		JdbcLeaseWorkerIdAssigner lease = JdbcLeaseWorkerIdAssigner.builder(this.dataSource)
			.leaseTable(this.table)
			.initializeSchema(true)
			.build();
		DisposableWorkerIdAssigner disposable = disposable().workerNodeTable(this.table + "_node")
			.initializeSchema(true)
			.build();
		TransactionTemplate application = new TransactionTemplate(new DataSourceTransactionManager(this.dataSource));
		try {
			long[] ids = application.execute((status) -> {
				long workerId = lease.assign(1023).workerId();
				lease.renew(workerId, 1_760_000_000_000L);
				long nodeId = disposable.assign(1023).workerId();
				// Seen from another connection while the application's transaction is still open.
				assertThat(mark(workerId)).isEqualTo(1_760_000_000_000L);
				assertThat(rowIds(this.table + "_node")).containsExactly(nodeId);
				status.setRollbackOnly();
				return new long[] { workerId, nodeId };
			});
			assertThat(mark(ids[0])).isEqualTo(1_760_000_000_000L);
			assertThat(rowIds(this.table + "_node")).containsExactly(ids[1]);
		}
		finally {
			TestDatabases.dropTable(this.dataSource, this.table + "_node");
		}
	}

	@Test
	void aConnectionGetsItsOwnNetworkTimeoutBackWhenTheAssignerIsDoneWithIt() throws SQLException {
		try (Connection connection = this.dataSource.getConnection()) {
			connection.setNetworkTimeout(Runnable::run, 43_210);
			JdbcLeaseWorkerIdAssigner assigner = JdbcLeaseWorkerIdAssigner
				.builder(new SingleConnectionDataSource(connection, true))
				.leaseTable(this.table)
				.initializeSchema(true)
				.build();
			long workerId = assigner.assign(1023).workerId();
			assigner.renew(workerId, 1_760_000_000_000L);
			assertThat(connection.getNetworkTimeout()).isEqualTo(43_210);
			assigner.release(workerId, 1_760_000_000_000L);
			assertThat(connection.getNetworkTimeout()).isEqualTo(43_210);
		}
	}

	/** The mark as another connection reads it, {@code null} when none is committed. */
	Long mark(long workerId) {
		Object mark = TestDatabases.query(this.dataSource, "SELECT high_water_mark FROM " + this.table
				+ " WHERE worker_id = ?", workerId).get(0).get(0);
		return (mark != null) ? ((Number) mark).longValue() : null;
	}

	/** An assigner of instance {@code first} on the test's lease table that creates its tables where missing. */
	JdbcLeaseWorkerIdAssigner creatingTables(DataSource pool, Duration leaseDuration) {
		return JdbcLeaseWorkerIdAssigner.builder(pool)
			.leaseTable(leaseTable())
			.initializeSchema(true)
			.instanceId("first")
			.leaseDuration(leaseDuration)
			.build();
	}

	/** Runs a query that answers one number on a session of the test's own, which may hold a lock or a transaction. */
	static long single(Connection connection, String sql) throws SQLException {
		try (Statement statement = connection.createStatement(); ResultSet result = statement.executeQuery(sql)) {
			assertThat(result.next()).isTrue();
			return result.getLong(1);
		}
	}

	/** A pool of one connection, so that every call of the assigner and of the test shares one session. */
	HikariDataSource onePool(boolean autoCommit) {
		HikariDataSource pool = database().open();
		pool.setMaximumPoolSize(1);
		pool.setAutoCommit(autoCommit);
		pool.setPoolName("uid-test-one-" + (autoCommit ? "auto-commit" : "manual-commit"));
		return pool;
	}

	/** The pool the tests share. */
	DataSource pool() {
		return this.dataSource;
	}

	/** The lease table of this test. */
	String leaseTable() {
		return this.table;
	}

	JdbcLeaseWorkerIdAssigner leaseAssigner(DataSource dataSource, String instanceId) {
		return JdbcLeaseWorkerIdAssigner.builder(dataSource)
			.leaseTable(this.table)
			.initializeSchema(true)
			.instanceId(instanceId)
			.build();
	}

	/**
	 * The store's transactions (claims, releases, the layout's record) read at READ COMMITTED on connections whose
	 * level is another (MariaDB's default is REPEATABLE READ; the pool here sets it on PostgreSQL too): a row another
	 * session changed and committed meanwhile is read as it is now, which the claims' locking reads need to let go
	 * of the rows they pass over. The level is the transaction's own: the connection keeps its level.
	 */
	@Test
	void workInATransactionReadsWhatAnotherSessionCommittedMeanwhileAndLeavesTheConnectionsLevel()
			throws SQLException {
		try (HikariDataSource pool = onePool(true)) {
			pool.setTransactionIsolation("TRANSACTION_REPEATABLE_READ");
			leaseAssigner(pool, "levels").recordLayout(UidLayout.defaults());
			JdbcStore store = new JdbcStore(pool, JdbcLeaseWorkerIdAssigner.DEFAULT_TABLE, this.table, false,
					Duration.ofSeconds(10), "the test's");
			String read = "SELECT host_name FROM " + this.table + " WHERE worker_id = 0";
			List<String> seen = store.inTransaction((jdbc) -> {
				String before = jdbc.sql(read).query(String.class).single();
				TestDatabases.execute(this.dataSource, "UPDATE " + this.table
						+ " SET host_name = 'changed meanwhile' WHERE worker_id = 0");
				return List.of(before, jdbc.sql(read).query(String.class).single());
			});
			assertThat(seen).containsExactly("", "changed meanwhile");
			try (Connection connection = pool.getConnection()) {
				assertThat(connection.getTransactionIsolation()).isEqualTo(Connection.TRANSACTION_REPEATABLE_READ);
			}
		}
	}

	@Test
	void aRenewalThroughAPoolWithAutoCommitOffIsCommittedWhenItReturns() {
		try (HikariDataSource pool = onePool(false)) {
			JdbcLeaseWorkerIdAssigner assigner = leaseAssigner(pool, "manual");
			long workerId = assigner.assign(1023).workerId();
			assigner.renew(workerId, MARK);
			// The pool rolls back what is left uncommitted when a connection comes back: the mark must be in by then.
			assertThat(mark(workerId)).isEqualTo(MARK);
			assigner.renew(workerId, MARK + 1);
			assertThat(mark(workerId)).isEqualTo(MARK + 1);
		}
	}

	@Test
	void aRenewalOnAConnectionWithAutoCommitOffLeavesNoTransactionOpenAndAutoCommitOff() throws SQLException {
		try (Connection connection = this.dataSource.getConnection()) {
			connection.setAutoCommit(false);
			try {
				// No pool between: nothing rolls back or commits after the assigner but the assigner.
				JdbcLeaseWorkerIdAssigner assigner = leaseAssigner(new SingleConnectionDataSource(connection, true),
						"manual");
				long workerId = assigner.assign(1023).workerId();
				assigner.renew(workerId, MARK);
				assertThat(transactionOpen(connection)).isFalse();
				assertThat(connection.getAutoCommit()).isFalse();
				assertThat(mark(workerId)).isEqualTo(MARK);
			}
			finally {
				connection.rollback();
				connection.setAutoCommit(true);
			}
		}
	}

	@Test
	void aRenewalOfALostLeaseThrowsWithAutoCommitOnAndOff() throws SQLException {
		for (boolean autoCommit : new boolean[] { true, false }) {
			try (Connection connection = this.dataSource.getConnection()) {
				connection.setAutoCommit(autoCommit);
				try {
					JdbcLeaseWorkerIdAssigner assigner = leaseAssigner(new SingleConnectionDataSource(connection, true),
							"lost-" + autoCommit);
					long workerId = assigner.assign(1023).workerId();
					TestDatabases.execute(this.dataSource, "UPDATE " + this.table
							+ " SET lease_token = 'someone else' WHERE worker_id = " + workerId);
					assertThatExceptionOfType(WorkerLeaseLostException.class)
						.isThrownBy(() -> assigner.renew(workerId, MARK))
						.satisfies((ex) -> assertThat(ex.getWorkerId()).isEqualTo(workerId));
					assertThat(transactionOpen(connection)).as("auto-commit %s", autoCommit).isFalse();
					assertThat(connection.getAutoCommit()).isEqualTo(autoCommit);
				}
				finally {
					if (!autoCommit) {
						connection.rollback();
						connection.setAutoCommit(true);
					}
				}
			}
		}
	}

	/**
	 * Renewals of one worker ID run their statement one at a time. They all update the worker ID's row, so a renewal
	 * sent beside one still running at the database (the generator sends the next when the last has not answered
	 * within its interval) could only wait there for the first one's row lock: in a fleet of 1,000 whose database fell
	 * behind at its start, up to 813 renewals waited so at once and 346 instances started. With the row locked by a
	 * session of the test's own, the second renewal waits for its turn in the application, not at the database, and
	 * both go through once the row is free.
	 */
	@Test
	void aRenewalSentBesideOneStillAtTheDatabaseWaitsItsTurnInTheApplication() throws Exception {
		Duration bound = Duration.ofSeconds(30);
		JdbcLeaseWorkerIdAssigner assigner = leaseAssigner(this.dataSource, "turns");
		long workerId = assigner.assign(1023).workerId();
		assigner.renew(workerId, MARK);
		ExecutorService firstThread = Executors.newSingleThreadExecutor();
		FutureTask<Void> second = new FutureTask<>(() -> assigner.renew(workerId, MARK + 2), null);
		try (HikariDataSource holderPool = onePool(false); Connection holder = holderPool.getConnection()) {
			holder.createStatement()
				.executeQuery("SELECT worker_id FROM " + this.table + " WHERE worker_id = " + workerId + " FOR UPDATE")
				.close();
			Future<?> first = firstThread.submit(() -> assigner.renew(workerId, MARK + 1));
			await("the first renewal waiting for the row").atMost(bound)
				.pollInterval(Duration.ofMillis(50))
				.until(() -> renewalsAtTheDatabase(this.table) == 1);
			new Thread(second, "second-renewal").start();
			await("the second renewal at the database, or waiting for its turn").atMost(bound)
				.pollInterval(Duration.ofMillis(50))
				.until(() -> renewalsAtTheDatabase(this.table) > 1 || assigner.renewalsWaitingTheirTurn(workerId) == 1);
			assertThat(renewalsAtTheDatabase(this.table)).as("renewals of the worker ID at the database").isOne();
			assertThat(first).isNotDone();
			assertThat(second).isNotDone();
			holder.rollback();
			first.get(bound.toSeconds(), TimeUnit.SECONDS);
			second.get(bound.toSeconds(), TimeUnit.SECONDS);
		}
		finally {
			firstThread.shutdownNow();
		}
		assertThat(mark(workerId)).isEqualTo(MARK + 2);
		assertThat(assigner.renewalsWaitingTheirTurn(workerId)).isZero();
	}

	@Test
	void aRenewalWhoseTableWasDroppedFailsWithTheDdlThatCreatesIt() {
		JdbcLeaseWorkerIdAssigner assigner = leaseAssigner(this.dataSource, "dropped");
		long workerId = assigner.assign(1023).workerId();
		TestDatabases.dropTable(this.dataSource, this.table);
		assertThatExceptionOfType(WorkerTableMissingException.class).isThrownBy(() -> assigner.renew(workerId, MARK))
			.satisfies((ex) -> assertThat(ex.getDdl()).contains("CREATE TABLE IF NOT EXISTS " + this.table));
	}


	@Test
	void anUnreachableDatabaseFailsAsStoreUnavailable() {
		assertThatExceptionOfType(WorkerStoreUnavailableException.class)
			.isThrownBy(() -> JdbcLeaseWorkerIdAssigner.builder(unreachableDataSource()).build().assign(1023))
			.withMessageContaining("Cannot reach the database");
		assertThatExceptionOfType(WorkerStoreUnavailableException.class)
			.isThrownBy(() -> DisposableWorkerIdAssigner.builder(unreachableDataSource()).build().assign(1023))
			.withMessageContaining("Cannot reach the database");
	}

	@Test
	void anUnreachableDatabaseBehindAPoolFailsAsStoreUnavailable() {
		try (HikariDataSource pool = new HikariDataSource()) {
			pool.setDataSource(unreachableDataSource());
			pool.setConnectionTimeout(500);
			assertThatExceptionOfType(WorkerStoreUnavailableException.class)
				.isThrownBy(() -> JdbcLeaseWorkerIdAssigner.builder(pool).build().assign(1023))
				.withMessageContaining("Cannot reach the database");
		}
	}

	/**
	 * The start that records the layout makes the layout's worker IDs rows of their own, free, and claimants released
	 * at once then each lock another of them as they find it, passing over those locked by others: each takes one in
	 * its first round, and together they take the lowest ones, none twice. Where claims found no rows, they all
	 * inserted the lowest worker ID, one won, and the others tried again from random worker IDs (those claims still
	 * do, on a table whose layout an older version recorded: above).
	 */
	@Test
	void claimantsOfARecordedLayoutStartingTogetherTakeTheLowestWorkerIdsInOneRoundEach() throws Exception {
		UidLayout layout = UidLayout.defaults();
		leaseAssigner(this.dataSource, "first start").recordLayout(layout);
		assertThat(TestDatabases.query(this.dataSource, "SELECT COUNT(*), MAX(worker_id) FROM " + this.table
				+ " WHERE instance_id = '' AND lease_token IS NULL AND high_water_mark IS NULL").get(0))
			.extracting(String::valueOf)
			.containsExactly(String.valueOf(layout.getMaxWorkerId() + 1), String.valueOf(layout.getMaxWorkerId()));

		ClaimedTogether claimed = claimTogether(CLAIMANTS, layout.getMaxWorkerId());

		assertThat(claimed.workerIds()).containsExactlyInAnyOrderElementsOf(
				LongStream.range(0, CLAIMANTS).boxed().toList());
		if (claimed.rounds().isPresent()) {
			assertThat(claimed.rounds().getAsLong()).isEqualTo(CLAIMANTS);
		}
	}

	/**
	 * Free rows are made for at most the first 4,096 worker IDs of a layout; a claim beyond them inserts its row, as
	 * claims did before there were free rows.
	 */
	@Test
	void aLayoutOfMoreWorkerIdsThanTheFreeRowsMadeClaimsTheRestByInsertingTheirRows() {
		UidLayout layout = new UidLayout(UidLayout.DEFAULT_TIME_UNIT, UidLayout.DEFAULT_EPOCH, 38, 13, 12);
		leaseAssigner(this.dataSource, "first start").recordLayout(layout);
		assertThat(String.valueOf(TestDatabases.query(this.dataSource, "SELECT COUNT(*) FROM " + this.table
				+ " WHERE worker_id <= ?", layout.getMaxWorkerId()).get(0).get(0))).isEqualTo("4096");
		// Every free row held by another instance.
		new JdbcTemplate(this.dataSource).update("UPDATE " + this.table + " SET instance_id = 'another', lease_token = "
				+ "'held', lease_expires_at = created + INTERVAL '1' DAY WHERE worker_id <= ?", layout.getMaxWorkerId());

		JdbcLeaseWorkerIdAssigner assigner = leaseAssigner(this.dataSource, "beyond");
		WorkerAssignment claimed = assigner.assign(layout.getMaxWorkerId());

		assertThat(claimed.workerId()).isEqualTo(4096);
		assertThat(claimed.hasMark()).isFalse();
		assertThat(assigner.fleet().orElseThrow().history(4096).claims()).extracting(WorkerClaim::instanceId)
			.containsExactly("beyond");
	}

	/**
	 * Only the start that inserted the layout's row makes the free rows: MySQL Connector/J counts a row that
	 * {@code ON DUPLICATE KEY UPDATE} found as one changed, so every start that raced to record the layout took itself
	 * for the one that had, and each made the free rows again, locking all of them while claims were taking them
	 * (1,000 first starts on a new table: 131 claims made in 50 s).
	 */
	@Test
	void aLayoutRowThatExistsIsNotRecordedAgain() throws SQLException {
		JdbcLeaseWorkerIdAssigner first = leaseAssigner(this.dataSource, "first start");
		first.recordLayout(UidLayout.defaults());
		LeaseTable table;
		try (Connection connection = this.dataSource.getConnection()) {
			table = new LeaseTable(SqlDialect.of(connection.getMetaData()), this.table,
					RowLocking.of(connection.getMetaData(), Duration.ofSeconds(10)));
		}
		JdbcClient jdbc = JdbcClient.create(this.dataSource);
		assertThat(table.insertLayoutIfAbsent(jdbc, "another layout")).isFalse();
		assertThat(table.layout(jdbc)).isEqualTo(RecordedLayout.of(UidLayout.defaults()));
	}

	/** Worker IDs claimed by claimants released at once, and their claims' rounds where the database counts them. */
	record ClaimedTogether(Set<Long> workerIds, OptionalLong rounds) {
	}

	/**
	 * Releases claimants at once onto the lease table, each on a pool of one connection, already connected and with
	 * the tables made, as in a fleet that is up: only claims are left. A round is a claim transaction ended
	 * (committed, or rolled back after a lost race).
	 */
	ClaimedTogether claimTogether(int claimants, long maxWorkerId) throws Exception {
		List<HikariDataSource> pools = new ArrayList<>();
		ExecutorService threads = Executors.newFixedThreadPool(claimants);
		try {
			List<JdbcLeaseWorkerIdAssigner> assigners = new ArrayList<>();
			long[] endedBefore = new long[claimants];
			for (int i = 0; i < claimants; i++) {
				HikariDataSource pool = onePool(true);
				pools.add(pool);
				JdbcLeaseWorkerIdAssigner assigner = leaseAssigner(pool, "together-" + i);
				assigner.fleet().orElseThrow().read(1);
				assigners.add(assigner);
				endedBefore[i] = transactionsEnded(pool).orElse(0);
			}
			CountDownLatch ready = new CountDownLatch(claimants);
			CountDownLatch go = new CountDownLatch(1);
			List<Future<Long>> claims = new ArrayList<>();
			for (JdbcLeaseWorkerIdAssigner assigner : assigners) {
				claims.add(threads.submit(() -> {
					ready.countDown();
					assertThat(go.await(30, TimeUnit.SECONDS)).isTrue();
					return assigner.assign(maxWorkerId).workerId();
				}));
			}
			assertThat(ready.await(30, TimeUnit.SECONDS)).isTrue();
			go.countDown();
			Set<Long> workerIds = new HashSet<>();
			for (Future<Long> claim : claims) {
				assertThat(workerIds.add(claim.get(60, TimeUnit.SECONDS))).as("a worker ID taken twice").isTrue();
			}
			OptionalLong rounds = OptionalLong.empty();
			for (int i = 0; i < claimants; i++) {
				OptionalLong ended = transactionsEnded(pools.get(i));
				if (ended.isPresent()) {
					rounds = OptionalLong.of(rounds.orElse(0) + ended.getAsLong() - endedBefore[i]);
				}
			}
			return new ClaimedTogether(workerIds, rounds);
		}
		finally {
			threads.shutdownNow();
			pools.forEach(HikariDataSource::close);
		}
	}

}
