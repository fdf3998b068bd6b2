package io.github.uidgen.benchmarks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import com.zaxxer.hikari.HikariDataSource;
import io.github.uidgen.worker.WorkerIdAssigner;
import io.github.uidgen.worker.jdbc.DisposableWorkerIdAssigner;
import io.github.uidgen.worker.jdbc.JdbcLeaseWorkerIdAssigner;
import io.github.uidgen.worker.redis.RedisWorkerIdAssigner;
import io.github.uidgen.worker.zookeeper.ZookeeperWorkerIdAssigner;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryNTimes;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * A store that hands out worker IDs, reached the way an application reaches it, in which the claims part makes
 * spaces of its own (a table, a Redis namespace, a ZooKeeper namespace) and removes them afterwards, so nothing else
 * on a shared server is touched.
 *
 * <p>Every lease lasts an hour: the leases filled in must stay live while the part runs, and the duration changes
 * nothing in what a claim does.
 */
abstract class ClaimStore implements AutoCloseable {

	static final String KINDS = "db-lease-mariadb,db-lease-postgresql,db-disposable-mariadb,db-disposable-postgresql,"
			+ "redis,zookeeper";

	static final Duration LEASE = Duration.ofHours(1);

	private final String name;

	private final String settings;

	private ClaimStore(String name, String settings) {
		this.name = name;
		this.settings = settings;
	}

	/**
	 * Opens a store by its name.
	 * @param kind one of {@link #KINDS}
	 * @param mariadbUrl JDBC URL of the MariaDB (or MySQL) database, user included
	 * @param postgresqlUrl JDBC URL of the PostgreSQL database, user included
	 * @param redis {@code host:port} of the Redis server
	 * @return the store
	 */
	static ClaimStore open(String kind, String mariadbUrl, String postgresqlUrl, String redis) {
		return switch (kind) {
			case "db-lease-mariadb" -> jdbc(kind, mariadbUrl, true);
			case "db-lease-postgresql" -> jdbc(kind, postgresqlUrl, true);
			case "db-disposable-mariadb" -> jdbc(kind, mariadbUrl, false);
			case "db-disposable-postgresql" -> jdbc(kind, postgresqlUrl, false);
			case "redis" -> redis(redis);
			case "zookeeper" -> zookeeper();
			default -> throw new IllegalArgumentException("Unknown store '" + kind + "'; use one of " + KINDS);
		};
	}

	String name() {
		return this.name;
	}

	/**
	 * Says which assigner runs on which server.
	 * @return for example {@code JdbcLeaseWorkerIdAssigner, jdbc:mysql://127.0.0.1:3306/test}
	 */
	String settings() {
		return this.settings;
	}

	/**
	 * Returns whether a released worker ID can be claimed again (the disposable assigner never hands one out twice).
	 * @return whether releasing and claiming again means anything
	 */
	boolean reusesReleased() {
		return true;
	}

	/**
	 * Makes a table or namespace of the benchmark's own.
	 * @return the new space; close it to remove it
	 */
	abstract Space newSpace();

	@Override
	public abstract void close();

	/** A table or namespace of its own, removed on close. */
	interface Space extends AutoCloseable {

		/**
		 * Creates the assigner an instance of that identity would use.
		 * @param instanceId the instance's identity
		 * @return the assigner
		 */
		WorkerIdAssigner assigner(String instanceId);

		@Override
		void close();

	}

	private static String unique(String prefix) {
		return prefix + UUID.randomUUID().toString().replace("-", "").substring(0, 10);
	}

	private static ClaimStore jdbc(String kind, String url, boolean lease) {
		HikariDataSource dataSource = new HikariDataSource();
		dataSource.setJdbcUrl(url);
		dataSource.setMaximumPoolSize(4);
		dataSource.setMinimumIdle(0);
		dataSource.setConnectionTimeout(5_000);
		dataSource.setPoolName("uid-bench-" + kind);
		String assigner = lease ? "JdbcLeaseWorkerIdAssigner" : "DisposableWorkerIdAssigner";
		return new ClaimStore(kind, assigner + ", HikariCP, " + url.replaceAll("\\?.*", "")) {

			@Override
			boolean reusesReleased() {
				return lease;
			}

			@Override
			Space newSpace() {
				String table = unique(lease ? "uid_bench_lease_" : "uid_bench_node_").toLowerCase(Locale.ROOT);
				return new Space() {

					@Override
					public WorkerIdAssigner assigner(String instanceId) {
						if (!lease) {
							return DisposableWorkerIdAssigner.builder(dataSource)
								.workerNodeTable(table)
								.initializeSchema(true)
								.build();
						}
						return JdbcLeaseWorkerIdAssigner.builder(dataSource)
							.leaseTable(table)
							.leaseDuration(LEASE)
							.instanceId(instanceId)
							.initializeSchema(true)
							.build();
					}

					@Override
					public void close() {
						new JdbcTemplate(dataSource).execute("DROP TABLE IF EXISTS " + table);
					}

				};
			}

			@Override
			public void close() {
				dataSource.close();
			}

		};
	}

