package io.github.uidgen.autoconfigure;

import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import com.zaxxer.hikari.HikariDataSource;
import io.github.uidgen.UidGenerator;
import io.github.uidgen.UidLayout;
import io.github.uidgen.UidTimeUnit;
import io.github.uidgen.snowflake.CachedUidGenerator;
import io.github.uidgen.testsupport.TestDatabases;
import io.github.uidgen.testsupport.TestDatabases.Database;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs Baidu's own uniqueness checks ({@code CachedUidGeneratorTest}: serial, then {@code 2 × cores} threads
 * sharing a counter; every ID positive and {@code parseUID}d) against a generator configured by the
 * {@code application.yml} of {@code docs/migrating-from-baidu.md}, read from the guide itself, on a
 * {@code WORKER_NODE} table that already counted 3,000 starts. Only the database URL and the table name are
 * overridden, to reach the test's own table.
 */
class BaiduMigrationGuideTests {

	private static final int SERIAL = 1_000_000;

	private static final int PARALLEL = 2_000_000;

	private static final int THREADS = Runtime.getRuntime().availableProcessors() << 1;

	@Test
	void theGuidesApplicationYmlIssuesUniqueIdsAboveTheStoredOnes() throws Exception {
		String guide = BaiduMigrationGuide.read();
		assertThat(guide).contains(Long.toString(BaiduMigrationGuide.LARGEST_STORED));
		String applicationYml = BaiduMigrationGuide.yamlBlocksAfter(guide, BaiduMigrationGuide.SECTION_3, 1).get(0);
		try (HikariDataSource dataSource = Database.MARIADB.open()) {
			String table = BaiduMigrationGuide.createWorkerNodeTable(dataSource);
			try {
				BaiduMigrationGuide.application(dataSource, applicationYml)
					.withPropertyValues("uid.worker.db.worker-node-table=" + table)
					.run((context) -> {
						assertThat(context).hasNotFailed();
						CachedUidGenerator generator = ((CachedUidGenerator) context.getBean(StartingUidGenerator.class).awaitStarted());
						assertThat(generator.layout()).isEqualTo(
								new UidLayout(UidTimeUnit.SECONDS, LocalDate.of(1986, 3, 17), 31, 15, 17));
						assertThat(generator.getScheduleInterval()).isEqualTo(Duration.ofSeconds(60));
						assertThat(generator.getBoostPower()).isEqualTo(3);
						assertThat(generator.getPaddingFactor()).isEqualTo(50);
						uniqueAndAboveTheStoredIds(generator);
					});
				assertThat(TestDatabases.query(dataSource, "SELECT ID FROM " + table))
					.containsExactly(List.of(3001L));
			}
			finally {
				TestDatabases.dropTable(dataSource, table);
			}
		}
	}

	private static void uniqueAndAboveTheStoredIds(UidGenerator generator) throws InterruptedException {
		long[] ids = new long[SERIAL + PARALLEL];
		for (int i = 0; i < SERIAL; i++) {
			ids[i] = generateLikeBaidu(generator);
		}
		AtomicInteger control = new AtomicInteger(-1);
		List<Thread> threads = new ArrayList<>();
		for (int t = 0; t < THREADS; t++) {
			Thread thread = new Thread(() -> {
				for (;;) {
					int position = control.updateAndGet((old) -> (old == PARALLEL) ? PARALLEL : old + 1);
					if (position == PARALLEL) {
						return;
					}
					ids[SERIAL + position] = generateLikeBaidu(generator);
				}
			}, "UID-generator-" + t);
			threads.add(thread);
			thread.start();
		}
		for (Thread thread : threads) {
			thread.join(60_000);
			assertThat(thread.isAlive()).isFalse();
		}
		assertThat(control.get()).isEqualTo(PARALLEL);

		Arrays.sort(ids);
		int duplicates = 0;
		for (int i = 1; i < ids.length; i++) {
			if (ids[i] == ids[i - 1]) {
				duplicates++;
			}
		}
		assertThat(duplicates).isZero();
		assertThat(ids[0]).isGreaterThan(BaiduMigrationGuide.LARGEST_STORED);
		assertThat(generator.decode(ids[0]).workerId()).isEqualTo(3001);
		assertThat(generator.decode(ids[ids.length - 1]).workerId()).isEqualTo(3001);
	}

	/** Baidu's {@code doGenerate}: take an ID, parse it, check it is positive and parsed. */
	private static long generateLikeBaidu(UidGenerator generator) {
		long uid = generator.getUID();
		String parsed = generator.parseUID(uid);
		if (uid <= 0 || parsed.isBlank() || !parsed.contains("\"workerId\":\"3001\"")) {
			throw new AssertionError("Bad ID " + uid + ": " + parsed);
		}
		return uid;
	}

}
