package io.github.uidgen.segment.jdbc;

import com.zaxxer.hikari.HikariDataSource;
import io.github.uidgen.InvalidSettingException;
import io.github.uidgen.segment.SegmentRange;
import io.github.uidgen.segment.SegmentUidGenerator;
import io.github.uidgen.testsupport.TestDatabases;
import io.github.uidgen.testsupport.TestDatabases.Database;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * The store on Leaf's own {@code leaf_alloc}, on MariaDB and PostgreSQL: Leaf's arithmetic between claims of its own
 * and a Leaf server's, the {@code step} column honoured and never written, and rows and tables that are not fit
 * refused with the statement that fixes them, nothing claimed.
 */
class LeafAllocSegmentStoreTests {

	@ParameterizedTest
	@EnumSource(Database.class)
	void claimsFollowLeafsArithmeticInterleavedWithALeafServersAndLeaveTheStepAlone(Database database)
			throws Exception {
		LeafTables.withTable(database, (dataSource, table) -> {
			LeafTables.insert(dataSource, table, "order", 5_000_001, 100);
			LeafAllocSegmentStore store = LeafAllocSegmentStore.builder(dataSource).table(table).build();
			LeafProtocolClaimer leaf = new LeafProtocolClaimer(dataSource, table);

			assertThat(store.claim("order", 10)).as("the step column is the smallest step")
				.isEqualTo(new SegmentRange(5_000_001, 5_000_100));
			assertThat(LeafTables.maxId(dataSource, table, "order")).as("max_id is exclusive, as in Leaf")
				.isEqualTo(5_000_101);
			assertThat(leaf.claimWithRowStep("order").range()).isEqualTo(new SegmentRange(5_000_101, 5_000_200));
			assertThat(store.claim("order", 250)).isEqualTo(new SegmentRange(5_000_201, 5_000_450));
			assertThat(leaf.claimWithStep("order", 400).range()).isEqualTo(new SegmentRange(5_000_451, 5_000_850));
			assertThat(store.claim("order", 100)).isEqualTo(new SegmentRange(5_000_851, 5_000_950));
			assertThat(LeafTables.maxId(dataSource, table, "order")).isEqualTo(5_000_951);
			assertThat(LeafTables.step(dataSource, table, "order")).as("never written").isEqualTo(100);
		});
	}

	@ParameterizedTest
	@EnumSource(Database.class)
	void aGeneratorStartsAtTheRowsStepWhenItIsLargerThanItsOwn(Database database) throws Exception {
		LeafTables.withTable(database, (dataSource, table) -> {
			LeafTables.insert(dataSource, table, "ticket", 1, 2000);
			LeafAllocSegmentStore store = LeafAllocSegmentStore.builder(dataSource).table(table).build();
			try (SegmentUidGenerator generator = SegmentUidGenerator.builder(store)
				.key("ticket")
				.step(500)
				.build()) {
				assertThat(generator.getUID()).as("Leaf's first number of a new row").isEqualTo(1);
				assertThat(generator.getStep()).isEqualTo(2000);
				assertThat(generator.getCurrentSegment()).isEqualTo(new SegmentRange(1, 2000));
			}
		});
	}

	@ParameterizedTest
	@EnumSource(Database.class)
	void anUnknownTagFailsWithTheInsertThatCreatesItAndARowInsertedLaterIsClaimedFrom(Database database) throws Exception {
		LeafTables.withTable(database, (dataSource, table) -> {
			LeafAllocSegmentStore store = LeafAllocSegmentStore.builder(dataSource).table(table).build();
			LeafAllocRowException unknown = catchThrowableOfType(LeafAllocRowException.class,
					() -> store.claim("invoice", 300));
			assertThat(unknown.getTag()).isEqualTo("invoice");
			assertThat(unknown.getTable()).isEqualTo(table);
			assertThat(unknown).hasMessageContaining("There is no row for biz_tag 'invoice' in " + table)
				.hasMessageContaining("INSERT INTO " + table + " (biz_tag, max_id, step, description) VALUES "
						+ "('invoice', 1, 300, 'uid segment key invoice');");
			assertThat(TestDatabases.query(dataSource, "SELECT biz_tag FROM " + table)).as("nothing created")
				.isEmpty();

			TestDatabases.execute(dataSource, unknown.getStatement());
			assertThat(store.claim("invoice", 300)).as("picked up without a restart")
				.isEqualTo(new SegmentRange(1, 300));
		});
	}

