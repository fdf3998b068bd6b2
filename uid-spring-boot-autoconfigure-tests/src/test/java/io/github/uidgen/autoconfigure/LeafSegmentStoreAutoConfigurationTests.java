package io.github.uidgen.autoconfigure;

import java.nio.file.Path;
import java.util.UUID;

import io.github.uidgen.UidGenerator;
import io.github.uidgen.snowflake.DefaultUidGenerator;
import io.github.uidgen.segment.SegmentUidGenerator;
import io.github.uidgen.segment.SegmentUidGenerators;
import io.github.uidgen.segment.jdbc.LeafAllocRowException;
import io.github.uidgen.segment.jdbc.LeafAllocSegmentStore;
import io.github.uidgen.worker.WorkerIdAssigner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

import static io.github.uidgen.autoconfigure.InvalidConfigurationTests.assertFailure;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@code uid.segment.store=leaf} on the real MariaDB and PostgreSQL: the store on a table laid out as Leaf
 * creates it, the bean's key continuing a live row, a row inserted while running picked up, and start-up failures
 * that name the property, the table or row, and the statement that fixes it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LeafSegmentStoreAutoConfigurationTests {

	private static final String MARIADB = "jdbc:mysql://127.0.0.1:3306/test";

	private static final String POSTGRESQL = "jdbc:postgresql://127.0.0.1:5432/test";

	private final String table = "leaf_ac_" + UUID.randomUUID().toString().substring(0, 8);

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
				StaticWorkerIdAssignerAutoConfiguration.class, JdbcWorkerIdAssignerAutoConfiguration.class,
				UidGeneratorAutoConfiguration.class))
		.withPropertyValues("uid.generator=segment", "uid.segment.store=leaf", "uid.segment.leaf.table=" + this.table);

	private final ApplicationContextRunner onMariaDb = this.contextRunner.withPropertyValues(
			"spring.datasource.url=" + MARIADB, "spring.datasource.username=root", "spring.datasource.password=");

	@BeforeAll
	void createLeafTables() {
		jdbc(MARIADB).execute("CREATE TABLE `" + this.table + "` (`biz_tag` varchar(128) NOT NULL DEFAULT '', "
				+ "`max_id` bigint(20) NOT NULL DEFAULT '1', `step` int(11) NOT NULL, "
				+ "`description` varchar(256) DEFAULT NULL, "
				+ "`update_time` timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP, "
				+ "PRIMARY KEY (`biz_tag`)) ENGINE=InnoDB");
		jdbc(POSTGRESQL).execute("CREATE TABLE " + this.table + " (biz_tag varchar(128) NOT NULL DEFAULT '' PRIMARY KEY, "
				+ "max_id bigint NOT NULL DEFAULT 1, step int NOT NULL, description varchar(256) DEFAULT NULL, "
				+ "update_time timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP)");
		for (String url : new String[] { MARIADB, POSTGRESQL }) {
			jdbc(url).update("INSERT INTO " + this.table + " (biz_tag, max_id, step, description) VALUES "
					+ "('order', 730001, 200, 'orders'), ('bad-step', 1, 0, 'broken'), ('mixed', 1, 100, 'both modes')");
		}
	}

	@AfterAll
	void dropLeafTables() {
		jdbc(MARIADB).execute("DROP TABLE IF EXISTS " + this.table);
		jdbc(POSTGRESQL).execute("DROP TABLE IF EXISTS " + this.table);
	}

	private static JdbcTemplate jdbc(String url) {
		return new JdbcTemplate(new DriverManagerDataSource(url, url.contains("mysql") ? "root" : "postgres", ""));
	}

	@Test
	void theBeansKeyContinuesALiveRowAndARowInsertedWhileRunningIsPickedUp() {
		this.onMariaDb.withPropertyValues("uid.segment.key=order").run((context) -> {
			assertThat(context).hasSingleBean(LeafAllocSegmentStore.class).doesNotHaveBean(WorkerIdAssigner.class);
			SegmentUidGenerator generator = (SegmentUidGenerator) context.getBean(UidGenerator.class);
			assertThat(generator.getStoreName()).isEqualTo("leaf");
			long first = generator.getUID();
			assertThat(first).as("Leaf's next number of the row").isBetween(730_001L, 731_000L);
			assertThat(generator.getStep()).as("at least the row's step").isGreaterThanOrEqualTo(200);

			SegmentUidGenerators generators = context.getBean(SegmentUidGenerators.class);
			assertThatExceptionOfType(LeafAllocRowException.class).isThrownBy(() -> generators.forKey("late-tag"))
				.withMessageContaining("INSERT INTO " + this.table);
			jdbc(MARIADB).update("INSERT INTO " + this.table
					+ " (biz_tag, max_id, step, description) VALUES ('late-tag', 1, 50, 'added while running')");
			assertThat(generators.forKey("late-tag").getUID()).isOne();
		});
	}

	@Test
	void segmentNumbersBesideASnowflakeGeneratorAsALeafServerOffersBoth(@TempDir Path dir) {
		ApplicationContextRunner snowflake = this.onMariaDb.withPropertyValues("uid.generator=default",
				"uid.worker.id=3", "uid.worker.static.state-file=" + dir.resolve("worker-3.state"));
		snowflake.withPropertyValues("uid.segment.enabled=true").run((context) -> {
			assertThat(context.getBean(StartingUidGenerator.class).awaitStarted()).isInstanceOf(DefaultUidGenerator.class);
			assertThat(context).hasSingleBean(SegmentUidGenerators.class).hasSingleBean(LeafAllocSegmentStore.class);
			assertThat(context.getBean(SegmentUidGenerators.class).forKey("mixed").getUID()).isOne();
		});
		snowflake.run((context) -> {
			assertThat(context).doesNotHaveBean(SegmentUidGenerators.class).hasSingleBean(UidGenerator.class);
			assertThat(context.getBean(StartingUidGenerator.class).awaitStarted()).isInstanceOf(DefaultUidGenerator.class);
		});
	}

	@Test
	void theLeafStoreRunsOnPostgresql() {
		this.contextRunner
			.withPropertyValues("spring.datasource.url=" + POSTGRESQL, "spring.datasource.username=postgres",
					"spring.datasource.password=", "uid.segment.key=order")
			.run((context) -> assertThat(context.getBean(UidGenerator.class).getUID()).isBetween(730_001L, 740_000L));
	}

	@Test
	void anUnknownTagFailsAtStartWithTheInsertThatCreatesIt() {
		assertFailure(this.onMariaDb, (analysis) -> {
			assertThat(analysis.getDescription()).contains("There is no row for biz_tag 'invoice' in " + this.table)
				.contains("Property: uid.segment.key")
				.contains("Value: invoice");
			assertThat(analysis.getAction()).contains("INSERT INTO " + this.table
					+ " (biz_tag, max_id, step, description) VALUES ('invoice', 1, 1000, 'uid segment key invoice');");
		}, "uid.segment.key=invoice");
	}

	@Test
	void aRowWithANonPositiveStepFailsAtStartNamingTheRow() {
		assertFailure(this.onMariaDb, (analysis) -> {
			assertThat(analysis.getDescription()).contains("The row of biz_tag 'bad-step' in " + this.table
					+ " has step 0");
			assertThat(analysis.getAction()).contains("UPDATE " + this.table + " SET step = 1000 WHERE biz_tag = "
					+ "'bad-step';");
		}, "uid.segment.key=bad-step");
	}

	@Test
	void aMissingOrForeignTableFailsAtStartNamingTheTableProperty() {
		assertFailure(this.onMariaDb, (analysis) -> {
			assertThat(analysis.getDescription()).contains("The Leaf table " + this.table + "_missing does not exist")
				.contains("Property: uid.segment.leaf.table")
				.contains("Value: " + this.table + "_missing")
				.contains("`max_id` bigint(20) NOT NULL DEFAULT '1'");
			assertThat(analysis.getAction()).contains("uid.segment.leaf.table");
		}, "uid.segment.key=order", "uid.segment.leaf.table=" + this.table + "_missing");
		String foreign = this.table + "_uid";
		jdbc(MARIADB).execute("CREATE TABLE " + foreign + " (segment_key varchar(128) PRIMARY KEY, max_id bigint)");
		try {
			assertFailure(this.onMariaDb, (analysis) -> {
				assertThat(analysis.getDescription()).contains("The table " + foreign + " is not Leaf's leaf_alloc: "
						+ "it has no biz_tag column").contains("Property: uid.segment.leaf.table");
			}, "uid.segment.key=order", "uid.segment.leaf.table=" + foreign);
		}
		finally {
			jdbc(MARIADB).execute("DROP TABLE IF EXISTS " + foreign);
		}
	}

	/**
	 * Segment numbers beside a Snowflake generator (the sample's {@code leaf} profile) claim nothing at start, as no
	 * key is known before the first request; a table that is not Leaf's still stops the start.
	 */
	@Test
	void aMissingOrForeignTableFailsAtStartBesideASnowflakeGeneratorToo(@TempDir Path dir) {
		ApplicationContextRunner beside = this.onMariaDb.withPropertyValues("uid.generator=default",
				"uid.worker.id=3", "uid.worker.static.state-file=" + dir.resolve("worker-3.state"),
				"uid.segment.enabled=true");
		assertFailure(beside, (analysis) -> {
			assertThat(analysis.getDescription()).contains("The Leaf table " + this.table + "_gone does not exist")
				.contains("Property: uid.segment.leaf.table")
				.contains("Value: " + this.table + "_gone");
		}, "uid.segment.leaf.table=" + this.table + "_gone");
		String foreign = this.table + "_other";
		jdbc(MARIADB).execute("CREATE TABLE " + foreign + " (segment_key varchar(128) PRIMARY KEY, max_id bigint)");
		try {
			assertFailure(beside, (analysis) -> {
				assertThat(analysis.getDescription()).contains("The table " + foreign + " is not Leaf's leaf_alloc: "
						+ "it has no biz_tag column").contains("Property: uid.segment.leaf.table");
			}, "uid.segment.leaf.table=" + foreign);
		}
		finally {
			jdbc(MARIADB).execute("DROP TABLE IF EXISTS " + foreign);
		}
	}

	@Test
	void aTableNameThatIsNotAnIdentifierIsRefused() {
		assertFailure(this.onMariaDb, (analysis) -> {
			assertThat(analysis.getDescription()).contains("Property: uid.segment.leaf.table").contains("Value: x;y");
			assertThat(analysis.getAction()).contains("leaf_alloc");
		}, "uid.segment.key=order", "uid.segment.leaf.table=x;y");
	}

}
