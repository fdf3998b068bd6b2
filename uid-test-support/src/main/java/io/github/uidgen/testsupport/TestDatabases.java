package io.github.uidgen.testsupport;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;

/**
 * Connection pools on the MariaDB (through the MySQL driver) and PostgreSQL servers on 127.0.0.1, and small SQL
 * helpers. Tests use table names of their own so they never trip over each other.
 */
public final class TestDatabases {

	/** The supported databases. */
	public enum Database {

		MARIADB("jdbc:mysql://127.0.0.1:3306/test?connectTimeout=5000", "root"),

		POSTGRESQL("jdbc:postgresql://127.0.0.1:5432/test?connectTimeout=5", "postgres");

		private final String url;

		private final String user;

		Database(String url, String user) {
			this.url = url;
			this.user = user;
		}

		/**
		 * Opens a small pool; close it when done.
		 * @return the pool
		 */
		public HikariDataSource open() {
			HikariDataSource dataSource = new HikariDataSource();
			dataSource.setJdbcUrl(this.url);
			dataSource.setUsername(this.user);
			dataSource.setPassword("");
			dataSource.setMaximumPoolSize(24);
			dataSource.setMinimumIdle(0);
			dataSource.setConnectionTimeout(10_000);
			dataSource.setPoolName("uid-test-" + name().toLowerCase(Locale.ROOT));
			return dataSource;
		}

	}

	private TestDatabases() {
	}

	/**
	 * Returns a table name no other test uses.
	 * @param prefix a readable prefix
	 * @return the name, lower case
	 */
	public static String uniqueTable(String prefix) {
		return (prefix + "_" + UUID.randomUUID().toString().replace("-", "").substring(0, 10)).toLowerCase(Locale.ROOT);
	}

	/**
	 * Runs one statement.
	 * @param dataSource the database
	 * @param sql the statement
	 */
	public static void execute(DataSource dataSource, String sql) {
		try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
			statement.execute(sql);
		}
		catch (SQLException ex) {
			throw new IllegalStateException(sql, ex);
		}
	}

	/**
	 * Drops a table if it exists, and the claim history table a lease table of that name has beside it.
	 * @param dataSource the database
	 * @param table the table, in lower case
	 */
	public static void dropTable(DataSource dataSource, String table) {
		execute(dataSource, "DROP TABLE IF EXISTS " + table);
		execute(dataSource, "DROP TABLE IF EXISTS " + table + "_claim");
	}

	/**
	 * Returns the rows of a query, each as a list of column values.
	 * @param dataSource the database
	 * @param sql the query
	 * @param args its parameters
	 * @return the rows
	 */
	public static List<List<Object>> query(DataSource dataSource, String sql, Object... args) {
		try (Connection connection = dataSource.getConnection();
				PreparedStatement statement = connection.prepareStatement(sql)) {
			for (int i = 0; i < args.length; i++) {
				statement.setObject(i + 1, args[i]);
			}
			List<List<Object>> rows = new ArrayList<>();
			try (ResultSet result = statement.executeQuery()) {
				int columns = result.getMetaData().getColumnCount();
				while (result.next()) {
					List<Object> row = new ArrayList<>();
					for (int c = 1; c <= columns; c++) {
						row.add(result.getObject(c));
					}
					rows.add(row);
				}
			}
			return rows;
		}
		catch (SQLException ex) {
			throw new IllegalStateException(sql, ex);
		}
	}

}
