package io.github.uidgen.samples.e2e;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;

/**
 * The {@code mysql} profile with {@code --uid.generator=segment}: segments claimed from a table in MySQL/MariaDB on
 * 127.0.0.1:3306.
 */
class MysqlSegmentGeneratorEndToEndTests extends SegmentGeneratorEndToEndTests {

	MysqlSegmentGeneratorEndToEndTests() {
		super("mysql");
	}

	@Override
	List<String> storeArguments(String runId) {
		return List.of("--uid.segment.db.table=" + table(runId), "--uid.worker.db.lease-table=" + leaseTable(runId));
	}

	@Override
	void removeStore(String runId) throws Exception {
		try (Connection connection = DriverManager.getConnection("jdbc:mysql://127.0.0.1:3306/test", "root", "");
				Statement statement = connection.createStatement()) {
			statement.execute("DROP TABLE IF EXISTS " + table(runId));
			statement.execute("DROP TABLE IF EXISTS " + leaseTable(runId));
			statement.execute("DROP TABLE IF EXISTS " + leaseTable(runId) + "_claim");
		}
	}

	private static String table(String runId) {
		return "uid_seg_" + runId;
	}

	/** The profile's worker-ID assigner is not used by the segment generator; kept off the shared table anyway. */
	private static String leaseTable(String runId) {
		return "uid_lease_" + runId;
	}

}
