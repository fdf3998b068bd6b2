package io.github.uidgen.baseline;

import javax.sql.DataSource;

import org.apache.curator.framework.CuratorFramework;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * With {@code baseline.use-store-at-start=true}, the application reads from its database, Redis or ZooKeeper once
 * while its context starts, before the web server does, as an application that migrates or validates its schema
 * (Flyway, Liquibase, JPA), warms a cache or reads its configuration does: the start-up benchmark's baseline for what
 * the store's client costs a start, uid aside.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnBooleanProperty("baseline.use-store-at-start")
class StoreUsedAtStart {

	@Bean
	SmartInitializingSingleton useStoreAtStart(ObjectProvider<DataSource> dataSource,
			ObjectProvider<RedisConnectionFactory> redis, ObjectProvider<CuratorFramework> zooKeeper) {
		return () -> {
			dataSource.ifAvailable((database) -> new JdbcTemplate(database).queryForObject("SELECT 1", Integer.class));
			redis.ifAvailable((factory) -> {
				try (RedisConnection connection = factory.getConnection()) {
					connection.ping();
				}
			});
			zooKeeper.ifAvailable(StoreUsedAtStart::readRoot);
		};
	}

	/** Reads the root znode, which waits for the client's session as any first request does. */
	private static void readRoot(CuratorFramework client) {
		try {
			client.checkExists().forPath("/");
		}
		catch (Exception ex) {
			throw new IllegalStateException("Cannot read ZooKeeper's root znode", ex);
		}
	}

}
