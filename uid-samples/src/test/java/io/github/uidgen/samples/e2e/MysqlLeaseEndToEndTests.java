package io.github.uidgen.samples.e2e;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;

/**
 * The {@code mysql} profile: worker IDs leased from a table in MySQL/MariaDB on 127.0.0.1:3306.
 */
class MysqlLeaseEndToEndTests extends LeaseAssignerEndToEndTests {

	MysqlLeaseEndToEndTests() {
		super("mysql");
	}

	@Override
	List<String> storeArguments(String runId, Duration lease) {
		return List.of("--uid.worker.db.lease-table=" + leaseTable(runId),
				"--uid.worker.db.lease-duration=" + lease.toSeconds() + "s");
	}

	@Override
	String expectedAssigner() {
		return "db";
	}

	@Override
	void removeStore(String runId) throws Exception {
		try (Connection connection = DriverManager.getConnection("jdbc:mysql://127.0.0.1:3306/test", "root", "");
				Statement statement = connection.createStatement()) {
			statement.execute("DROP TABLE IF EXISTS " + leaseTable(runId));
			statement.execute("DROP TABLE IF EXISTS " + leaseTable(runId) + "_claim");
		}
	}

	private static String leaseTable(String runId) {
		return "uid_lease_" + runId;
	}

}
