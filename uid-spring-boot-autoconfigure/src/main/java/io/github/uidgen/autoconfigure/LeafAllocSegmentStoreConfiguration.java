package io.github.uidgen.autoconfigure;

import javax.sql.DataSource;

import io.github.uidgen.segment.SegmentStore;
import io.github.uidgen.segment.SegmentStoreException;
import io.github.uidgen.segment.jdbc.LeafAllocSegmentStore;
import io.github.uidgen.segment.jdbc.LeafAllocTableException;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
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
 * primary one, when there are several), chosen by {@code uid.segment.store=leaf}. The table is checked at start, so a
 * table that is missing or not Leaf's stops the start even when no segment is claimed then.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass({ JdbcClient.class, DataSource.class })
@ConditionalOnProperty(name = "uid.segment.store", havingValue = "leaf")
class LeafAllocSegmentStoreConfiguration {

	private static final Log logger = LogFactory.getLog(LeafAllocSegmentStoreConfiguration.class);

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
		UidSegmentProperties segment = properties.getSegment();
		LeafAllocSegmentStore.Builder builder = LeafAllocSegmentStore.builder(source);
		map("uid.segment.leaf.table", segment.getLeaf().getTable(), builder::table);
		if (segment.getWaitTimeout() != null && !segment.getWaitTimeout().isNegative()
				&& !segment.getWaitTimeout().isZero()) {
			// A bad value is reported by the generator, under its own property name.
			builder.timeout(segment.getWaitTimeout());
		}
		LeafAllocSegmentStore store = builder.build();
		try {
			store.verifyTable();
		}
		catch (LeafAllocTableException ex) {
			throw ex;
		}
		catch (SegmentStoreException ex) {
			// Unreachable for now: the Snowflake side may serve meanwhile, and the first claim checks again.
			logger.warn("Leaf's table " + store.table() + " could not be checked at start; it is checked again at "
					+ "the first claim: " + ex.getMessage());
		}
		return store;
	}

}
