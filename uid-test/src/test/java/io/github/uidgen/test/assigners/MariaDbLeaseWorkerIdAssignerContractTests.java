package io.github.uidgen.test.assigners;

import io.github.uidgen.testsupport.TestDatabases.Database;

/**
 * The lease contract on MariaDB, through the MySQL driver.
 */
class MariaDbLeaseWorkerIdAssignerContractTests extends AbstractJdbcLeaseWorkerIdAssignerContractTests {

	@Override
	Database database() {
		return Database.MARIADB;
	}

}
