package io.github.uidgen.segment.jdbc;

import java.time.Instant;
import java.util.List;

import com.zaxxer.hikari.HikariDataSource;
import io.github.uidgen.InvalidSettingException;
import io.github.uidgen.segment.SegmentRange;
import io.github.uidgen.segment.SegmentStoreException;
import io.github.uidgen.segment.SegmentStoreUnavailableException;
import io.github.uidgen.segment.StoredKeys;
import io.github.uidgen.testsupport.ServerProcess;
import io.github.uidgen.testsupport.TestDatabases;
import io.github.uidgen.testsupport.TestDatabases.Database;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The database store on MariaDB and PostgreSQL: the table created when asked, the DDL offered when it is missing, and
 * claims that commit on their own whatever transaction the caller is in, and readings that create nothing.
 */
class JdbcSegmentStoreTests {

	@ParameterizedTest
	@EnumSource(Database.class)
	void aMissingTableFailsWithTheDdlThatCreatesIt(Database database) {
		String table = TestDatabases.uniqueTable("uid_seg_missing");
		try (HikariDataSource dataSource = database.open()) {
			JdbcSegmentStore store = JdbcSegmentStore.builder(dataSource).table(table).build();
			SegmentTableMissingException missing = (SegmentTableMissingException) catchStoreException(store);
			assertThat(missing.getTable()).isEqualTo(table);
			assertThat(missing.getMessage()).contains("CREATE TABLE IF NOT EXISTS " + table)
				.contains("uid.segment.db.initialize-schema=true");
			TestDatabases.execute(dataSource, missing.getDdl());
			try {
				assertThat(store.claim("orders", 3)).isEqualTo(new SegmentRange(1, 3));
			}
			finally {
				TestDatabases.dropTable(dataSource, table);
			}
		}
	}

	@ParameterizedTest
	@EnumSource(Database.class)
	void aReadingCreatesNoTableAndNamesTheDdlWhenTheStoreWouldNotCreateItEither(Database database) {
		String table = TestDatabases.uniqueTable("uid_seg_read");
		try (HikariDataSource dataSource = database.open()) {
			JdbcSegmentStore creating = JdbcSegmentStore.builder(dataSource).table(table).initializeSchema(true).build();
			assertThat(creating.readKeys(10)).hasValue(new StoredKeys("db", table, 0, List.of()));
			JdbcSegmentStore notCreating = JdbcSegmentStore.builder(dataSource).table(table).build();
			assertThatExceptionOfType(SegmentTableMissingException.class).isThrownBy(() -> notCreating.readKeys(10))
				.satisfies((ex) -> assertThat(ex.getDdl()).contains("CREATE TABLE IF NOT EXISTS " + table));
			try {
				creating.claim("orders", 3);
				TestDatabases.execute(dataSource, "DELETE FROM " + table);
				assertThat(notCreating.readKeys(10)).as("a table without rows")
					.hasValue(new StoredKeys("db", table, 0, List.of()));
			}
			finally {
				TestDatabases.dropTable(dataSource, table);
			}
		}
	}

	@ParameterizedTest
	@EnumSource(Database.class)
	void theLastClaimIsTheInstantOfTheClaimWhateverTheSessionsTimeZone(Database database) {
		String table = TestDatabases.uniqueTable("uid_seg_tz");
		try (HikariDataSource dataSource = database.open()) {
			// Nine hours from UTC, the zone of the JVM and the servers here: a reading in the wrong zone is hours off.
			dataSource.setConnectionInitSql((database == Database.POSTGRESQL) ? "SET TIME ZONE 'Asia/Tokyo'"
					: "SET time_zone = '+09:00'");
			JdbcSegmentStore store = JdbcSegmentStore.builder(dataSource).table(table).initializeSchema(true).build();
			try {
				Instant before = Instant.now().minusSeconds(60);
				store.claim("orders", 3);
				Instant after = Instant.now().plusSeconds(60);
				assertThat(store.readKeys(1).orElseThrow().keys()).singleElement()
					.satisfies((key) -> assertThat(key.lastClaim()).isBetween(before, after));
			}
			finally {
				TestDatabases.dropTable(dataSource, table);
			}
		}
	}

	@ParameterizedTest
	@EnumSource(Database.class)
	void aClaimCommitsOnItsOwnEvenInsideACallersTransactionThatRollsBack(Database database) {
		String table = TestDatabases.uniqueTable("uid_seg_tx");
		try (HikariDataSource dataSource = database.open()) {
			JdbcSegmentStore store = JdbcSegmentStore.builder(dataSource).table(table).initializeSchema(true).build();
			try {
				TransactionTemplate callers = new TransactionTemplate(new DataSourceTransactionManager(dataSource));
				SegmentRange insideRolledBack = callers.execute((status) -> {
					SegmentRange range = store.claim("orders", 100);
					status.setRollbackOnly();
					return range;
				});
				assertThat(insideRolledBack).isEqualTo(new SegmentRange(1, 100));
				assertThat(store.claim("orders", 100)).as("the rolled-back caller's range is not handed out again")
					.isEqualTo(new SegmentRange(101, 200));
				assertThat(TestDatabases.query(dataSource, "SELECT max_id FROM " + table + " WHERE segment_key = ?",
						"orders"))
					.singleElement()
					.satisfies((row) -> assertThat(((Number) row.get(0)).longValue()).isEqualTo(200));
			}
			finally {
				TestDatabases.dropTable(dataSource, table);
			}
		}
	}

	@Test
	void anUnreachableDatabaseFailsWithAClearMessage() {
		try (HikariDataSource dataSource = new HikariDataSource()) {
			dataSource.setJdbcUrl("jdbc:mysql://127.0.0.1:" + ServerProcess.freePort() + "/test?connectTimeout=1000");
			dataSource.setUsername("root");
			dataSource.setConnectionTimeout(1000);
			dataSource.setInitializationFailTimeout(-1);
			JdbcSegmentStore store = JdbcSegmentStore.builder(dataSource).initializeSchema(true).build();
			assertThat(catchStoreException(store)).isInstanceOf(SegmentStoreUnavailableException.class)
				.hasMessageStartingWith("Cannot reach the database that hands out uid segments");
		}
	}

	@Test
	void tableNamesThatAreNotPlainIdentifiersAreRefused() {
		try (HikariDataSource dataSource = new HikariDataSource()) {
			assertThatExceptionOfType(InvalidSettingException.class)
				.isThrownBy(() -> JdbcSegmentStore.builder(dataSource).table("t; DROP TABLE x"))
				.satisfies((ex) -> assertThat(ex.getSetting()).isEqualTo("table"));
		}
	}

	private static SegmentStoreException catchStoreException(JdbcSegmentStore store) {
		try {
			store.claim("orders", 1);
		}
		catch (SegmentStoreException ex) {
			return ex;
		}
		throw new AssertionError("The claim succeeded");
	}

}
