package io.github.uidgen.samples.e2e;

import java.util.List;

import com.zaxxer.hikari.HikariDataSource;
import io.github.uidgen.testsupport.TestDatabases;

/**
 * The claim storm on the {@code mysql} profile: MariaDB on 127.0.0.1:3306, a lease table of the run's own, which
 * the eight instances create at once ({@code initialize-schema}).
 */
class MysqlClaimStormEndToEndTests extends ClaimStormEndToEndTests {

	MysqlClaimStormEndToEndTests() {
		super("mysql");
	}

	@Override
	List<String> storeArguments(String namespace) {
		return List.of("--uid.worker.db.lease-table=" + namespace);
	}

	@Override
	void removeNamespace(String namespace) {
		try (HikariDataSource dataSource = TestDatabases.Database.MARIADB.open()) {
			TestDatabases.dropTable(dataSource, namespace);
		}
	}

}
