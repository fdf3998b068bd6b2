package io.github.uidgen.autoconfigure;

import java.net.URI;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.data.redis.autoconfigure.DataRedisProperties;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.RedisPassword;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.util.StringUtils;

/**
 * A Lettuce connection to the standalone Redis that {@code spring.data.redis.*} names, made before the application
 * context exists (so before Spring Boot's own connection factory): host and port or URL, database, user, password,
 * timeouts and client name. What only the context can apply (SSL bundles, Sentinel, Cluster, customizer beans,
 * connection details from a service connection) makes {@link #of} answer {@code null}, and the context's factory is
 * compared with this one before a claim made on it is used.
 */
final class EarlyRedisConnection {

	/** Lettuce's own command timeout, which Spring Boot keeps when {@code spring.data.redis.timeout} is unset. */
	private static final Duration DEFAULT_COMMAND_TIMEOUT = Duration.ofSeconds(60);

	private final RedisStandaloneConfiguration standalone;

	private final ClientResources resources;

	private final LettuceConnectionFactory factory;

	private EarlyRedisConnection(RedisStandaloneConfiguration standalone, DataRedisProperties redis,
			Duration maxReconnectDelay) {
		this.standalone = standalone;
		DefaultClientResources.Builder resources = DefaultClientResources.builder();
		RedisWorkerIdAssignerAutoConfiguration.ReconnectDelayConfiguration.capReconnectDelay(resources,
				maxReconnectDelay);
		this.resources = resources.build();
		SocketOptions.Builder socket = SocketOptions.builder();
		if (redis.getConnectTimeout() != null) {
			socket.connectTimeout(redis.getConnectTimeout());
		}
		LettuceClientConfiguration.LettuceClientConfigurationBuilder client = LettuceClientConfiguration.builder()
			.clientResources(this.resources)
			.clientOptions(ClientOptions.builder().socketOptions(socket.build()).build())
			.commandTimeout((redis.getTimeout() != null) ? redis.getTimeout() : DEFAULT_COMMAND_TIMEOUT);
		if (StringUtils.hasText(redis.getClientName())) {
			client.clientName(redis.getClientName());
		}
		this.factory = new LettuceConnectionFactory(standalone, client.build());
	}

	/**
	 * Describes the connection {@code spring.data.redis.*} configures, when uid can make it alone.
	 * @param binder the application's environment
	 * @param maxReconnectDelay {@code uid.worker.redis.max-reconnect-delay}
	 * @return the connection, not yet started, or {@code null} when only Spring Boot's factory can make it
	 */
	static EarlyRedisConnection of(Binder binder, Duration maxReconnectDelay) {
		DataRedisProperties redis = binder.bind("spring.data.redis", DataRedisProperties.class)
			.orElseGet(DataRedisProperties::new);
		boolean jedis = redis.getClientType() == DataRedisProperties.ClientType.JEDIS;
		boolean sentinel = redis.getSentinel() != null && redis.getSentinel().getMaster() != null;
		boolean cluster = redis.getCluster() != null && !isEmpty(redis.getCluster().getNodes());
		boolean masterReplica = redis.getMasterreplica() != null && !isEmpty(redis.getMasterreplica().getNodes());
		if (jedis || sentinel || cluster || masterReplica || redis.getSsl().isEnabled()) {
			return null;
		}
		RedisStandaloneConfiguration standalone;
		if (StringUtils.hasText(redis.getUrl())) {
			standalone = fromUrl(URI.create(redis.getUrl()));
			if (standalone == null) {
				return null;
			}
		}
		else {
			standalone = new RedisStandaloneConfiguration(redis.getHost(), redis.getPort());
			standalone.setDatabase(redis.getDatabase());
			if (redis.getUsername() != null) {
				standalone.setUsername(redis.getUsername());
			}
			if (redis.getPassword() != null) {
				standalone.setPassword(RedisPassword.of(redis.getPassword()));
			}
		}
		return new EarlyRedisConnection(standalone, redis, maxReconnectDelay);
	}

	/**
	 * Reads {@code redis://[[user]:password@]host[:port][/database]}, as Spring Boot does; {@code rediss} (SSL) is left
	 * to Spring Boot.
	 */
	private static RedisStandaloneConfiguration fromUrl(URI url) {
		if (!"redis".equals(url.getScheme()) || url.getHost() == null) {
			return null;
		}
		RedisStandaloneConfiguration standalone = new RedisStandaloneConfiguration(url.getHost(),
				(url.getPort() > 0) ? url.getPort() : 6379);
		String path = url.getPath();
		if (path != null && path.length() > 1) {
			standalone.setDatabase(Integer.parseInt(path.substring(1)));
		}
		String userInfo = url.getUserInfo();
		if (userInfo != null) {
			int colon = userInfo.indexOf(':');
			String user = (colon >= 0) ? userInfo.substring(0, colon) : null;
			String password = (colon >= 0) ? userInfo.substring(colon + 1) : userInfo;
			if (StringUtils.hasText(user)) {
				standalone.setUsername(user);
			}
			standalone.setPassword(RedisPassword.of(password));
		}
		return standalone;
	}

	/** Starts the client; it connects at the first command. */
	RedisConnectionFactory start() {
		this.factory.afterPropertiesSet();
		this.factory.start();
		return this.factory;
	}

	/**
	 * Whether another factory talks to the same Redis and database: a standalone Lettuce factory with the same host,
	 * port and database, without SSL.
	 * @param other the context's factory
	 * @return whether a claim made through this connection is a claim on the other's Redis
	 */
	boolean sameRedisAs(RedisConnectionFactory other) {
		return other instanceof LettuceConnectionFactory lettuce && !lettuce.isRedisSentinelAware()
				&& !lettuce.isClusterAware() && !lettuce.isUseSsl()
				&& this.standalone.getHostName().equals(lettuce.getHostName())
				&& this.standalone.getPort() == lettuce.getPort()
				&& this.standalone.getDatabase() == lettuce.getDatabase();
	}

	/** Where it connects, for logs. */
	String describe() {
		return this.standalone.getHostName() + ":" + this.standalone.getPort() + "/" + this.standalone.getDatabase();
	}

	/** Closes the connections and the client's event loops. */
	void close() {
		this.factory.destroy();
		this.resources.shutdown(0, 2, TimeUnit.SECONDS);
	}

	private static boolean isEmpty(java.util.List<String> nodes) {
		return nodes == null || nodes.isEmpty();
	}

}
