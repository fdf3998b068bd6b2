package io.github.uidgen.autoconfigure;

import javax.sql.DataSource;

import io.github.uidgen.segment.SegmentStore;
import io.github.uidgen.segment.jdbc.LeafAllocSegmentStore;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.simple.JdbcClient;

import static io.github.uidgen.autoconfigure.UidPropertyMapper.map;

/**
 * The leaf segment store on Meituan Leaf's {@code leaf_alloc} table in the application's {@link DataSource} (its
 * primary one, when there are several), chosen by {@code uid.segment.store=leaf}.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass({ JdbcClient.class, DataSource.class })
@ConditionalOnProperty(name = "uid.segment.store", havingValue = "leaf")
class LeafAllocSegmentStoreConfiguration {

	@Bean
	@ConditionalOnMissingBean(SegmentStore.class)
	LeafAllocSegmentStore leafAllocSegmentStore(UidProperties properties, ObjectProvider<DataSource> dataSource) {
		DataSource source = dataSource.getIfUnique(() -> {
			throw new UidPropertyException("uid.segment.store", "leaf",
					"The leaf segment store needs the DataSource that holds Leaf's leaf_alloc table, and the "
							+ "application has none (or several, none of them primary).",
					"Configure it (spring.datasource.url, username and password of Leaf's database, with "
							+ "spring-boot-starter-jdbc and a JDBC driver) or mark one @Primary.");
		});
		UidProperties.Segment segment = properties.getSegment();
		LeafAllocSegmentStore.Builder builder = LeafAllocSegmentStore.builder(source);
		map("uid.segment.leaf.table", segment.getLeaf().getTable(), builder::table);
		if (segment.getWaitTimeout() != null && !segment.getWaitTimeout().isNegative()
				&& !segment.getWaitTimeout().isZero()) {
			// A bad value is reported by the generator, under its own property name.
			builder.timeout(segment.getWaitTimeout());
		}
		return builder.build();
	}

}
