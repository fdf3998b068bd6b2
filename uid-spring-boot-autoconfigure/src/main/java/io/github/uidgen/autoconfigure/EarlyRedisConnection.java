package io.github.uidgen.autoconfigure;

import java.net.URI;
import java.time.Duration;

import io.github.uidgen.redis.StandaloneRedis;
import io.lettuce.core.SocketOptions;

import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.data.redis.autoconfigure.DataRedisProperties;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.RedisPassword;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.util.StringUtils;

/**
 * The standalone Redis that {@code spring.data.redis.*} names, as uid reaches it before the application context exists
 * (so before Spring Boot's own connection factory) or before that factory has connected: host and port or URL,
 * database, user, password, timeouts and client name, for a plain socket of uid's own ({@link #direct()}) that makes
 * the early worker-ID claim or a segment store's first claim. What only the context can apply (SSL bundles,
 * Sentinel, Cluster, customizer beans, connection details from a service connection) makes {@link #of} answer
 * {@code null}, and the context's factory is compared with this one before a claim made on it is used.
 */
final class EarlyRedisConnection {

	/** Lettuce's own command timeout, which Spring Boot keeps when {@code spring.data.redis.timeout} is unset. */
	private static final Duration DEFAULT_COMMAND_TIMEOUT = Duration.ofSeconds(60);

	/** Lettuce's own connect timeout, which Spring Boot keeps when {@code spring.data.redis.connect-timeout} is unset. */
	private static final Duration DEFAULT_CONNECT_TIMEOUT = SocketOptions.DEFAULT_CONNECT_TIMEOUT_DURATION;

	private final RedisStandaloneConfiguration standalone;

	private final DataRedisProperties redis;

	private EarlyRedisConnection(RedisStandaloneConfiguration standalone, DataRedisProperties redis) {
		this.standalone = standalone;
		this.redis = redis;
	}

	/**
	 * Describes the connection {@code spring.data.redis.*} configures, when uid can make it alone.
	 * @param binder the application's environment
	 * @return the connection, not yet made, or {@code null} when only Spring Boot's factory can make it
	 */
	static EarlyRedisConnection of(Binder binder) {
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
		return new EarlyRedisConnection(standalone, redis);
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

	/**
	 * The Redis as a plain socket reaches it, for the claim.
	 * @return where and how to connect
	 */
	StandaloneRedis direct() {
		return new StandaloneRedis(this.standalone.getHostName(), this.standalone.getPort(),
				this.standalone.getDatabase(), this.standalone.getUsername(),
				this.standalone.getPassword().map(String::new).orElse(null),
				StringUtils.hasText(this.redis.getClientName()) ? this.redis.getClientName() : null,
				(this.redis.getConnectTimeout() != null) ? this.redis.getConnectTimeout() : DEFAULT_CONNECT_TIMEOUT,
				(this.redis.getTimeout() != null) ? this.redis.getTimeout() : DEFAULT_COMMAND_TIMEOUT);
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

	private static boolean isEmpty(java.util.List<String> nodes) {
		return nodes == null || nodes.isEmpty();
	}

}