	/** The keys the Redis assigner keeps for one namespace (see its registry script), and its layout record. */
	private static final List<String> REDIS_KEYS = List.of("leases", "tokens", "holders", "instances", "marks",
			"generation", "server", "layout");

	private static ClaimStore redis(String hostAndPort) {
		String host = hostAndPort.substring(0, hostAndPort.lastIndexOf(':'));
		int port = Integer.parseInt(hostAndPort.substring(hostAndPort.lastIndexOf(':') + 1));
		LettuceConnectionFactory factory = new LettuceConnectionFactory(new RedisStandaloneConfiguration(host, port));
		factory.afterPropertiesSet();
		factory.start();
		String keyPrefix = "uid-bench";
		return new ClaimStore("redis", "RedisWorkerIdAssigner, Lettuce, " + hostAndPort
				+ ", registry-loss-margin 0 (a new namespace would otherwise wait 15 s before its first claim)") {

			@Override
			Space newSpace() {
				String namespace = unique("claims-");
				return new Space() {

					@Override
					public WorkerIdAssigner assigner(String instanceId) {
						return RedisWorkerIdAssigner.builder(factory)
							.keyPrefix(keyPrefix)
							.namespace(namespace)
							.leaseDuration(LEASE)
							.registryLossMargin(Duration.ZERO)
							.instanceId(instanceId)
							.build();
					}

					@Override
					public void close() {
						List<String> keys = new ArrayList<>();
						for (String key : REDIS_KEYS) {
							keys.add("{" + keyPrefix + ":" + namespace + "}:" + key);
						}
						new StringRedisTemplate(factory).delete(keys);
					}

				};
			}

			@Override
			public void close() {
				factory.destroy();
			}

		};
	}

	private static ClaimStore zookeeper() {
		TestingServer server = startZooKeeper();
		CuratorFramework client = CuratorFrameworkFactory.builder()
			.connectString(server.getConnectString())
			.sessionTimeoutMs(60_000)
			.connectionTimeoutMs(5_000)
			.retryPolicy(new RetryNTimes(3, 100))
			.build();
		client.start();
		try {
			if (!client.blockUntilConnected(20, TimeUnit.SECONDS)) {
				throw new IllegalStateException("No connection to the ZooKeeper server at "
						+ server.getConnectString());
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
		return new ClaimStore("zookeeper", "ZookeeperWorkerIdAssigner, Curator, ZooKeeper "
				+ org.apache.zookeeper.Version.getFullVersion().replaceAll("[-,].*", "")
				+ " in the benchmark's JVM (Curator's TestingServer) on 127.0.0.1") {

			@Override
			Space newSpace() {
				String namespace = unique("claims-");
				return new Space() {

					@Override
					public WorkerIdAssigner assigner(String instanceId) {
						return ZookeeperWorkerIdAssigner.builder(client)
							.namespace(namespace)
							.leaseDuration(LEASE)
							.instanceId(instanceId)
							.build();
					}

					@Override
					public void close() {
						// The whole server, with its data folder, goes when the store is closed.
					}

				};
			}

			@Override
			public void close() {
				client.close();
				try {
					server.close();
				}
				catch (IOException ex) {
					throw new UncheckedIOException(ex);
				}
			}

		};
	}

	/**
	 * A ZooKeeper server in this JVM on a free loopback port, its data in a temporary folder removed on close. It
	 * takes any number of connections from one address (60 by default): every benchmark client comes from 127.0.0.1,
	 * where a fleet's come from hosts of their own.
	 */
	static TestingServer startZooKeeper() {
		int port;
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			port = socket.getLocalPort();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		Map<String, Object> properties = Map.of("clientPortAddress", "127.0.0.1", "admin.enableServer", "false",
				"maxSessionTimeout", "60000", "maxClientCnxns", "0");
		InstanceSpec spec = new InstanceSpec(null, port, -1, -1, true, -1, 2_000, -1, properties, "127.0.0.1");
		try {
			return new TestingServer(spec, true);
		}
		catch (Exception ex) {
			throw new IllegalStateException("Cannot start a ZooKeeper server on port " + port, ex);
		}
	}

}
