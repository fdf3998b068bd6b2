package io.github.uidgen.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;

import io.github.uidgen.UidGenerator;
import io.github.uidgen.snowflake.AbstractUidGenerator;
import io.github.uidgen.worker.FixedWorkerIdAssigner;
import io.github.uidgen.worker.WorkerIdAssigner;
import io.github.uidgen.worker.jdbc.DisposableWorkerIdAssigner;
import io.github.uidgen.worker.jdbc.JdbcLeaseWorkerIdAssigner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

import static io.github.uidgen.autoconfigure.InvalidConfigurationTests.assertFailure;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link JdbcWorkerIdAssignerAutoConfiguration} against a real database, through the application's
 * auto-configured {@link javax.sql.DataSource}. Each run uses tables of its own and drops them afterwards.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AbstractJdbcWorkerIdAssignerAutoConfigurationTests {

	private final String tablePrefix = "uid_ac_" + UUID.randomUUID().toString().substring(0, 8);

	private final List<String> tables = new ArrayList<>();

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
				StaticWorkerIdAssignerAutoConfiguration.class, JdbcWorkerIdAssignerAutoConfiguration.class,
				RedisWorkerIdAssignerAutoConfiguration.class, UidGeneratorAutoConfiguration.class))
		.withPropertyValues("spring.datasource.url=" + url(), "spring.datasource.username=" + username(),
				"spring.datasource.password=", "spring.datasource.hikari.connection-timeout=3000",
				"uid.worker.assigner=db");

	/** The JDBC URL of the database under test. */
	abstract String url();

	abstract String username();

	private String table(String name) {
		String table = (this.tablePrefix + "_" + name).toLowerCase(Locale.ROOT);
		this.tables.add(table);
		return table;
	}

	@AfterAll
	void dropTables() {
		JdbcTemplate jdbc = new JdbcTemplate(new DriverManagerDataSource(url(), username(), ""));
		for (String table : this.tables) {
			jdbc.execute("DROP TABLE IF EXISTS " + table);
			jdbc.execute("DROP TABLE IF EXISTS " + table + "_claim");
		}
	}

	@Test
	void leaseModeClaimsWorkerIdsThroughTheApplicationsDataSource() {
		String table = table("lease");
		this.contextRunner
			.withPropertyValues("uid.worker.db.lease-table=" + table, "uid.worker.db.initialize-schema=true",
					"uid.worker.instance-id=first")
			.run((first) -> {
				assertThat(first).hasSingleBean(JdbcLeaseWorkerIdAssigner.class)
					.doesNotHaveBean(DisposableWorkerIdAssigner.class);
				AbstractUidGenerator one = first.getBean(StartingUidGenerator.class).awaitStarted();
				assertThat(one.status().worker().assigner()).isEqualTo("db");
				assertThat(one.decode(one.getUID()).workerId()).isEqualTo(one.status().worker().id());
				this.contextRunner
					.withPropertyValues("uid.worker.db.lease-table=" + table, "uid.worker.instance-id=second",
							"uid.generator=cached")
					.run((second) -> {
						AbstractUidGenerator two = second.getBean(StartingUidGenerator.class).awaitStarted();
						assertThat(two.status().worker().id()).isNotEqualTo(one.status().worker().id());
					});
			});
		Integer rows = new JdbcTemplate(new DriverManagerDataSource(url(), username(), ""))
			.queryForObject("SELECT COUNT(*) FROM " + table + " WHERE worker_id <= 1023 AND instance_id <> ''",
					Integer.class);
		assertThat(rows).as("worker rows leased, beside the layout's row and the free ones").isEqualTo(2);
	}

	@Test
	void leaseSettingsComeFromProperties() {
		String table = table("settings");
		this.contextRunner
			.withPropertyValues("uid.worker.db.lease-table=" + table, "uid.worker.db.initialize-schema=true",
					"uid.worker.db.lease-duration=20s", "uid.worker.db.heartbeat-interval=4s",
					"uid.worker.instance-id=configured")
			.run((context) -> {
				JdbcLeaseWorkerIdAssigner assigner = context.getBean(JdbcLeaseWorkerIdAssigner.class);
				assertThat(assigner.getLeaseTable()).isEqualTo(table);
				assertThat(assigner.getLeaseDuration()).isEqualTo(Duration.ofSeconds(20));
				assertThat(assigner.getHeartbeatInterval()).isEqualTo(Duration.ofSeconds(4));
				assertThat(assigner.getInstanceId()).isEqualTo("configured");
				assertThat(assigner.renewInterval()).isEqualTo(Duration.ofSeconds(4));
			});
	}

	@Test
	void defaultInstanceIdIncludesTheServerPortSoRestartsReclaimTheirWorkerId() {
		String table = table("port");
		this.contextRunner
			.withPropertyValues("uid.worker.db.lease-table=" + table, "uid.worker.db.initialize-schema=true",
					"server.port=8123")
			.run((context) -> assertThat(context.getBean(JdbcLeaseWorkerIdAssigner.class).getInstanceId())
				.endsWith(":8123"));
	}

	@Test
	void disposableModeTakesANewRowAtEveryStart() {
		String table = table("node");
		long[] workerIds = new long[2];
		for (int i = 0; i < 2; i++) {
			int run = i;
			this.contextRunner
				.withPropertyValues("uid.worker.db.mode=disposable", "uid.worker.db.worker-node-table=" + table,
						"uid.worker.db.initialize-schema=true")
				.run((context) -> {
					assertThat(context).hasSingleBean(DisposableWorkerIdAssigner.class)
						.doesNotHaveBean(JdbcLeaseWorkerIdAssigner.class);
					assertThat(context.getBean(DisposableWorkerIdAssigner.class).getWorkerNodeTable()).isEqualTo(table);
					UidGenerator generator = context.getBean(UidGenerator.class);
					workerIds[run] = generator.decode(generator.getUID()).workerId();
				});
		}
		assertThat(workerIds[1]).isGreaterThan(workerIds[0]);
	}

	@Test
	void theModeIsReadInAnyCase() {
		String table = table("upper");
		this.contextRunner
			.withPropertyValues("uid.worker.db.mode=DISPOSABLE", "uid.worker.db.worker-node-table=" + table,
					"uid.worker.db.initialize-schema=true")
			.run((context) -> assertThat(context).hasSingleBean(DisposableWorkerIdAssigner.class));
	}

	@Test
	void unknownModeNamesThePropertyAndTheValue() {
		assertFailure(this.contextRunner, (analysis) -> assertThat(analysis.getDescription())
			.contains("uid.worker.db.mode")
			.contains("temporary"), "uid.worker.db.mode=temporary");
	}

	@Test
	void applicationsAssignerWins() {
		FixedWorkerIdAssigner own = new FixedWorkerIdAssigner(2);
		this.contextRunner.withBean(WorkerIdAssigner.class, () -> own).run((context) -> {
			assertThat(context).doesNotHaveBean(JdbcLeaseWorkerIdAssigner.class)
				.doesNotHaveBean(DisposableWorkerIdAssigner.class);
			assertThat(context.getBean(WorkerIdAssigner.class)).isSameAs(own);
		});
	}

	@Test
	void missingTableNamesThePropertyAndGivesTheDdl() {
		String table = table("missing");
		assertFailure(this.contextRunner, (analysis) -> {
			assertThat(analysis.getDescription()).contains("The table " + table)
				.contains("Property: uid.worker.db.lease-table")
				.contains("Value: " + table);
			assertThat(analysis.getAction()).containsIgnoringCase("CREATE TABLE")
				.contains(table)
				.contains("uid.worker.db.initialize-schema=true");
		}, "uid.worker.db.lease-table=" + table);
	}

	@Test
	void unreachableDatabase() {
		assertFailure(this.contextRunner, (analysis) -> {
			assertThat(analysis.getDescription()).contains("Property: uid.worker.assigner").contains("Value: db");
			assertThat(analysis.getAction()).contains("spring.datasource.url");
		}, "uid.worker.assigner=db", "spring.datasource.url=" + url().replaceFirst(":\\d+/", ":1/"),
				"uid.worker.db.lease-table=" + table("unreachable"));
	}

	@Test
	void noDataSource() {
		assertFailure(this.contextRunner.withClassLoader(new FilteredClassLoader("com.zaxxer.hikari",
				"org.postgresql", "com.mysql", "org.apache.tomcat", "org.apache.commons.dbcp2", "oracle.ucp")),
				(analysis) -> {
					assertThat(analysis.getDescription()).contains("needs a DataSource").contains("Value: db");
					assertThat(analysis.getAction()).contains("spring.datasource.url");
				});
	}

	@Test
	void withoutSpringJdbcTheDbAssignerIsNotConfigured() {
		assertFailure(this.contextRunner.withClassLoader(new FilteredClassLoader(JdbcTemplate.class)),
				(analysis) -> assertThat(analysis.getDescription()).contains("needs spring-jdbc"));
	}

}
