package io.github.uidgen.worker.jdbc;

import io.github.uidgen.testsupport.TestDatabases.Database;

/**
 * The database assigners' fleet and claim history beyond the contract, on PostgreSQL.
 */
class PostgresJdbcFleetTests extends AbstractJdbcFleetTests {

	@Override
	Database database() {
		return Database.POSTGRESQL;
	}

}
