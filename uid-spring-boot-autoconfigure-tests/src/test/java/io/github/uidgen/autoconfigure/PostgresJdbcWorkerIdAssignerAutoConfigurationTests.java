package io.github.uidgen.autoconfigure;

/**
 * The db assigner's auto-configuration on PostgreSQL.
 */
class PostgresJdbcWorkerIdAssignerAutoConfigurationTests extends AbstractJdbcWorkerIdAssignerAutoConfigurationTests {

	@Override
	String url() {
		return "jdbc:postgresql://127.0.0.1:5432/test";
	}

	@Override
	String username() {
		return "postgres";
	}

}
