package io.github.uidgen.benchmarks;

import java.util.UUID;

import com.zaxxer.hikari.HikariDataSource;
import io.github.uidgen.segment.SegmentStore;
import io.github.uidgen.segment.SegmentUidGenerator;
import io.github.uidgen.segment.jdbc.JdbcSegmentStore;
import io.github.uidgen.segment.jdbc.LeafAllocSegmentStore;

import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Segment generators at their defaults on a real MariaDB (the URL from {@code -Duid.benchmarks.mariadb-url}, by default
 * {@code jdbc:mysql://127.0.0.1:3306/test?user=root}): uid's own table and Meituan Leaf's {@code leaf_alloc}, each a
 * fresh table of its own that is dropped when the generator closes, so the two stores are compared on the same
 * database in the same run.
 */
final class DatabaseSegments {

	static final String URL_PROPERTY = "uid.benchmarks.mariadb-url";

	static final String DEFAULT_URL = "jdbc:mysql://127.0.0.1:3306/test?user=root";

	private DatabaseSegments() {
	}

	/** uid's own segment table, created at the first claim. */
	static IdSource uidTable() {
		HikariDataSource dataSource = pool();
		String table = unique("uid_bench_seg_");
		return open(dataSource, table, JdbcSegmentStore.builder(dataSource).table(table).initializeSchema(true).build());
	}

	/** Leaf's table as its scripts/leaf_alloc.sql creates it, with one row of step 1,000 (uid's default step). */
	static IdSource leafTable() {
		HikariDataSource dataSource = pool();
		String table = unique("leaf_bench_");
		JdbcTemplate jdbc = new JdbcTemplate(dataSource);
		jdbc.execute("CREATE TABLE " + table + " (biz_tag varchar(128) NOT NULL DEFAULT '', max_id bigint(20) NOT NULL "
				+ "DEFAULT '1', step int(11) NOT NULL, description varchar(256) DEFAULT NULL, update_time timestamp NOT "
				+ "NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP, PRIMARY KEY (biz_tag)) ENGINE=InnoDB");
		jdbc.update("INSERT INTO " + table + " (biz_tag, max_id, step, description) VALUES ('bench', 1, 1000, "
				+ "'uid-benchmarks')");
		return open(dataSource, table, LeafAllocSegmentStore.builder(dataSource).table(table).build());
	}

	private static IdSource open(HikariDataSource dataSource, String table, SegmentStore store) {
		SegmentUidGenerator generator;
		try {
			generator = SegmentUidGenerator.builder(store).key("bench").build();
		}
		catch (RuntimeException ex) {
			drop(dataSource, table);
			throw ex;
		}
		return new IdSource() {

			@Override
			public long nextId() {
				return generator.getUID();
			}

			@Override
			public void close() {
				generator.close();
				drop(dataSource, table);
			}

		};
	}

	private static void drop(HikariDataSource dataSource, String table) {
		try {
			new JdbcTemplate(dataSource).execute("DROP TABLE IF EXISTS " + table);
		}
		finally {
			dataSource.close();
		}
	}

	private static HikariDataSource pool() {
		HikariDataSource dataSource = new HikariDataSource();
		dataSource.setJdbcUrl(System.getProperty(URL_PROPERTY, DEFAULT_URL));
		dataSource.setMaximumPoolSize(4);
		dataSource.setMinimumIdle(0);
		dataSource.setConnectionTimeout(5_000);
		dataSource.setPoolName("uid-bench-segments");
		return dataSource;
	}

	private static String unique(String prefix) {
		return prefix + UUID.randomUUID().toString().replace("-", "").substring(0, 10);
	}

}
