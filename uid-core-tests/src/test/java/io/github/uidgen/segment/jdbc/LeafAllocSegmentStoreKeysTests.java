package io.github.uidgen.segment.jdbc;

import java.time.Instant;
import java.util.List;

import com.zaxxer.hikari.HikariDataSource;
import io.github.uidgen.segment.StoredKey;
import io.github.uidgen.segment.StoredKeys;
import io.github.uidgen.testsupport.TestDatabases;
import io.github.uidgen.testsupport.TestDatabases.Database;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/**
 * What the store on Leaf's {@code leaf_alloc} reads back, on MariaDB and PostgreSQL: every row with the last number
 * handed out (Leaf's {@code max_id} is the next one), its {@code step} and {@code update_time}, in {@code biz_tag}
 * order, the list bounded and the count whole.
 */
class LeafAllocSegmentStoreKeysTests {

	@ParameterizedTest
	@EnumSource(Database.class)
	void everyRowReadsBackWithTheLastNumberHandedOutItsStepAndUpdateTime(Database database) throws Exception {
		LeafTables.withTable(database, (dataSource, table) -> {
			Instant before = Instant.now().minusSeconds(60);
			LeafTables.insert(dataSource, table, "order", 5_000_001, 100);
			LeafTables.insert(dataSource, table, "invoice", 1, 2000);
			LeafTables.insert(dataSource, table, "ticket", 1, 10);
			LeafAllocSegmentStore store = LeafAllocSegmentStore.builder(dataSource).table(table).build();
			store.claim("order", 10);
			new LeafProtocolClaimer(dataSource, table).claimWithRowStep("ticket");

			StoredKeys all = store.readKeys(10).orElseThrow();
			assertThat(all.store()).isEqualTo("leaf");
			assertThat(all.location()).isEqualTo(table);
			assertThat(all.count()).isEqualTo(3);
			assertThat(all.keys()).extracting(StoredKey::key, StoredKey::maxId, StoredKey::step)
				.as("a row never claimed from has handed out nothing")
				.containsExactly(tuple("invoice", 0L, 2000L), tuple("order", 5_000_100L, 100L), tuple("ticket", 10L, 10L));
			Instant after = Instant.now().plusSeconds(60);
			assertThat(all.keys()).allSatisfy((key) -> assertThat(key.lastClaim()).isBetween(before, after));

			StoredKeys first = store.readKeys(1).orElseThrow();
			assertThat(first.count()).isEqualTo(3);
			assertThat(first.keys()).extracting(StoredKey::key).containsExactly("invoice");
			assertThat(first.truncated()).isTrue();
		});
	}

	@ParameterizedTest
	@EnumSource(Database.class)
	void theLastClaimIsTheInstantTheRowWasWrittenWhateverTheSessionsTimeZone(Database database) {
		String table = TestDatabases.uniqueTable("leaf_alloc_tz");
		try (HikariDataSource dataSource = database.open()) {
			// Nine hours from UTC, the zone of the JVM and the servers here: a reading in the wrong zone is hours off.
			dataSource.setConnectionInitSql((database == Database.POSTGRESQL) ? "SET TIME ZONE 'Asia/Tokyo'"
					: "SET time_zone = '+09:00'");
			LeafTables.create(database, dataSource, table);
			try {
				Instant before = Instant.now().minusSeconds(60);
				LeafTables.insert(dataSource, table, "order", 1, 10);
				LeafAllocSegmentStore.builder(dataSource).table(table).build().claim("order", 10);
				Instant after = Instant.now().plusSeconds(60);
				assertThat(LeafAllocSegmentStore.builder(dataSource).table(table).build().readKeys(1).orElseThrow().keys())
					.singleElement()
					.satisfies((key) -> assertThat(key.lastClaim()).isBetween(before, after));
			}
			finally {
				TestDatabases.dropTable(dataSource, table);
			}
		}
	}

	@ParameterizedTest
	@EnumSource(Database.class)
	void anEmptyTableAnswersAnEmptyList(Database database) throws Exception {
		LeafTables.withTable(database, (dataSource, table) -> assertThat(
				LeafAllocSegmentStore.builder(dataSource).table(table).build().readKeys(10))
			.hasValue(new StoredKeys("leaf", table, 0, List.of())));
	}

	@ParameterizedTest
	@EnumSource(Database.class)
	void aTableWithoutUpdateTimeReadsBackWithoutALastClaim(Database database) {
		String table = TestDatabases.uniqueTable("leaf_bare");
		try (HikariDataSource dataSource = database.open()) {
			TestDatabases.execute(dataSource, "CREATE TABLE " + table
					+ " (biz_tag varchar(128) NOT NULL PRIMARY KEY, max_id bigint NOT NULL, step int NOT NULL)");
			try {
				TestDatabases.execute(dataSource,
						"INSERT INTO " + table + " (biz_tag, max_id, step) VALUES ('order', 101, 100)");
				assertThat(LeafAllocSegmentStore.builder(dataSource).table(table).build().readKeys(10))
					.hasValue(new StoredKeys("leaf", table, 1, List.of(new StoredKey("order", 100, 100L, null))));
			}
			finally {
				TestDatabases.dropTable(dataSource, table);
			}
		}
	}

}
