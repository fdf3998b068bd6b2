package io.github.uidgen.worker.jdbc;

import javax.sql.DataSource;

import com.mysql.cj.jdbc.MysqlDataSource;
import io.github.uidgen.testsupport.TestDatabases.Database;

/**
 * The database assigner's disposable mode and table handling on MariaDB, through the MySQL driver.
 */
class MariaDbJdbcWorkerIdAssignerTests extends AbstractJdbcWorkerIdAssignerTests {

	@Override
	Database database() {
		return Database.MARIADB;
	}

	@Override
	String referenceWorkerNodeDdl(String table) {
		return "CREATE TABLE " + table + " (ID BIGINT NOT NULL AUTO_INCREMENT COMMENT 'worker id', "
				+ "HOST_NAME VARCHAR(64) NOT NULL COMMENT 'host', PORT VARCHAR(64) NOT NULL COMMENT 'port', "
				+ "TYPE INT NOT NULL COMMENT 'ACTUAL or CONTAINER', LAUNCH_DATE DATE NOT NULL COMMENT 'launched', "
				+ "MODIFIED TIMESTAMP NOT NULL COMMENT 'modified', CREATED TIMESTAMP NOT NULL COMMENT 'created', "
				+ "PRIMARY KEY (ID)) COMMENT = 'worker nodes' ENGINE = INNODB";
	}

	@Override
	String qualifier() {
		return "test";
	}

	@Override
	DataSource unreachableDataSource() {
		MysqlDataSource dataSource = new MysqlDataSource();
		dataSource.setUrl("jdbc:mysql://127.0.0.1:1/test?connectTimeout=2000");
		dataSource.setUser("root");
		return dataSource;
	}

}
