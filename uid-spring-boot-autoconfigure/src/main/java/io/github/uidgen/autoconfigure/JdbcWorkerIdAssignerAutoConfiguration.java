package io.github.uidgen.autoconfigure;

import javax.sql.DataSource;

import io.github.uidgen.worker.WorkerIdAssigner;
import io.github.uidgen.worker.jdbc.DisposableWorkerIdAssigner;
import io.github.uidgen.worker.jdbc.JdbcLeaseWorkerIdAssigner;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.ConfigurableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.util.ClassUtils;

import static io.github.uidgen.autoconfigure.UidPropertyMapper.map;

/**
 * Auto-configures the db worker-ID assigner chosen by {@code uid.worker.assigner=db}, in the mode chosen by
 * {@code uid.worker.db.mode}, on the application's {@link DataSource}: the one marked {@link UidDataSource}, else the
 * only or the primary one.
 */
@AutoConfiguration(after = DataSourceAutoConfiguration.class)
@ConditionalOnBooleanProperty(name = "uid.enabled", matchIfMissing = true)
@ConditionalOnClass({ JdbcTemplate.class, DataSource.class })
@ConditionalOnProperty(name = "uid.worker.assigner", havingValue = "db")
@EnableConfigurationProperties(UidProperties.class)
@Import({ JdbcWorkerIdAssignerAutoConfiguration.LeaseConfiguration.class,
		JdbcWorkerIdAssignerAutoConfiguration.DisposableConfiguration.class })
public final class JdbcWorkerIdAssignerAutoConfiguration {

	private static final String ASSIGNER = "uid.worker.assigner";

	private static final String HIKARI = "com.zaxxer.hikari.HikariDataSource";

	/**
	 * Returns the DataSource the assigner uses: the one marked {@link UidDataSource}, else the only one or the
	 * primary one, as {@code @ConditionalOnSingleCandidate(DataSource.class)} and {@code @FlywayDataSource} choose.
	 * Fails naming the beans when that leaves none, rather than leaving the application without an assigner.
	 */
	static DataSource dataSource(ObjectProvider<DataSource> marked, ObjectProvider<DataSource> dataSources,
			ListableBeanFactory beanFactory) {
		DataSource dataSource = marked.getIfAvailable(dataSources::getIfUnique);
		if (dataSource != null) {
			return dataSource;
		}
		String[] names = beanFactory.getBeanNamesForType(DataSource.class);
		if (names.length == 0) {
			throw new UidPropertyException(ASSIGNER, "db",
					"The db worker-ID assigner needs a DataSource, and the application has none.",
					"Configure one (spring.datasource.url, username and password with spring-boot-starter-jdbc and "
							+ "a JDBC driver), or choose another uid.worker.assigner.");
		}
		throw new UidPropertyException(ASSIGNER, "db",
				"The db worker-ID assigner needs one DataSource, and the application has " + names.length + " ("
						+ String.join(", ", names) + "), none of them @Primary or marked @UidDataSource.",
				"Mark the DataSource that holds the worker-ID table with @" + UidDataSource.class.getName()
						+ ", or make one of them @Primary.");
	}

	/**
	 * Returns connections to the assigner's database without its pool, for the calls made while the pool cannot hand
	 * them out, so that renewals resume as soon as the database answers after an outage: for a HikariCP pool only
	 * ({@link HikariDirectConnections}); with any other pool every call waits for the pool, as before.
	 */
	static DataSource directConnections(DataSource dataSource, ListableBeanFactory beanFactory) {
		ClassLoader classLoader = (beanFactory instanceof ConfigurableBeanFactory configurable)
				? configurable.getBeanClassLoader() : JdbcWorkerIdAssignerAutoConfiguration.class.getClassLoader();
		if (!ClassUtils.isPresent(HIKARI, classLoader)) {
			return null;
		}
		return HikariDirectConnections.of(dataSource);
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnProperty(name = "uid.worker.db.mode", havingValue = "lease", matchIfMissing = true)
	static class LeaseConfiguration {

		@Bean
		@ConditionalOnMissingBean(WorkerIdAssigner.class)
		JdbcLeaseWorkerIdAssigner jdbcLeaseWorkerIdAssigner(UidProperties properties,
				@UidDataSource ObjectProvider<DataSource> uidDataSource, ObjectProvider<DataSource> dataSources,
				ListableBeanFactory beanFactory, Environment environment) {
			UidWorkerDbProperties db = properties.getWorker().getDb();
			DataSource dataSource = dataSource(uidDataSource, dataSources, beanFactory);
			JdbcLeaseWorkerIdAssigner.Builder builder = JdbcLeaseWorkerIdAssigner.builder(dataSource)
				.directDataSource(directConnections(dataSource, beanFactory))
				.initializeSchema(db.isInitializeSchema())
				.port(environment.getProperty("server.port"));
			map("uid.worker.db.lease-table", db.getLeaseTable(), builder::leaseTable);
			// The lease duration first: the heartbeat interval is checked against it.
			map("uid.worker.db.lease-duration", db.getLeaseDuration(), builder::leaseDuration);
			map("uid.worker.db.heartbeat-interval", db.getHeartbeatInterval(), builder::heartbeatInterval);
			map("uid.worker.instance-id", properties.getWorker().getInstanceId(), builder::instanceId);
			map("uid.worker.claim-history", properties.getWorker().getClaimHistory(), builder::claimHistory);
			return builder.build();
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnProperty(name = "uid.worker.db.mode", havingValue = "disposable")
	static class DisposableConfiguration {

		@Bean
		@ConditionalOnMissingBean(WorkerIdAssigner.class)
		DisposableWorkerIdAssigner disposableWorkerIdAssigner(UidProperties properties,
				@UidDataSource ObjectProvider<DataSource> uidDataSource, ObjectProvider<DataSource> dataSources,
				ListableBeanFactory beanFactory, Environment environment) {
			UidWorkerDbProperties db = properties.getWorker().getDb();
			DisposableWorkerIdAssigner.Builder builder = DisposableWorkerIdAssigner
				.builder(dataSource(uidDataSource, dataSources, beanFactory))
				.initializeSchema(db.isInitializeSchema())
				.port(environment.getProperty("server.port"));
			map("uid.worker.db.worker-node-table", db.getWorkerNodeTable(), builder::workerNodeTable);
			return builder.build();
		}

	}

}