	@ParameterizedTest
	@EnumSource(Database.class)
	void aRowWithANonPositiveStepIsRefusedAndNothingIsClaimed(Database database) throws Exception {
		LeafTables.withTable(database, (dataSource, table) -> {
			LeafTables.insert(dataSource, table, "order", 777, 0);
			LeafAllocSegmentStore store = LeafAllocSegmentStore.builder(dataSource).table(table).build();
			assertThatExceptionOfType(LeafAllocRowException.class).isThrownBy(() -> store.claim("order", 100))
				.withMessageContaining("The row of biz_tag 'order' in " + table + " has step 0")
				.withMessageContaining("UPDATE " + table + " SET step = 1000 WHERE biz_tag = 'order';");
			assertThat(LeafTables.maxId(dataSource, table, "order")).as("rolled back").isEqualTo(777);
		});
	}

	@ParameterizedTest
	@EnumSource(Database.class)
	void aMissingTableIsNamedWithLeafsDdlAndPickedUpOnceCreated(Database database) {
		String table = TestDatabases.uniqueTable("leaf_alloc");
		try (HikariDataSource dataSource = database.open()) {
			LeafAllocSegmentStore store = LeafAllocSegmentStore.builder(dataSource).table(table).build();
			assertThatExceptionOfType(LeafAllocTableException.class).isThrownBy(() -> store.claim("order", 1))
				.withMessageContaining("The Leaf table " + table + " does not exist")
				.withMessageContaining("uid.segment.leaf.table")
				.withMessageContaining("max_id")
				.satisfies((ex) -> assertThat(ex.getTable()).isEqualTo(table));
			LeafTables.create(database, dataSource, table);
			try {
				LeafTables.insert(dataSource, table, "order", 1, 10);
				assertThat(store.claim("order", 1)).isEqualTo(new SegmentRange(1, 10));
			}
			finally {
				TestDatabases.dropTable(dataSource, table);
			}
		}
	}

	@ParameterizedTest
	@EnumSource(Database.class)
	void tablesOfAnotherShapeAreRefusedNamingWhatIsWrong(Database database) {
		String uidTable = TestDatabases.uniqueTable("uid_seg");
		String intMaxId = TestDatabases.uniqueTable("leaf_int");
		try (HikariDataSource dataSource = database.open()) {
			try {
				JdbcSegmentStore.builder(dataSource).table(uidTable).initializeSchema(true).build().claim("order", 1);
				TestDatabases.execute(dataSource, "CREATE TABLE " + intMaxId
						+ " (biz_tag varchar(128) NOT NULL PRIMARY KEY, max_id int NOT NULL, step int NOT NULL)");
				assertThatExceptionOfType(LeafAllocTableException.class)
					.isThrownBy(() -> LeafAllocSegmentStore.builder(dataSource).table(uidTable).build().claim("order", 1))
					.withMessageStartingWith("The table " + uidTable + " is not Leaf's leaf_alloc: it has no biz_tag "
							+ "column (columns found: [segment_key, max_id, created, modified])");
				assertThatExceptionOfType(LeafAllocTableException.class)
					.isThrownBy(() -> LeafAllocSegmentStore.builder(dataSource).table(intMaxId).build().claim("order", 1))
					.withMessageContaining("its max_id column is not a bigint");
			}
			finally {
				TestDatabases.dropTable(dataSource, uidTable);
				TestDatabases.dropTable(dataSource, intMaxId);
			}
		}
	}

	@Test
	void tableNamesThatAreNotPlainIdentifiersAreRefused() {
		try (HikariDataSource dataSource = new HikariDataSource()) {
			assertThatExceptionOfType(InvalidSettingException.class)
				.isThrownBy(() -> LeafAllocSegmentStore.builder(dataSource).table("leaf_alloc; DROP TABLE x"))
				.satisfies((ex) -> assertThat(ex.getSetting()).isEqualTo("table"));
		}
	}

}
