package io.github.uidgen.autoconfigure;

import javax.sql.DataSource;

import io.github.uidgen.autoconfigure.UidProperties.Worker.Db;
import io.github.uidgen.worker.WorkerIdAssigner;
import io.github.uidgen.worker.jdbc.JdbcWorkerIdAssigner;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Auto-configures the db worker-ID assigner on the application's {@link DataSource}, chosen by
 * {@code uid.worker.assigner=db}.
 */
@AutoConfiguration(after = DataSourceAutoConfiguration.class)
@ConditionalOnBooleanProperty(name = "uid.enabled", matchIfMissing = true)
@ConditionalOnClass({ JdbcTemplate.class, DataSource.class })
@ConditionalOnProperty(name = "uid.worker.assigner", havingValue = "db")
@EnableConfigurationProperties(UidProperties.class)
public final class JdbcWorkerIdAssignerAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(WorkerIdAssigner.class)
	JdbcWorkerIdAssigner jdbcWorkerIdAssigner(UidProperties properties, ObjectProvider<DataSource> dataSource,
			Environment environment) {
		DataSource source = dataSource.getIfAvailable(() -> {
			throw new UidPropertyException("uid.worker.assigner", "db",
					"The db worker-ID assigner needs a DataSource, and the application has none.",
					"Configure one (spring.datasource.url, username and password with spring-boot-starter-jdbc and "
							+ "a JDBC driver), or choose another uid.worker.assigner.");
		});
		Db db = properties.getWorker().getDb();
		JdbcWorkerIdAssigner.Builder builder = JdbcWorkerIdAssigner.builder(source)
			.mode((db.getMode() == Db.Mode.DISPOSABLE) ? JdbcWorkerIdAssigner.Mode.DISPOSABLE
					: JdbcWorkerIdAssigner.Mode.LEASE)
			.leaseTable(db.getLeaseTable())
			.workerNodeTable(db.getWorkerNodeTable())
			.initializeSchema(db.isInitializeSchema())
			.leaseDuration(db.getLeaseDuration())
			.port(environment.getProperty("server.port"));
		if (db.getHeartbeatInterval() != null) {
			builder.heartbeatInterval(db.getHeartbeatInterval());
		}
		if (properties.getWorker().getInstanceId() != null) {
			builder.instanceId(properties.getWorker().getInstanceId());
		}
		return builder.build();
	}

}
