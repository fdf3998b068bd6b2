package io.github.uidgen.autoconfigure;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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
import io.github.uidgen.impl.CachedUidGenerator;
import io.github.uidgen.testsupport.TestDatabases;
import io.github.uidgen.testsupport.TestDatabases.Database;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.env.PropertySource;
import org.springframework.core.io.ByteArrayResource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs Baidu's own uniqueness checks ({@code CachedUidGeneratorTest}: serial, then {@code 2 × cores} threads
 * sharing a counter; every ID positive and {@code parseUID}d) against a generator configured by the
 * {@code application.yml} of {@code docs/migrating-from-baidu.md}, read from the guide itself, on a
 * {@code WORKER_NODE} table that already counted 3,000 starts. Only the database URL and the table name are
 * overridden, to reach the test's own table.
 */
class BaiduMigrationGuideTests {

	private static final Path GUIDE = Path.of("..", "docs", "migrating-from-baidu.md");

	private static final String MARKER = "<!-- The block below is loaded, as it is, by BaiduMigrationGuideTests";

	/** The largest stored Baidu ID the guide's layout was chosen for. */
	private static final long LARGEST_STORED = 5_514_325_674_048_299_007L;

	private static final int SERIAL = 1_000_000;

	private static final int PARALLEL = 2_000_000;

	private static final int THREADS = Runtime.getRuntime().availableProcessors() << 1;

	@Test
	void theGuidesApplicationYmlIssuesUniqueIdsAboveTheStoredOnes() throws Exception {
		String guide = Files.readString(GUIDE, StandardCharsets.UTF_8);
		assertThat(guide).contains(Long.toString(LARGEST_STORED));
		List<PropertySource<?>> applicationYml = new YamlPropertySourceLoader().load("guide application.yml",
				new ByteArrayResource(yamlBlockAfterMarker(guide).getBytes(StandardCharsets.UTF_8)));
		String table = TestDatabases.uniqueTable("uid_worker_node");
		try (HikariDataSource dataSource = Database.MARIADB.open()) {
			TestDatabases.execute(dataSource, "CREATE TABLE " + table + " (ID BIGINT NOT NULL AUTO_INCREMENT, "
					+ "HOST_NAME VARCHAR(64) NOT NULL, PORT VARCHAR(64) NOT NULL, TYPE INT NOT NULL, "
					+ "LAUNCH_DATE DATE NOT NULL, MODIFIED TIMESTAMP NOT NULL, CREATED TIMESTAMP NOT NULL, "
					+ "PRIMARY KEY(ID)) ENGINE = INNODB AUTO_INCREMENT = 3001");
			try {
				new ApplicationContextRunner()
					.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
							JdbcWorkerIdAssignerAutoConfiguration.class, UidGeneratorAutoConfiguration.class))
					.withInitializer((context) -> applicationYml
						.forEach((source) -> context.getEnvironment().getPropertySources().addLast(source)))
					.withPropertyValues("spring.datasource.url=" + dataSource.getJdbcUrl(),
							"spring.datasource.username=" + dataSource.getUsername(), "spring.datasource.password=",
							"uid.worker.db.worker-node-table=" + table)
					.run((context) -> {
						assertThat(context).hasNotFailed();
						CachedUidGenerator generator = context.getBean(CachedUidGenerator.class);
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
		assertThat(ids[0]).isGreaterThan(LARGEST_STORED);
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

	private static String yamlBlockAfterMarker(String guide) throws IOException {
		int marker = guide.indexOf(MARKER);
		assertThat(marker).as("marker in the guide").isNotNegative();
		int start = guide.indexOf("```yaml\n", marker) + "```yaml\n".length();
		int end = guide.indexOf("```", start);
		return guide.substring(start, end);
	}

}
