package io.github.uidgen.autoconfigure;

import java.net.URI;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.github.uidgen.worker.redis.StandaloneRedis;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.data.redis.autoconfigure.DataRedisProperties;
import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.connection.RedisClusterConnection;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.RedisSentinelConnection;
import org.springframework.data.redis.connection.RedisPassword;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.util.StringUtils;

/**
 * The standalone Redis that {@code spring.data.redis.*} names, reached before the application context exists (so
 * before Spring Boot's own connection factory): host and port or URL, database, user, password, timeouts and client
 * name. What only the context can apply (SSL bundles, Sentinel, Cluster, customizer beans, connection details from a
 * service connection) makes {@link #of} answer {@code null}, and the context's factory is compared with this one
 * before a claim made on it is used.
 *
 * <p>Two ways to it: {@link #direct()}, a plain socket for the claim itself, which a cold JVM makes in milliseconds, and
 * {@link #factory()}, a Lettuce factory of uid's own for the renewals afterwards, which takes a second or more to load
 * and connect on a cold JVM and so is {@link #start() started} beside the claim rather than before it.
 */
final class EarlyRedisConnection {

	private static final Log logger = LogFactory.getLog(EarlyRedisConnection.class);

	/** Lettuce's own command timeout, which Spring Boot keeps when {@code spring.data.redis.timeout} is unset. */
	private static final Duration DEFAULT_COMMAND_TIMEOUT = Duration.ofSeconds(60);

	/** Lettuce's own connect timeout, which Spring Boot keeps when {@code spring.data.redis.connect-timeout} is unset. */
	private static final Duration DEFAULT_CONNECT_TIMEOUT = SocketOptions.DEFAULT_CONNECT_TIMEOUT_DURATION;

	private final RedisStandaloneConfiguration standalone;

	private final DataRedisProperties redis;

	private final Duration maxReconnectDelay;

	private final RedisConnectionFactory deferred = new DeferredFactory();

	/** Guards the Lettuce client's start and close. */
	private final Object lifecycle = new Object();

	private ClientResources resources;

	private volatile LettuceConnectionFactory factory;

	private boolean closed;

	private EarlyRedisConnection(RedisStandaloneConfiguration standalone, DataRedisProperties redis,
			Duration maxReconnectDelay) {
		this.standalone = standalone;
		this.redis = redis;
		this.maxReconnectDelay = maxReconnectDelay;
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
	 * The Lettuce factory of uid's own, started at its first use unless {@link #start()} started it before.
	 * @return the factory
	 */
	RedisConnectionFactory factory() {
		return this.deferred;
	}

	/**
	 * Loads the Lettuce client, starts it and makes its first connection, so that the generator's first renewal finds
	 * it ready; a Redis that does not answer is left for the renewals to report.
	 */
	void start() {
		try (RedisConnection connection = started().getConnection()) {
			connection.ping();
		}
		catch (RuntimeException ex) {
			logger.debug("uid's own Redis client could not connect yet", ex);
		}
	}

	private LettuceConnectionFactory started() {
		LettuceConnectionFactory started = this.factory;
		if (started != null) {
			return started;
		}
		synchronized (this.lifecycle) {
			if (this.closed) {
				throw new IllegalStateException("uid's own connection to Redis " + describe() + " is closed");
			}
			if (this.factory == null) {
				DefaultClientResources.Builder resources = DefaultClientResources.builder();
				RedisWorkerIdAssignerAutoConfiguration.ReconnectDelayConfiguration.capReconnectDelay(resources,
						this.maxReconnectDelay);
				this.resources = resources.build();
				SocketOptions.Builder socket = SocketOptions.builder();
				if (this.redis.getConnectTimeout() != null) {
					socket.connectTimeout(this.redis.getConnectTimeout());
				}
				LettuceClientConfiguration.LettuceClientConfigurationBuilder client = LettuceClientConfiguration
					.builder()
					.clientResources(this.resources)
					.clientOptions(ClientOptions.builder().socketOptions(socket.build()).build())
					.commandTimeout((this.redis.getTimeout() != null) ? this.redis.getTimeout()
							: DEFAULT_COMMAND_TIMEOUT);
				if (StringUtils.hasText(this.redis.getClientName())) {
					client.clientName(this.redis.getClientName());
				}
				LettuceConnectionFactory factory = new LettuceConnectionFactory(this.standalone, client.build());
				factory.afterPropertiesSet();
				factory.start();
				this.factory = factory;
			}
			return this.factory;
		}
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

	/** Closes the connections and the client's event loops, if they were started; once. */
	void close() {
		synchronized (this.lifecycle) {
			this.closed = true;
			if (this.factory != null) {
				this.factory.destroy();
				this.resources.shutdown(0, 2, TimeUnit.SECONDS);
				this.factory = null;
			}
		}
	}

	private static boolean isEmpty(java.util.List<String> nodes) {
		return nodes == null || nodes.isEmpty();
	}

	/** Starts uid's own Lettuce factory at its first use, on whichever thread comes first. */
	private final class DeferredFactory implements RedisConnectionFactory {

		@Override
		public RedisConnection getConnection() {
			return started().getConnection();
		}

		@Override
		public RedisClusterConnection getClusterConnection() {
			return started().getClusterConnection();
		}

		@Override
		public boolean getConvertPipelineAndTxResults() {
			return started().getConvertPipelineAndTxResults();
		}

		@Override
		public RedisSentinelConnection getSentinelConnection() {
			return started().getSentinelConnection();
		}

		@Override
		public DataAccessException translateExceptionIfPossible(RuntimeException ex) {
			return started().translateExceptionIfPossible(ex);
		}

	}

}
