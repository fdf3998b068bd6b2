package io.github.uidgen.autoconfigure;

import java.time.LocalDate;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import com.zaxxer.hikari.HikariDataSource;
import io.github.uidgen.DecodedUid;
import io.github.uidgen.UidLayout;
import io.github.uidgen.UidTimeUnit;
import io.github.uidgen.snowflake.CachedUidGenerator;
import io.github.uidgen.testsupport.Duplicates;
import io.github.uidgen.testsupport.TestDatabases;
import io.github.uidgen.testsupport.TestDatabases.Database;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Section 6 of {@code docs/migrating-from-baidu.md}, read from the guide itself: the data center that ran Baidu's
 * UidGenerator (section 3's {@code application.yml}, a {@code WORKER_NODE} table 3,000 starts in) becomes data
 * center 0 and a new one starts as data center 1 on a lease table of its own. Both issue at once: no duplicate,
 * every ID above the largest stored one, data center 0's IDs exactly as the layout without data-center bits reads
 * them. Only the database URL and the table names are overridden, to reach the test's own tables.
 */
class DatacenterMigrationGuideTests {

	private static final String SECTION_6 = "<!-- The two blocks below are loaded, as they are, by "
			+ "DatacenterMigrationGuideTests";

	private static final UidLayout SINGLE = new UidLayout(UidTimeUnit.SECONDS, LocalDate.of(1986, 3, 17), 31, 15, 17);

	private static final int IDS = 200_000;

	@Test
	void theExistingDataCenterKeepsItsIdsAndTheNewOneIssuesOthers() throws Exception {
		String guide = BaiduMigrationGuide.read();
		String applicationYml = BaiduMigrationGuide.yamlBlocksAfter(guide, BaiduMigrationGuide.SECTION_3, 1).get(0);
		List<String> datacenters = BaiduMigrationGuide.yamlBlocksAfter(guide, SECTION_6, 2);
		String leases = TestDatabases.uniqueTable("uid_dc1_lease");
		try (HikariDataSource dataSource = Database.MARIADB.open()) {
			String workerNodes = BaiduMigrationGuide.createWorkerNodeTable(dataSource);
			try {
				// The data center's block takes precedence over section 3's file, as a profile's file would.
				ApplicationContextRunner dataCenter0 = BaiduMigrationGuide
					.application(dataSource, datacenters.get(0), applicationYml)
					.withPropertyValues("uid.worker.db.worker-node-table=" + workerNodes);
				ApplicationContextRunner dataCenter1 = BaiduMigrationGuide
					.application(dataSource, datacenters.get(1), applicationYml)
					.withPropertyValues("uid.worker.db.lease-table=" + leases);
				dataCenter0.run((first) -> dataCenter1.run((second) -> {
					assertThat(first).hasNotFailed();
					assertThat(second).hasNotFailed();
					CachedUidGenerator zero = ((CachedUidGenerator) first.getBean(StartingUidGenerator.class).awaitStarted());
					CachedUidGenerator one = ((CachedUidGenerator) second.getBean(StartingUidGenerator.class).awaitStarted());
					assertThat(zero.layout()).isEqualTo(SINGLE.withDatacenterBits(2));
					assertThat(one.layout()).isEqualTo(zero.layout());
					assertThat(zero.status().worker().id()).isEqualTo(3001);
					assertThat(one.status().worker().assigner()).isEqualTo("db");

					CompletableFuture<long[]> fromOne = CompletableFuture.supplyAsync(() -> take(one));
					long[] fromZero = take(zero);
					long[] oneIds = fromOne.get(60, TimeUnit.SECONDS);
					assertThat(Duplicates.count(fromZero, oneIds)).isZero();
					long[] all = Duplicates.concat(fromZero, oneIds);
					assertThat(java.util.Arrays.stream(all).min().getAsLong()).isGreaterThan(BaiduMigrationGuide.LARGEST_STORED);
					for (long uid : fromZero) {
						// Bit for bit what data center 0 issued before it had data-center bits.
						DecodedUid decoded = zero.decode(uid);
						DecodedUid before = SINGLE.decode(uid);
						assertThat(decoded.datacenterId()).isZero();
						assertThat(decoded.workerId()).isEqualTo(before.workerId()).isEqualTo(3001);
						assertThat(decoded.timestamp()).isEqualTo(before.timestamp());
						assertThat(decoded.sequence()).isEqualTo(before.sequence());
					}
					long workerOfOne = one.status().worker().id();
					for (long uid : oneIds) {
						DecodedUid decoded = zero.decode(uid);
						assertThat(decoded.datacenterId()).isEqualTo(1);
						assertThat(decoded.workerId()).isEqualTo(workerOfOne);
					}
				}));
			}
			finally {
				TestDatabases.dropTable(dataSource, workerNodes);
				TestDatabases.dropTable(dataSource, leases);
			}
		}
	}

	private static long[] take(CachedUidGenerator generator) {
		long[] ids = new long[IDS];
		for (int i = 0; i < IDS; i++) {
			ids[i] = generator.getUID();
		}
		return ids;
	}

}
