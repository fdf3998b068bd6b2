package io.github.uidgen.autoconfigure;

/**
 * The db assigner's auto-configuration on MariaDB, through MySQL Connector/J.
 */
class MariaDbJdbcWorkerIdAssignerAutoConfigurationTests extends AbstractJdbcWorkerIdAssignerAutoConfigurationTests {

	@Override
	String url() {
		return "jdbc:mysql://127.0.0.1:3306/test";
	}

	@Override
	String username() {
		return "root";
	}

}
