package io.github.uidgen.worker.jdbc;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import io.github.uidgen.UidLayout;
import io.github.uidgen.testsupport.TestDatabases;
import io.github.uidgen.testsupport.TestDatabases.Database;
import io.github.uidgen.worker.WorkerAssignmentException;
import io.github.uidgen.worker.WorkerAssignment;
import io.github.uidgen.worker.fleet.ClaimEnd;
import io.github.uidgen.worker.fleet.ClaimHistory;
import io.github.uidgen.worker.fleet.FleetSnapshot;
import io.github.uidgen.worker.fleet.FleetWorker;
import io.github.uidgen.worker.fleet.WorkerClaim;
import io.github.uidgen.worker.fleet.WorkerFleet;
import io.github.uidgen.worker.fleet.WorkerState;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import org.springframework.jdbc.datasource.DelegatingDataSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * What the fleet contract does not cover for the database: the claim history table beside a lease table (named after
 * it, missing from an older deployment, created with schema initialisation), written in the claim's transaction so
 * that a claim that fails leaves no record and a record that fails leaves no claim; and the disposable assigner's
 * fleet, read from its worker-node rows. Each test on tables of its own.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AbstractJdbcFleetTests {

	private static final long MARK = 1_760_000_000_000L;

	private HikariDataSource dataSource;

	private String table;

	private String claimTable;

	abstract Database database();

	@BeforeAll
	void openPool() {
		this.dataSource = database().open();
	}

	@BeforeEach
	void newTable() {
		this.table = TestDatabases.uniqueTable("uid_fleet");
		this.claimTable = this.table + "_claim";
	}

	@AfterEach
	void dropTables() {
		TestDatabases.dropTable(this.dataSource, this.table);
	}

	@AfterAll
	void closePool() {
		this.dataSource.close();
	}

	private JdbcLeaseWorkerIdAssigner.Builder lease(DataSource dataSource, String instanceId) {
		return JdbcLeaseWorkerIdAssigner.builder(dataSource)
			.leaseTable(this.table)
			.instanceId(instanceId)
			.hostName("fleet-host")
			.leaseDuration(Duration.ofMinutes(5));
	}

	private JdbcLeaseWorkerIdAssigner lease(String instanceId, boolean initializeSchema) {
		return lease(this.dataSource, instanceId).initializeSchema(initializeSchema).build();
	}

	/** A lease table as an older version left it: created, used, and no history table beside it. */
	private long olderLeaseTableWithAReleasedWorkerId() {
		JdbcLeaseWorkerIdAssigner older = lease("older", true);
		long id = older.assign(1023).workerId();
		older.release(id, MARK);
		TestDatabases.dropTable(this.dataSource, this.claimTable);
		return id;
	}

	private long count(String sql) {
		return ((Number) TestDatabases.query(this.dataSource, sql).get(0).get(0)).longValue();
	}

	private long claimRows() {
		return count("SELECT COUNT(*) FROM " + this.claimTable);
	}

	private long workerRows() {
		return count("SELECT COUNT(*) FROM " + this.table + " WHERE worker_id < " + LeaseTable.LAYOUT_ROW);
	}

	@Test
	void theHistoryTableIsNamedAfterTheLeaseTable() {
		assertThat(lease("a", true).getClaimTable()).isEqualTo(this.claimTable);
		assertThat(JdbcLeaseWorkerIdAssigner.builder(this.dataSource).build().getClaimTable())
			.isEqualTo("UID_WORKER_LEASE_CLAIM");
		assertThat(JdbcLeaseWorkerIdAssigner.builder(this.dataSource).leaseTable("ops.Leases").build().getClaimTable())
			.isEqualTo("ops.Leases_CLAIM");
		String longest = "t".repeat(64);
		assertThat(JdbcLeaseWorkerIdAssigner.builder(this.dataSource).leaseTable(longest).build().getClaimTable())
			.isEqualTo("t".repeat(57) + "_claim");
	}

	@Test
	void anOlderLeaseTableWithoutTheHistoryTableKeepsHandingOutWorkerIds() {
		long id = olderLeaseTableWithAReleasedWorkerId();
		JdbcLeaseWorkerIdAssigner assigner = lease("newer", false);

		WorkerAssignment again = assigner.assign(1023);
		assertThat(again.workerId()).isEqualTo(id);
		assertThat(again.highWaterMarkMillis()).isEqualTo(MARK);
		assigner.renew(id, MARK + 1);
		assigner.release(id, MARK + 2);
		assertThat(assigner.assign(1023).workerId()).isEqualTo(id);

		WorkerFleet fleet = assigner.fleet().orElseThrow();
		FleetSnapshot snapshot = fleet.read(10);
		assertThat(snapshot.workers()).singleElement().satisfies((worker) -> {
			assertThat(worker.instanceId()).isEqualTo("newer");
			assertThat(worker.state()).isEqualTo(WorkerState.HELD);
			assertThat(worker.heldSince()).as("no history to tell").isNull();
			assertThat(worker.highWaterMarkMillis()).isEqualTo(MARK + 2);
		});
		assertThat(fleet.history(id).claims()).isEmpty();
		assertThatExceptionOfType(IllegalStateException.class)
			.as("the assigner did not create the history table")
			.isThrownBy(this::claimRows);
	}

	@Test
	void schemaInitialisationAddsTheHistoryTableBesideAnOlderLeaseTable() {
		long id = olderLeaseTableWithAReleasedWorkerId();
		JdbcLeaseWorkerIdAssigner assigner = lease("upgraded", true);
		assertThat(assigner.assign(1023).workerId()).isEqualTo(id);

		ClaimHistory history = assigner.fleet().orElseThrow().history(id);
		assertThat(history.claims()).singleElement().satisfies((claim) -> {
			assertThat(claim.instanceId()).isEqualTo("upgraded");
			assertThat(claim.host()).isEqualTo("fleet-host");
			assertThat(claim.afterMarkMillis()).isEqualTo(MARK);
			assertThat(claim.end()).isEqualTo(ClaimEnd.OPEN);
		});
		assertThat(history.issuerAt(MARK)).as("the older claims were never recorded").isEmpty();
	}

	@Test
	void aHistoryRecordThatCannotBeWrittenFailsTheClaimAndLeavesTheWorkerIdFree() {
		JdbcLeaseWorkerIdAssigner first = lease("first", true);
		long id = first.assign(1023).workerId();
		first.release(id, MARK);
		TestDatabases.execute(this.dataSource, "ALTER TABLE " + this.claimTable + " ADD CONSTRAINT " + this.table
				+ "_refuse CHECK (instance_id <> 'refused')");

		assertThatExceptionOfType(WorkerAssignmentException.class)
			.isThrownBy(() -> lease("refused", false).assign(1023));
		List<List<Object>> row = TestDatabases.query(this.dataSource,
				"SELECT instance_id, lease_token FROM " + this.table + " WHERE worker_id = ?", id);
		assertThat(row.get(0)).containsExactly("first", null);
		assertThat(workerRows()).as("no worker ID inserted either").isOne();
		List<WorkerClaim> claims = first.fleet().orElseThrow().history(id).claims();
		assertThat(claims).singleElement().satisfies((claim) -> {
			assertThat(claim.instanceId()).isEqualTo("first");
			assertThat(claim.end()).as("not closed by the claim that failed").isEqualTo(ClaimEnd.RELEASED);
		});
	}

	@Test
	void aClaimWhoseTransactionFailsLeavesNoClaimRecord() {
		lease("creator", true).fleet().orElseThrow().read(1);
		AtomicBoolean refuseCommits = new AtomicBoolean(true);
		JdbcLeaseWorkerIdAssigner assigner = lease(refusingCommits(refuseCommits), "unlucky").build();

		assertThatExceptionOfType(WorkerAssignmentException.class).isThrownBy(() -> assigner.assign(1023));
		assertThat(workerRows()).isZero();
		assertThat(claimRows()).isZero();

		refuseCommits.set(false);
		long id = assigner.assign(1023).workerId();
		assertThat(assigner.fleet().orElseThrow().history(id).claims()).extracting(WorkerClaim::instanceId)
			.containsExactly("unlucky");
	}

	/**
	 * The layout's row is not a worker ID, and the rows its first start made free for the layout's worker IDs are
	 * none that was ever leased: the fleet counts and lists neither, and the first claim of such a worker ID closes no
	 * earlier claim.
	 */
	@Test
	void theFleetLeavesTheLayoutRowAndTheWorkerIdsNeverLeasedOut() {
		JdbcLeaseWorkerIdAssigner assigner = lease("with-layout", true);
		assigner.recordLayout(UidLayout.defaults());
		assertThat(workerRows()).isEqualTo(1024);
		WorkerAssignment claimed = assigner.assign(1023);
		assertThat(claimed.hasMark()).isFalse();
		FleetSnapshot fleet = assigner.fleet().orElseThrow().read(10);
		assertThat(fleet.known()).isOne();
		assertThat(fleet.held()).isOne();
		assertThat(fleet.workers()).extracting(FleetWorker::workerId).containsExactly(claimed.workerId());
		assertThat(fleet.location()).isEqualTo(this.table);
		assertThat(fleet.store()).isEqualTo("db");
		assertThat(assigner.fleet().orElseThrow().history(claimed.workerId()).claims()).singleElement()
			.satisfies((claim) -> {
				assertThat(claim.instanceId()).isEqualTo("with-layout");
				assertThat(claim.end()).isEqualTo(ClaimEnd.OPEN);
			});
	}

	@Test
	void theDisposableFleetListsEveryStartAsHeldForEverWithItsOneClaim() {
		DisposableWorkerIdAssigner assigner = DisposableWorkerIdAssigner.builder(this.dataSource)
			.workerNodeTable(this.table)
			.hostName("node-host")
			.port("9090")
			.initializeSchema(true)
			.build();
		Instant before = Instant.now().minusSeconds(60);
		long first = assigner.assign(1023).workerId();
		long second = assigner.assign(1023).workerId();
		long third = assigner.assign(1023).workerId();

		FleetSnapshot fleet = assigner.fleet().orElseThrow().read(2);
		assertThat(fleet.known()).isEqualTo(3);
		assertThat(fleet.held()).isEqualTo(3);
		assertThat(fleet.location()).isEqualTo(this.table);
		assertThat(fleet.workers()).extracting(FleetWorker::workerId).containsExactly(first, second);
		assertThat(fleet.workers().get(0)).satisfies((worker) -> {
			assertThat(worker.state()).isEqualTo(WorkerState.HELD);
			assertThat(worker.instanceId()).isEqualTo("node-host:9090");
			assertThat(worker.host()).isEqualTo("node-host");
			assertThat(worker.heldSince()).as("by the session's zone, read back right").isBetween(before,
					Instant.now().plusSeconds(60));
			assertThat(worker.leaseExpiry()).isNull();
			assertThat(worker.hasMark()).isFalse();
		});
		ClaimHistory history = assigner.fleet().orElseThrow().history(third);
		assertThat(history.claims()).singleElement().satisfies((claim) -> {
			assertThat(claim.instanceId()).isEqualTo("node-host:9090");
			assertThat(claim.end()).isEqualTo(ClaimEnd.OPEN);
		});
		assertThat(history.issuerAt(MARK)).isPresent();
		assertThat(assigner.fleet().orElseThrow().history(third + 1).claims()).isEmpty();
	}

	/** The test's pool, whose connections refuse to commit while the flag is set (and roll back instead). */
	private DataSource refusingCommits(AtomicBoolean refuse) {
		return new DelegatingDataSource(this.dataSource) {

			@Override
			public Connection getConnection() throws SQLException {
				Connection connection = super.getConnection();
				return (Connection) Proxy.newProxyInstance(getClass().getClassLoader(),
						new Class<?>[] { Connection.class }, (proxy, method, args) -> {
							if (method.getName().equals("commit") && refuse.get()) {
								throw new SQLException("commit refused by the test");
							}
							try {
								return method.invoke(connection, args);
							}
							catch (InvocationTargetException ex) {
								throw ex.getCause();
							}
						});
			}

		};
	}

}
