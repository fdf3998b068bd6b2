package io.github.uidgen.autoconfigure;

import io.github.uidgen.redis.StandaloneRedis;
import io.github.uidgen.segment.SegmentStore;
import io.github.uidgen.segment.SegmentStoreException;
import io.github.uidgen.segment.redis.RedisKeepsNothingException;
import io.github.uidgen.segment.redis.RedisSegmentStore;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.data.redis.connection.RedisConnectionFactory;

import static io.github.uidgen.autoconfigure.UidPropertyMapper.map;

/**
 * The redis segment store on the application's {@link RedisConnectionFactory}, chosen by
 * {@code uid.segment.store=redis}; Sentinel and Cluster work through the application's Spring Data Redis
 * configuration, and {@code spring.data.redis.timeout} bounds each claim. A Redis that keeps nothing across a restart
 * is refused at start unless {@code uid.segment.redis.require-persistence=false}.
 *
 * <p>With {@code uid.generator=segment} and a standalone Redis that uid can reach alone ({@link EarlyRedisConnection}:
 * no SSL, Sentinel or Cluster) and that the factory reaches too, the first segment is claimed over a socket of uid's
 * own ({@link RedisSegmentStore.Builder#firstClaimOver}): the application's start then waits for neither Lettuce's
 * loading nor its first connection, which come once a later claim needs them.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(RedisConnectionFactory.class)
@ConditionalOnProperty(name = "uid.segment.store", havingValue = "redis")
class RedisSegmentStoreConfiguration {

	@Bean
	@ConditionalOnMissingBean(SegmentStore.class)
	RedisSegmentStore redisSegmentStore(UidProperties properties,
			ObjectProvider<RedisConnectionFactory> connectionFactory, Environment environment) {
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
		if (properties.getGenerator() == UidProperties.Generator.SEGMENT) {
			builder.firstClaimOver(standaloneRedis(factory, environment));
		}
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
	 * The Redis of {@code spring.data.redis.*} as a plain socket reaches it, when the factory talks to that same Redis;
	 * {@code null} otherwise (Jedis, SSL, Sentinel, Cluster, or a factory of the application's own elsewhere).
	 */
	private static StandaloneRedis standaloneRedis(RedisConnectionFactory factory, Environment environment) {
		if (!EarlyRedisClaimListener.isRedisPresent()) {
			return null;
		}
		EarlyRedisConnection connection = EarlyRedisConnection.of(Binder.get(environment));
		return (connection != null && connection.sameRedisAs(factory)) ? connection.direct() : null;
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
