package io.github.uidgen.mybatis;

import java.util.UUID;

import com.zaxxer.hikari.HikariDataSource;
import io.github.uidgen.testsupport.TestDatabases;
import io.github.uidgen.testsupport.TestDatabases.Database;

/**
 * A MariaDB database of the test's own on the shared server, dropped on close, so tables can keep the fixed names
 * the entities are mapped to.
 */
final class ScratchDatabase implements AutoCloseable {

	private final HikariDataSource server = Database.MARIADB.open();

	private final String name = "uid_mb_" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);

	ScratchDatabase(String... ddl) {
		TestDatabases.execute(this.server, "CREATE DATABASE " + this.name);
		for (String statement : ddl) {
			TestDatabases.execute(this.server, statement.replace("${db}", this.name));
		}
	}

	String url() {
		return "jdbc:mysql://127.0.0.1:3306/" + this.name + "?connectTimeout=5000";
	}

	String name() {
		return this.name;
	}

	@Override
	public void close() {
		try {
			TestDatabases.execute(this.server, "DROP DATABASE IF EXISTS " + this.name);
		}
		finally {
			this.server.close();
		}
	}

}
