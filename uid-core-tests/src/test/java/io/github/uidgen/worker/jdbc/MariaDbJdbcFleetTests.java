package io.github.uidgen.worker.jdbc;

import io.github.uidgen.testsupport.TestDatabases.Database;

/**
 * The database assigners' fleet and claim history beyond the contract, on MariaDB.
 */
class MariaDbJdbcFleetTests extends AbstractJdbcFleetTests {

	@Override
	Database database() {
		return Database.MARIADB;
	}

}
