package io.github.uidgen.autoconfigure;

import java.time.Duration;

import javax.sql.DataSource;

import io.github.uidgen.segment.SegmentStore;
import io.github.uidgen.segment.jdbc.JdbcSegmentStore;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.simple.JdbcClient;

import static io.github.uidgen.autoconfigure.UidPropertyMapper.map;

/**
 * The db segment store on the application's {@link DataSource} (its primary one, when there are several), chosen by
 * {@code uid.segment.store=db}, the default.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass({ JdbcClient.class, DataSource.class })
@ConditionalOnProperty(name = "uid.segment.store", havingValue = "db", matchIfMissing = true)
class JdbcSegmentStoreConfiguration {

	@Bean
	@ConditionalOnMissingBean(SegmentStore.class)
	JdbcSegmentStore jdbcSegmentStore(UidProperties properties, ObjectProvider<DataSource> dataSource) {
		DataSource source = dataSource.getIfUnique(() -> {
			throw new UidPropertyException("uid.segment.store", "db",
					"The db segment store needs a DataSource, and the application has none (or several, none of "
							+ "them primary).",
					"Configure one (spring.datasource.url, username and password with spring-boot-starter-jdbc and a "
							+ "JDBC driver) or mark one @Primary, or set uid.segment.store to redis.");
		});
		UidSegmentProperties segment = properties.getSegment();
		JdbcSegmentStore.Builder builder = JdbcSegmentStore.builder(source)
			.initializeSchema(segment.getDb().isInitializeSchema());
		map("uid.segment.db.table", segment.getDb().getTable(), builder::table);
		if (isPositive(segment.getWaitTimeout())) {
			// A bad value is reported by the generator, under its own property name.
			builder.timeout(segment.getWaitTimeout());
		}
		return builder.build();
	}

	private static boolean isPositive(Duration duration) {
		return duration != null && !duration.isNegative() && !duration.isZero();
	}

}
