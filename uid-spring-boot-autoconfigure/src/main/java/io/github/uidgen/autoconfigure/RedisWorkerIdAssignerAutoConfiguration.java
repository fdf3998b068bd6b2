package io.github.uidgen.autoconfigure;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.github.uidgen.worker.WorkerIdAssigner;
import io.github.uidgen.worker.redis.RedisWorkerIdAssigner;
import io.github.uidgen.worker.redis.RegistryTrust;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.Delay;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.data.redis.autoconfigure.ClientResourcesBuilderCustomizer;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.LettuceClientOptionsBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.data.redis.connection.RedisConnectionFactory;

import static io.github.uidgen.autoconfigure.UidPropertyMapper.map;

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

	/**
	 * The assigner on the application's connection factory; or the one {@link EarlyRedisClaim} built, with the
	 * worker ID it claimed before the context started, when it works on the same Redis with the same settings.
	 */
	@Bean
	@ConditionalOnMissingBean(WorkerIdAssigner.class)
	RedisWorkerIdAssigner redisWorkerIdAssigner(UidProperties properties,
			ObjectProvider<RedisConnectionFactory> connectionFactory, Environment environment,
			ObjectProvider<EarlyRedisClaim> earlyClaim) {
		RedisConnectionFactory factory = connectionFactory.getIfAvailable(() -> {
			throw new UidPropertyException("uid.worker.assigner", "redis",
					"The redis worker-ID assigner needs a RedisConnectionFactory, and the application has none.",
					"Add spring-boot-starter-data-redis and configure spring.data.redis.*, or choose another "
							+ "uid.worker.assigner.");
		});
		RedisWorkerIdAssigner assigner = assigner(properties, factory, environment);
		EarlyRedisClaim early = earlyClaim.getIfAvailable();
		return (early != null) ? early.adoptOr(factory, assigner) : assigner;
	}

	/**
	 * Builds the assigner the {@code uid.worker.*} settings describe, on a connection factory.
	 * @param properties the bound settings
	 * @param factory the connection factory
	 * @param environment for {@code server.port}, part of the default instance ID
	 * @return the assigner, which has not talked to Redis yet
	 */
	static RedisWorkerIdAssigner assigner(UidProperties properties, RedisConnectionFactory factory,
			Environment environment) {
		UidWorkerRedisProperties redis = properties.getWorker().getRedis();
		requireMarginCoversLead(properties);
		RedisWorkerIdAssigner.Builder builder = RedisWorkerIdAssigner.builder(factory)
			.port(environment.getProperty("server.port"));
		map("uid.worker.redis.key-prefix", redis.getKeyPrefix(), builder::keyPrefix);
		map("uid.worker.redis.namespace", redis.getNamespace(), builder::namespace);
		map("uid.worker.redis.registry-loss-margin", redis.getRegistryLossMargin(), builder::registryLossMargin);
		builder.allowEvictingPolicy(redis.isAllowEvictingPolicy());
		if (redis.getRegistryTrust() != null) {
			builder.registryTrust(RegistryTrust.valueOf(redis.getRegistryTrust().name()));
		}
		// The lease duration first: the heartbeat interval is checked against it.
		map("uid.worker.redis.lease-duration", redis.getLeaseDuration(), builder::leaseDuration);
		map("uid.worker.redis.heartbeat-interval", redis.getHeartbeatInterval(), builder::heartbeatInterval);
		map("uid.worker.instance-id", properties.getWorker().getInstanceId(), builder::instanceId);
		map("uid.worker.claim-history", properties.getWorker().getClaimHistory(), builder::claimHistory);
		return builder.build();
	}

	/**
	 * Caps how long the application's Lettuce client waits between reconnection attempts, so that renewals reach
	 * Redis again within a second of its return: Lettuce's own back-off doubles up to 30 s, and an instance would
	 * notice a Redis that was down for a while only tens of seconds after it came back. Applies to the Lettuce
	 * client Spring Boot builds ({@code spring.data.redis.*}); a connection factory of the application's own keeps
	 * its settings. {@code uid.worker.redis.max-reconnect-delay=0} leaves Lettuce's back-off as it is.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = "io.lettuce.core.resource.ClientResources")
	static class ReconnectDelayConfiguration {

		@Bean
		ClientResourcesBuilderCustomizer uidMaxReconnectDelay(UidProperties properties) {
			Duration max = properties.getWorker().getRedis().getMaxReconnectDelay();
			if (max != null && max.isNegative()) {
				throw new UidPropertyException("uid.worker.redis.max-reconnect-delay", max.toString(),
						"A reconnection delay cannot be negative.",
						"Set uid.worker.redis.max-reconnect-delay to a duration such as 500ms, or to 0 to keep "
								+ "Lettuce's own back-off.");
			}
			return (builder) -> capReconnectDelay(builder, max);
		}

		/**
		 * Caps a Lettuce client's reconnection back-off at {@code max}: exponential from 10 ms (or {@code max} when
		 * shorter); {@code null}, zero or negative leaves Lettuce's own.
		 */
		static void capReconnectDelay(ClientResources.Builder builder, Duration max) {
			if (max != null && !max.isNegative() && !max.isZero()) {
				Duration lower = (max.toMillis() < 10) ? max : Duration.ofMillis(10);
				builder.reconnectDelay(Delay.exponential(lower, max, 2, TimeUnit.MILLISECONDS));
			}
		}

	}

	/**
	 * Sets how the application's Lettuce Cluster client refreshes its topology, so that renewals follow a replica that
	 * took over the slots of a master that died well within the ride-through: Lettuce's adaptive triggers (a MOVED or
	 * ASK redirection, reconnection attempts that keep failing, an unknown node, an uncovered slot) refresh it at most
	 * once a second, and a periodic refresh every 10 s catches what no trigger reports. Spring Boot sets no trigger
	 * and no period of its own (Lettuce 7.5 turns the triggers on, at most once every 5 s, and the periodic refresh
	 * off; older Lettuce versions turn both off, and the client then keeps sending to the dead master). Applies to the
	 * Lettuce client Spring Boot builds for a Cluster, and only when the application set no
	 * {@code spring.data.redis.lettuce.cluster.refresh.*} property: whoever set one chose how the topology is
	 * refreshed.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = "io.lettuce.core.cluster.ClusterClientOptions")
	static class ClusterTopologyRefreshConfiguration {

		/** The shortest time between two refreshes that adaptive triggers start. */
		static final Duration ADAPTIVE_REFRESH_LIMIT = Duration.ofSeconds(1);

		/** How often the topology is refreshed whatever happens. */
		static final Duration PERIODIC_REFRESH = Duration.ofSeconds(10);

		@Bean
		LettuceClientOptionsBuilderCustomizer uidClusterTopologyRefresh(Environment environment) {
			boolean configured = Binder.get(environment)
				.bind("spring.data.redis.lettuce.cluster.refresh", Bindable.mapOf(String.class, Object.class))
				.map((refresh) -> !refresh.isEmpty())
				.orElse(false);
			return (builder) -> {
				if (!configured && builder instanceof ClusterClientOptions.Builder cluster) {
					cluster.topologyRefreshOptions(ClusterTopologyRefreshOptions.builder()
						.enableAllAdaptiveRefreshTriggers()
						.adaptiveRefreshTriggersTimeout(ADAPTIVE_REFRESH_LIMIT)
						.enablePeriodicRefresh(PERIODIC_REFRESH)
						.build());
				}
			};
		}

	}

	/**
	 * After Redis lost or rewound the registry, claims wait the margin so that whatever a holder may have issued lies
	 * in the past: it must cover how far past the clock a generator may have recorded its mark.
	 */
	private static void requireMarginCoversLead(UidProperties properties) {
		Duration margin = properties.getWorker().getRedis().getRegistryLossMargin();
		boolean cached = properties.getGenerator() == UidProperties.Generator.CACHED;
		Duration maxAhead = cached ? properties.getCached().getMaxAhead() : Duration.ZERO;
		Duration reservation = properties.getMark().getReservation();
		if (margin == null || maxAhead == null || reservation == null) {
			return;
		}
		Duration lead = maxAhead.plus(reservation);
		Duration skew = properties.getWorker().getMaxClockSkew();
		if (margin.compareTo(lead) < 0) {
			String parts = (cached ? "uid.cached.max-ahead (" + text(maxAhead) + ") + " : "") + "uid.mark.reservation ("
					+ text(reservation) + ")";
			throw new UidPropertyException("uid.worker.redis.registry-loss-margin", text(margin),
					"After Redis loses or rewinds the worker registry, claims wait this margin so that every ID a "
							+ "previous holder may have issued lies in the past; it must cover " + parts + " = "
							+ text(lead) + ", plus the clock skew between instances.",
					"Set uid.worker.redis.registry-loss-margin to at least " + text(lead) + " plus your clock skew "
							+ "(for example " + text(lead.plus((skew != null) ? skew : Duration.ofSeconds(2))) + ")"
							+ (cached ? ", or lower uid.cached.max-ahead" : "") + ".");
		}
	}

	private static String text(Duration duration) {
		long millis = duration.toMillis();
		return (millis % 1000 == 0) ? (millis / 1000) + "s" : millis + "ms";
	}

}
