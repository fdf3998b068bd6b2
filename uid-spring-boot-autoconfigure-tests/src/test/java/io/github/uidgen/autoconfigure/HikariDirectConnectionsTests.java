package io.github.uidgen.autoconfigure;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.util.Credentials;
import com.zaxxer.hikari.util.DriverDataSource;
import io.github.uidgen.worker.jdbc.JdbcLeaseWorkerIdAssigner;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.datasource.DelegatingDataSource;
import org.springframework.jdbc.datasource.SimpleDriverDataSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which connections without the pool the db assigner is given for the calls made while the pool cannot hand them
 * out: HikariCP's own driver data source, or the pool's target; none for other pools. Nothing here connects.
 */
class HikariDirectConnectionsTests {

	private static final String URL = "jdbc:mysql://127.0.0.1:1/test";

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
				JdbcWorkerIdAssignerAutoConfiguration.class))
		.withPropertyValues("uid.worker.assigner=db");

	@Test
	void aHikariPoolFromAUrlGivesHikarisOwnDriverDataSource() {
		try (HikariDataSource pool = pool()) {
			DataSource direct = HikariDirectConnections.of(pool);
			assertThat(direct).isInstanceOf(HikariDirectConnections.class);
			assertThat(((DelegatingDataSource) direct).getTargetDataSource()).isInstanceOf(DriverDataSource.class);
		}
	}

	@Test
	void aHikariPoolOnADataSourceGivesThatDataSource() {
		SimpleDriverDataSource target = new SimpleDriverDataSource();
		try (HikariDataSource pool = new HikariDataSource()) {
			pool.setDataSource(target);
			DataSource direct = HikariDirectConnections.of(pool);
			assertThat(((DelegatingDataSource) direct).getTargetDataSource()).isSameAs(target);
		}
	}

	@Test
	void aWrappedHikariPoolIsFoundBehindItsWrapper() {
		try (HikariDataSource pool = pool()) {
			assertThat(HikariDirectConnections.of(new DelegatingDataSource(pool))).isNotNull();
		}
	}

	@Test
	void aHikariPoolWithACredentialsProviderAndOtherPoolsGiveNone() {
		try (HikariDataSource pool = pool()) {
			pool.setCredentialsProvider(() -> new Credentials("root", ""));
			assertThat(HikariDirectConnections.of(pool)).isNull();
		}
		assertThat(HikariDirectConnections.of(new SimpleDriverDataSource())).isNull();
	}

	@Test
	void theLeaseAssignerOnSpringBootsHikariPoolGetsConnectionsWithoutThePool() {
		this.contextRunner.withPropertyValues("spring.datasource.url=" + URL).run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context.getBean(JdbcLeaseWorkerIdAssigner.class).getDirectDataSource())
				.isInstanceOf(HikariDirectConnections.class);
		});
	}

	@Test
	void theLeaseAssignerOnAnotherDataSourceWaitsForItAsBefore() {
		this.contextRunner.withUserConfiguration(OtherDataSource.class).run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context.getBean(JdbcLeaseWorkerIdAssigner.class).getDirectDataSource()).isNull();
		});
	}

	private static HikariDataSource pool() {
		HikariDataSource pool = new HikariDataSource();
		pool.setJdbcUrl(URL);
		pool.setUsername("root");
		pool.setPassword("");
		return pool;
	}

	@Configuration(proxyBeanMethods = false)
	static class OtherDataSource {

		@Bean
		DataSource dataSource() {
			return new SimpleDriverDataSource();
		}

	}

}
