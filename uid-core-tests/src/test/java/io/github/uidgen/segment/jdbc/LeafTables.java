package io.github.uidgen.segment.jdbc;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;

import io.github.uidgen.testsupport.TestDatabases;
import io.github.uidgen.testsupport.TestDatabases.Database;

/**
 * Meituan Leaf's {@code leaf_alloc} table as its deployments have it: created with Leaf's own DDL
 * ({@code scripts/leaf_alloc.sql}; the same columns on PostgreSQL), rows inserted the way Leaf's README does.
 */
final class LeafTables {

	private LeafTables() {
	}

	/** Work on a Leaf table of a test's own. */
	@FunctionalInterface
	interface TableWork {

		void run(DataSource dataSource, String table) throws Exception;

	}

	/**
	 * Creates a Leaf table with a name of its own, runs work on it and drops it.
	 * @param database the database to create it in
	 * @param work the work
	 */
	static void withTable(Database database, TableWork work) throws Exception {
		String table = TestDatabases.uniqueTable("leaf_alloc");
		try (HikariDataSource dataSource = database.open()) {
			create(database, dataSource, table);
			try {
				work.run(dataSource, table);
			}
			finally {
				TestDatabases.dropTable(dataSource, table);
			}
		}
	}

	static void create(Database database, DataSource dataSource, String table) {
		TestDatabases.execute(dataSource, (database == Database.POSTGRESQL)
				? "CREATE TABLE " + table + " (biz_tag varchar(128) NOT NULL DEFAULT '' PRIMARY KEY, "
						+ "max_id bigint NOT NULL DEFAULT 1, step int NOT NULL, description varchar(256) DEFAULT NULL, "
						+ "update_time timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP)"
				: "CREATE TABLE `" + table + "` (`biz_tag` varchar(128) NOT NULL DEFAULT '', "
						+ "`max_id` bigint(20) NOT NULL DEFAULT '1', `step` int(11) NOT NULL, "
						+ "`description` varchar(256) DEFAULT NULL, "
						+ "`update_time` timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP, "
						+ "PRIMARY KEY (`biz_tag`)) ENGINE=InnoDB");
	}

	static void insert(DataSource dataSource, String table, String tag, long maxId, int step) {
		TestDatabases.execute(dataSource, "INSERT INTO " + table + " (biz_tag, max_id, step, description) VALUES ('"
				+ tag + "', " + maxId + ", " + step + ", 'test')");
	}

	static long maxId(DataSource dataSource, String table, String tag) {
		return column(dataSource, table, tag, "max_id");
	}

	static long step(DataSource dataSource, String table, String tag) {
		return column(dataSource, table, tag, "step");
	}

	private static long column(DataSource dataSource, String table, String tag, String column) {
		return ((Number) TestDatabases.query(dataSource, "SELECT " + column + " FROM " + table + " WHERE biz_tag = ?", tag)
			.get(0)
			.get(0)).longValue();
	}

}
