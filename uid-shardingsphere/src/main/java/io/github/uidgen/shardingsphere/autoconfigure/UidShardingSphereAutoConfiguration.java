package io.github.uidgen.shardingsphere.autoconfigure;

import javax.sql.DataSource;

import io.github.uidgen.UidGenerator;
import io.github.uidgen.segment.SegmentUidGenerators;
import org.apache.shardingsphere.driver.ShardingSphereDriver;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configures the binding of uid's ShardingSphere algorithms ({@code UID}, {@code UID_SEGMENT},
 * {@code UID_MOD}, {@code UID_INTERVAL}) to the application's generator, for every ShardingSphere
 * {@code DataSource} bean. It is there whether or not the application has a {@code UidGenerator}, so that a
 * {@code UID} key generator in the YAML of an application without one stops the start with the reason.
 */
@AutoConfiguration(afterName = { "io.github.uidgen.autoconfigure.UidGeneratorAutoConfiguration",
		"org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration" })
@ConditionalOnClass({ ShardingSphereDriver.class, DataSource.class })
public final class UidShardingSphereAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	UidShardingSphereBinder uidShardingSphereBinder(ApplicationContext context, ObjectProvider<DataSource> dataSources,
			ObjectProvider<UidGenerator> uidGenerator, ObjectProvider<SegmentUidGenerators> segmentGenerators) {
		return new UidShardingSphereBinder(context, dataSources, uidGenerator, segmentGenerators);
	}

}
