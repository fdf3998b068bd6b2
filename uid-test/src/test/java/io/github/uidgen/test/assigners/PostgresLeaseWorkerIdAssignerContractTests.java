package io.github.uidgen.test.assigners;

import io.github.uidgen.testsupport.TestDatabases.Database;

/**
 * The lease contract on PostgreSQL.
 */
class PostgresLeaseWorkerIdAssignerContractTests extends AbstractJdbcLeaseWorkerIdAssignerContractTests {

	@Override
	Database database() {
		return Database.POSTGRESQL;
	}

}
