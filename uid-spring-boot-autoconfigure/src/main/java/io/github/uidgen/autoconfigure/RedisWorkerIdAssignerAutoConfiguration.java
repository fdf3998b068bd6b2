package io.github.uidgen.autoconfigure;

import io.github.uidgen.autoconfigure.UidProperties.Worker.Redis;
import io.github.uidgen.worker.WorkerIdAssigner;
import io.github.uidgen.worker.redis.RedisWorkerIdAssigner;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * Auto-configures the redis worker-ID assigner on the application's {@link RedisConnectionFactory}, chosen by
 * {@code uid.worker.assigner=redis}; Sentinel and Cluster work through the application's Spring Data Redis
 * configuration.
 */
@AutoConfiguration(after = DataRedisAutoConfiguration.class)
@ConditionalOnBooleanProperty(name = "uid.enabled", matchIfMissing = true)
@ConditionalOnClass(RedisConnectionFactory.class)
@ConditionalOnProperty(name = "uid.worker.assigner", havingValue = "redis")
@EnableConfigurationProperties(UidProperties.class)
public final class RedisWorkerIdAssignerAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(WorkerIdAssigner.class)
	RedisWorkerIdAssigner redisWorkerIdAssigner(UidProperties properties,
			ObjectProvider<RedisConnectionFactory> connectionFactory, Environment environment) {
		RedisConnectionFactory factory = connectionFactory.getIfAvailable(() -> {
			throw new UidPropertyException("uid.worker.assigner", "redis",
					"The redis worker-ID assigner needs a RedisConnectionFactory, and the application has none.",
					"Add spring-boot-starter-data-redis and configure spring.data.redis.*, or choose another "
							+ "uid.worker.assigner.");
		});
		Redis redis = properties.getWorker().getRedis();
		RedisWorkerIdAssigner.Builder builder = RedisWorkerIdAssigner.builder(factory)
			.keyPrefix(redis.getKeyPrefix())
			.namespace(redis.getNamespace())
			.leaseDuration(redis.getLeaseDuration())
			.registryLossMargin(redis.getRegistryLossMargin())
			.port(environment.getProperty("server.port"));
		if (redis.getHeartbeatInterval() != null) {
			builder.heartbeatInterval(redis.getHeartbeatInterval());
		}
		if (properties.getWorker().getInstanceId() != null) {
			builder.instanceId(properties.getWorker().getInstanceId());
		}
		return builder.build();
	}

}
