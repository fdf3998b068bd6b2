package io.github.uidgen.autoconfigure;

import io.github.uidgen.segment.SegmentStore;
import io.github.uidgen.segment.SegmentStoreException;
import io.github.uidgen.segment.redis.RedisKeepsNothingException;
import io.github.uidgen.segment.redis.RedisSegmentStore;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.RedisConnectionFactory;

import static io.github.uidgen.autoconfigure.UidPropertyMapper.map;

/**
 * The redis segment store on the application's {@link RedisConnectionFactory}, chosen by
 * {@code uid.segment.store=redis}; Sentinel and Cluster work through the application's Spring Data Redis
 * configuration, and {@code spring.data.redis.timeout} bounds each claim. A Redis that keeps nothing across a restart
 * is refused at start unless {@code uid.segment.redis.require-persistence=false}.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(RedisConnectionFactory.class)
@ConditionalOnProperty(name = "uid.segment.store", havingValue = "redis")
class RedisSegmentStoreConfiguration {

	@Bean
	@ConditionalOnMissingBean(SegmentStore.class)
	RedisSegmentStore redisSegmentStore(UidProperties properties,
			ObjectProvider<RedisConnectionFactory> connectionFactory) {
		RedisConnectionFactory factory = connectionFactory.getIfUnique(() -> {
			throw new UidPropertyException("uid.segment.store", "redis",
					"The redis segment store needs a RedisConnectionFactory, and the application has none.",
					"Add spring-boot-starter-data-redis and configure spring.data.redis.*, or set uid.segment.store "
							+ "to db.");
		});
		RedisSegmentStore.Builder builder = RedisSegmentStore.builder(factory)
			.requirePersistence(properties.getSegment().getRedis().isRequirePersistence())
			.allowEvictingPolicy(properties.getSegment().getRedis().isAllowEvictingPolicy());
		map("uid.segment.redis.key-prefix", properties.getSegment().getRedis().getKeyPrefix(), builder::keyPrefix);
		RedisSegmentStore store = builder.build();
		if (properties.getGenerator() != UidProperties.Generator.SEGMENT) {
			// With uid.generator=segment the generator's first claim reads it first, in the background (a claim reads
			// it before its INCRBY), and a refusal fails the start there; this would be a Redis round trip, the
			// client's first connection, on the thread that refreshes the context.
			checkPersistenceAtStart(store);
		}
		return store;
	}

	/**
	 * Refuses a Redis that keeps nothing (or logs its warning) while the application starts, also where no segment
	 * is claimed then ({@code uid.segment.enabled=true} beside a Snowflake generator). A Redis that cannot be reached
	 * now stops nothing here: the first claim reads it again, and fails as claims do while the store is down.
	 */
	private static void checkPersistenceAtStart(RedisSegmentStore store) {
		try {
			store.checkPersistence();
		}
		catch (RedisKeepsNothingException ex) {
			throw ex;
		}
		catch (SegmentStoreException ex) {
			// Checked again at the first claim.
		}
	}

}
