package io.github.uidgen.segment.jdbc;

import com.zaxxer.hikari.HikariDataSource;
import io.github.uidgen.segment.SegmentRange;
import io.github.uidgen.segment.SegmentStore;
import io.github.uidgen.segment.SegmentStoreUnavailableException;
import io.github.uidgen.testsupport.StatementCuttingProxy;
import io.github.uidgen.testsupport.TestDatabases;
import io.github.uidgen.testsupport.TestDatabases.Database;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A segment claim whose {@code COMMIT} reached MariaDB but whose answer was lost on the way back: the driver reports
 * the broken connection, HikariCP closes it, and the rollback Spring runs next fails with only "Connection is closed",
 * which Spring throws in place of the commit's failure. The claim is reported as the database out of reach
 * ({@link SegmentStoreUnavailableException}: what it is, and what a start rides through), not as a table uid cannot
 * use; the range it committed is a gap, and the next claim hands out the numbers above it.
 */
class SegmentClaimCutAtCommitTests {

	@Test
	void aDbClaimWhoseCommitAnswerIsLostIsReportedAsTheDatabaseOutOfReach() {
		String table = TestDatabases.uniqueTable("uid_seg_cut");
		try (HikariDataSource direct = Database.MARIADB.open();
				StatementCuttingProxy proxy = StatementCuttingProxy.start(3306);
				HikariDataSource pool = proxy.pool("uid-test-cut-segment")) {
			try {
				JdbcSegmentStore store = JdbcSegmentStore.builder(pool).table(table).initializeSchema(true).build();
				assertThat(store.claim("orders", 10)).isEqualTo(new SegmentRange(1, 10));

				claimCutAtCommit(proxy, store, "orders", "Cannot reach the database that hands out uid segments");

				assertThat(store.claim("orders", 10)).as("above the range committed unanswered, a gap")
					.isEqualTo(new SegmentRange(21, 30));
				assertThat(TestDatabases.query(direct, "SELECT max_id FROM " + table + " WHERE segment_key = ?",
						"orders"))
					.singleElement()
					.satisfies((row) -> assertThat(((Number) row.get(0)).longValue()).isEqualTo(30));
			}
			finally {
				TestDatabases.dropTable(direct, table);
			}
		}
	}

	@Test
	void aLeafClaimWhoseCommitAnswerIsLostIsReportedAsTheDatabaseOutOfReach() throws Exception {
		LeafTables.withTable(Database.MARIADB, (direct, table) -> {
			LeafTables.insert(direct, table, "order", 1, 10);
			try (StatementCuttingProxy proxy = StatementCuttingProxy.start(3306);
					HikariDataSource pool = proxy.pool("uid-test-cut-leaf")) {
				LeafAllocSegmentStore store = LeafAllocSegmentStore.builder(pool).table(table).build();
				assertThat(store.claim("order", 10)).isEqualTo(new SegmentRange(1, 10));

				claimCutAtCommit(proxy, store, "order",
						"Cannot reach the database that holds the Leaf table " + table);

				assertThat(store.claim("order", 10)).as("above the range committed unanswered, a gap")
					.isEqualTo(new SegmentRange(21, 30));
				assertThat(LeafTables.maxId(direct, table, "order")).isEqualTo(31);
			}
		});
	}

	/** Claims once with the answer to its {@code COMMIT} lost, and checks how the failure is reported. */
	private static void claimCutAtCommit(StatementCuttingProxy proxy, SegmentStore store, String key,
			String outOfReach) {
		proxy.loseReply("commit");
		assertThatExceptionOfType(SegmentStoreUnavailableException.class).isThrownBy(() -> store.claim(key, 10))
			.withMessageStartingWith(outOfReach);
		assertThat(proxy.cuts()).singleElement().asString().isEqualToIgnoringCase("reply OK commit");
	}

}
