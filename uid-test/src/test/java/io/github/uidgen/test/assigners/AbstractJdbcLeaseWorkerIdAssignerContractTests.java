package io.github.uidgen.test.assigners;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import com.zaxxer.hikari.HikariDataSource;
import io.github.uidgen.test.AbstractLeaseWorkerIdAssignerContractTests;
import io.github.uidgen.test.WorkerFleetContract;
import io.github.uidgen.testsupport.TestDatabases;
import io.github.uidgen.testsupport.TestDatabases.Database;
import io.github.uidgen.worker.WorkerIdAssigner;
import io.github.uidgen.worker.jdbc.JdbcLeaseWorkerIdAssigner;
import io.github.uidgen.worker.support.LeaseSettings;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The lease contract for the database assigner, each test on a fresh table of its own.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AbstractJdbcLeaseWorkerIdAssignerContractTests extends AbstractLeaseWorkerIdAssignerContractTests {

	private HikariDataSource dataSource;

	private String table;

	private final List<String> tables = new ArrayList<>();

	abstract Database database();

	@BeforeAll
	void openPool() {
		this.dataSource = database().open();
	}

	@BeforeEach
	void newTable() {
		this.table = TestDatabases.uniqueTable("uid_lease_contract");
		this.tables.add(this.table);
	}

	@AfterEach
	void dropTable() {
		TestDatabases.dropTable(this.dataSource, this.table);
	}

	@AfterAll
	void closePool() {
		this.dataSource.close();
	}

	@Override
	protected WorkerIdAssigner newAssigner(String instanceId, Duration lease) {
		return newAssigner(instanceId, lease, LeaseSettings.DEFAULT_CLAIM_HISTORY);
	}

	private WorkerIdAssigner newAssigner(String instanceId, Duration lease, int claimHistory) {
		return JdbcLeaseWorkerIdAssigner.builder(this.dataSource)
			.leaseTable(this.table)
			.leaseDuration(lease)
			.instanceId(instanceId)
			.hostName("contract-host")
			.port("8080")
			.claimHistory(claimHistory)
			.initializeSchema(true)
			.build();
	}

	/** The fleet and claim history, on the lease table of each test and its history table. */
	@Nested
	class Fleet extends WorkerFleetContract {

		@Override
		protected WorkerIdAssigner newAssigner(String instanceId, Duration lease, int claimHistory) {
			return AbstractJdbcLeaseWorkerIdAssignerContractTests.this.newAssigner(instanceId, lease, claimHistory);
		}

	}

	@Test
	void theLeaseRowRecordsWhoHoldsItAndWhenItExpiresByTheDatabaseClock() {
		WorkerIdAssigner assigner = newAssigner("row-check");
		long workerId = claim(assigner, MAX_WORKER_ID);
		assigner.renew(workerId, MARK);
		List<List<Object>> rows = TestDatabases.query(this.dataSource, "SELECT instance_id, host_name, port, "
				+ "high_water_mark, CASE WHEN lease_expires_at > created THEN 1 ELSE 0 END FROM " + this.table
				+ " WHERE worker_id = ?", workerId);
		assertThat(rows).hasSize(1);
		assertThat(rows.get(0)).extracting((value) -> String.valueOf(value))
			.containsExactly("row-check", "contract-host", "8080", String.valueOf(MARK), "1");
		assigner.release(workerId, MARK + 1);
		List<List<Object>> released = TestDatabases.query(this.dataSource, "SELECT lease_token, high_water_mark FROM "
				+ this.table + " WHERE worker_id = ?", workerId);
		assertThat(released.get(0).get(0)).isNull();
		assertThat(String.valueOf(released.get(0).get(1))).isEqualTo(String.valueOf(MARK + 1));
	}

}
