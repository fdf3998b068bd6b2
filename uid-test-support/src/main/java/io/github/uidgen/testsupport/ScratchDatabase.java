package io.github.uidgen.testsupport;

import java.util.List;

import com.zaxxer.hikari.HikariDataSource;
import io.github.uidgen.testsupport.TestDatabases.Database;

/**
 * A MariaDB database of a test's own on the shared server, created with its tables and dropped on close, so that
 * the tables can keep the fixed names an application maps them by (MyBatis mappers, a ShardingSphere YAML).
 */
public final class ScratchDatabase implements AutoCloseable {

	private final HikariDataSource server = Database.MARIADB.open();

	private final String name;

	/**
	 * Creates the database and its tables.
	 * @param prefix the readable start of its name
	 * @param ddl statements to run in it, {@code ${db}} standing for its name
	 */
	public ScratchDatabase(String prefix, String... ddl) {
		this.name = TestDatabases.uniqueTable(prefix);
		TestDatabases.execute(this.server, "CREATE DATABASE " + this.name);
		for (String statement : ddl) {
			TestDatabases.execute(this.server, statement.replace("${db}", this.name));
		}
	}

	/**
	 * Returns the JDBC URL of the database, for the MySQL driver; user {@code root}, no password.
	 * @return the URL
	 */
	public String url() {
		return "jdbc:mysql://127.0.0.1:3306/" + this.name + "?connectTimeout=5000";
	}

	/**
	 * Returns the database's name.
	 * @return the name
	 */
	public String name() {
		return this.name;
	}

	/**
	 * Runs a query, read from the server directly.
	 * @param sql the query, {@code ${db}} standing for the database's name
	 * @return the rows
	 */
	public List<List<Object>> query(String sql) {
		return TestDatabases.query(this.server, sql.replace("${db}", this.name));
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
