package io.github.uidgen.autoconfigure;

import java.util.List;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import io.github.uidgen.UidGenerator;
import io.github.uidgen.testsupport.TestDatabases;
import io.github.uidgen.testsupport.TestDatabases.Database;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Primary;

import static io.github.uidgen.autoconfigure.InvalidConfigurationTests.assertFailure;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which {@link DataSource} the db assigner uses when the application has two, one on MariaDB and one on PostgreSQL:
 * the primary one, else the one marked {@link UidDataSource}; and the failure when neither tells. The table goes
 * into the database the assigner chose, so each test looks for it in both.
 */
class JdbcWorkerIdAssignerDataSourceTests {

	private final String table = TestDatabases.uniqueTable("uid_ac_two_ds");

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
				JdbcWorkerIdAssignerAutoConfiguration.class, UidGeneratorAutoConfiguration.class))
		.withPropertyValues("uid.worker.assigner=db", "uid.worker.db.initialize-schema=true",
				"uid.worker.db.lease-table=" + this.table, "uid.worker.db.worker-node-table=" + this.table);

	@AfterEach
	void dropTables() {
		for (Database database : Database.values()) {
			try (HikariDataSource dataSource = database.open()) {
				TestDatabases.dropTable(dataSource, this.table);
			}
		}
	}

	@Test
	void twoDataSourcesOneOfThemPrimaryTheAssignerUsesThePrimaryOne() {
		this.contextRunner.withUserConfiguration(PrimaryMariaDb.class).run((context) -> {
			assertThat(context).hasNotFailed();
			context.getBean(UidGenerator.class).getUID();
		});
		assertThat(tableIn(Database.MARIADB)).isTrue();
		assertThat(tableIn(Database.POSTGRESQL)).isFalse();
	}

	@Test
	void twoDataSourcesTheAssignerUsesTheOneMarkedUidDataSourceInLeaseMode() {
		this.contextRunner.withUserConfiguration(PrimaryMariaDbAndUidPostgres.class).run((context) -> {
			assertThat(context).hasNotFailed();
			context.getBean(UidGenerator.class).getUID();
		});
		assertThat(tableIn(Database.POSTGRESQL)).isTrue();
		assertThat(tableIn(Database.MARIADB)).isFalse();
	}

	@Test
	void twoDataSourcesTheAssignerUsesTheOneMarkedUidDataSourceInDisposableMode() {
		this.contextRunner.withUserConfiguration(UnmarkedMariaDbAndUidPostgres.class)
			.withPropertyValues("uid.worker.db.mode=disposable")
			.run((context) -> assertThat(context).hasNotFailed());
		assertThat(tableIn(Database.POSTGRESQL)).isTrue();
		assertThat(tableIn(Database.MARIADB)).isFalse();
	}

	@Test
	void twoDataSourcesNeitherPrimaryNorMarkedFailsNamingThemAndTheFix() {
		assertFailure(this.contextRunner.withUserConfiguration(TwoUnmarked.class), (analysis) -> {
			assertThat(analysis.getDescription()).contains("needs one DataSource, and the application has 2")
				.contains("ordersDataSource", "auditDataSource")
				.contains("none of them @Primary or marked @UidDataSource")
				.contains("Property: uid.worker.assigner")
				.contains("Value: db");
			assertThat(analysis.getAction()).contains("@io.github.uidgen.autoconfigure.UidDataSource")
				.contains("@Primary");
		});
		assertThat(tableIn(Database.MARIADB)).isFalse();
		assertThat(tableIn(Database.POSTGRESQL)).isFalse();
	}

	private boolean tableIn(Database database) {
		String schema = (database == Database.MARIADB) ? "DATABASE()" : "current_schema()";
		try (HikariDataSource dataSource = database.open()) {
			List<List<Object>> rows = TestDatabases.query(dataSource, "SELECT COUNT(*) FROM information_schema.tables "
					+ "WHERE table_schema = " + schema + " AND table_name = ?", this.table);
			return ((Number) rows.get(0).get(0)).longValue() == 1;
		}
	}

	@Configuration(proxyBeanMethods = false)
	static class PrimaryMariaDb {

		@Bean
		@Primary
		HikariDataSource ordersDataSource() {
			return Database.MARIADB.open();
		}

		@Bean
		HikariDataSource auditDataSource() {
			return Database.POSTGRESQL.open();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class PrimaryMariaDbAndUidPostgres {

		@Bean
		@Primary
		HikariDataSource ordersDataSource() {
			return Database.MARIADB.open();
		}

		@Bean
		@UidDataSource
		HikariDataSource uidDataSource() {
			return Database.POSTGRESQL.open();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class UnmarkedMariaDbAndUidPostgres {

		@Bean
		HikariDataSource ordersDataSource() {
			return Database.MARIADB.open();
		}

		@Bean
		@UidDataSource
		HikariDataSource uidDataSource() {
			return Database.POSTGRESQL.open();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class TwoUnmarked {

		@Bean
		HikariDataSource ordersDataSource() {
			return Database.MARIADB.open();
		}

		@Bean
		HikariDataSource auditDataSource() {
			return Database.POSTGRESQL.open();
		}

	}

}
