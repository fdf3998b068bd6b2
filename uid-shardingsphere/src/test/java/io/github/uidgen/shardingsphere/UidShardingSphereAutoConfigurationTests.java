package io.github.uidgen.shardingsphere;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import io.github.uidgen.UidGenerator;
import io.github.uidgen.snowflake.DefaultUidGenerator;
import io.github.uidgen.segment.SegmentUidGenerators;
import io.github.uidgen.shardingsphere.autoconfigure.UidShardingSphereAutoConfiguration;
import io.github.uidgen.shardingsphere.autoconfigure.UidShardingSphereBinder;
import io.github.uidgen.worker.FixedWorkerIdAssigner;
import org.apache.shardingsphere.driver.ShardingSphereDriver;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * When the binder is auto-configured, and that it leaves data sources that are not ShardingSphere's alone.
 */
class UidShardingSphereAutoConfigurationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(UidShardingSphereAutoConfiguration.class));

	@Test
	void anotherDataSourceIsNeitherBoundNorConnected() {
		this.runner.withUserConfiguration(GeneratorConfiguration.class, MariaDbConfiguration.class).run((context) -> {
			assertThat(context).hasSingleBean(UidShardingSphereBinder.class);
			assertThat(context.getBean(UidShardingSphereBinder.class).boundAlgorithms()).isZero();
			assertThat(context.getBean(HikariDataSource.class).isRunning()).as("pool started").isFalse();
		});
	}

	@Test
	void aBinderOfTheApplicationsOwnWins() {
		this.runner.withUserConfiguration(OwnBinderConfiguration.class)
			.run((context) -> assertThat(context.getBean(UidShardingSphereBinder.class))
				.isSameAs(context.getBean("ownBinder")));
	}

	@Test
	void withoutShardingSphereItBacksOff() {
		this.runner.withUserConfiguration(GeneratorConfiguration.class)
			.withClassLoader(new FilteredClassLoader(ShardingSphereDriver.class))
			.run((context) -> assertThat(context).doesNotHaveBean(UidShardingSphereBinder.class));
	}

	@Configuration(proxyBeanMethods = false)
	static class GeneratorConfiguration {

		@Bean(destroyMethod = "close")
		DefaultUidGenerator uidGenerator() {
			return DefaultUidGenerator.builder().workerIdAssigner(new FixedWorkerIdAssigner(5)).build();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class MariaDbConfiguration {

		@Bean(destroyMethod = "close")
		HikariDataSource dataSource() {
			HikariDataSource dataSource = new HikariDataSource();
			dataSource.setJdbcUrl("jdbc:mysql://127.0.0.1:3306/test");
			dataSource.setUsername("root");
			return dataSource;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class OwnBinderConfiguration {

		@Bean
		UidShardingSphereBinder ownBinder(ApplicationContext context, ObjectProvider<DataSource> dataSources,
				ObjectProvider<UidGenerator> uidGenerator, ObjectProvider<SegmentUidGenerators> segmentGenerators) {
			return new UidShardingSphereBinder(context, dataSources, uidGenerator, segmentGenerators);
		}

	}

}
