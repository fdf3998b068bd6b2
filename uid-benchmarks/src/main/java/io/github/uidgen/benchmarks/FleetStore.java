package io.github.uidgen.benchmarks;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

import com.zaxxer.hikari.HikariDataSource;
import io.github.uidgen.testsupport.ThrowawayMariaDb;
import io.github.uidgen.testsupport.ServerProcess;
import io.github.uidgen.testsupport.ThrowawayRedis;
import io.github.uidgen.testsupport.ThrowawayZooKeeperProcess;
import io.github.uidgen.worker.WorkerIdAssigner;
import io.github.uidgen.worker.jdbc.JdbcLeaseWorkerIdAssigner;
import io.github.uidgen.worker.redis.RedisWorkerIdAssigner;
import io.github.uidgen.worker.support.LeaseSettings;
import io.github.uidgen.worker.zookeeper.ZookeeperWorkerIdAssigner;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.Delay;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.zookeeper.CreateMode;

import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * A worker store of the fleet simulation's own: a throwaway server on a spare loopback port that it can restart with
 * its data or empty, a client per simulated instance made the way the starter makes it at its defaults, and a
 * reading of the server's CPU time, operations and memory.
 *
 * <p>What one JVM must share, and a fleet would not, is said by {@link #describe()}.
 */
abstract class FleetStore implements AutoCloseable {

	/** The assigners' heartbeat for this run, {@code null} for their default. */
	private static volatile Duration heartbeat;

	/** The assigners' lease (and ZooKeeper's session timeout) for this run, {@code null} for their default. */
	private static volatile Duration lease;

	/** The ZooKeeper server's accept queue for this run, 0 for ZooKeeper's default (50, the JDK's). */
	private static volatile int zookeeperListenBacklog;

	/** Whether MariaDB runs statements on a pool of threads for this run, rather than one thread per connection. */
	private static volatile boolean mariaDbThreadPool;

	static final String KINDS = "redis,zookeeper,db";

	/** What the server has used and holds, read at one moment. */
	record Reading(long cpuMillis, long operations, long memoryBytes) {

		/** The server's CPU since an earlier reading, in % of one core over the seconds between them. */
		double cpuPercentSince(Reading before, double seconds) {
			return (this.cpuMillis - before.cpuMillis) / 10.0 / seconds;
		}

	}

	/**
	 * One instance's assigner and the client under it, which {@link #close()} closes.
	 * @param assigner the assigner
	 * @param closer closes the client
	 * @param counts what the client sent, where the store counts it (ZooKeeper), else {@code null}
	 */
	record Client(WorkerIdAssigner assigner, Runnable closer, CountingZooKeeper.Counts counts)
			implements AutoCloseable {

		Client(WorkerIdAssigner assigner, Runnable closer) {
			this(assigner, closer, null);
		}

		@Override
		public void close() {
			this.closer.run();
		}

	}

	/**
	 * Starts a store by its name.
	 * @param kind one of {@link #KINDS}
	 * @param dir a directory of its own for the server's data and log
	 * @param digests whether MariaDB keeps statements by digest ({@code performance_schema}, some CPU)
	 * @return the running store
	 */
	static FleetStore start(String kind, Path dir, boolean digests) {
		return switch (kind) {
			case "redis" -> new Redis(dir);
			case "zookeeper" -> new ZooKeeper(dir);
			case "db" -> new Db(dir, digests);
			default -> throw new IllegalArgumentException("Unknown store '" + kind + "'; use one of " + KINDS);
		};
	}

	/** Its name in tables. */
	abstract String name();

	/** The server, how each instance reaches it, and what the instances share that a fleet would not. */
	abstract String describe();

	/** What {@link Reading#operations()} counts. */
	abstract String operationsCounted();

	/** What {@link Reading#memoryBytes()} measures. */
	abstract String memoryMeasured();

	/**
	 * Creates the assigner of one instance, on a client of its own, at the starter's defaults.
	 * @param instanceId the instance's identity
	 * @return the assigner and its client
	 */
	Client client(String instanceId) {
		return client(instanceId, null);
	}

	/**
	 * Creates the assigner of one instance, on a client of its own, at the starter's defaults but for where its
	 * worker IDs are kept.
	 * @param instanceId the instance's identity
	 * @param namespace the namespace (Redis, ZooKeeper), or what the lease table's name ends with (a database);
	 * {@code null} for the default
	 * @return the assigner and its client
	 */
	abstract Client client(String instanceId, String namespace);

	/**
	 * Creates a client of the store without uid, made the way {@link #client} makes an instance's, for the store's
	 * floor: what any client of this store pays at a simultaneous start, whatever it does there.
	 * @param instanceId the instance's identity
	 * @return the client
	 */
	abstract FloorClient floorClient(String instanceId);

	/** How often each instance writes to the store at steady state: its renewal interval at the defaults. */
	Duration renewalInterval() {
		return (heartbeat() != null) ? heartbeat() : leaseOrDefault().dividedBy(6);
	}

	/**
	 * A client that does the least a claim must: reach the server on a new connection (or session), and write once.
	 */
	interface FloorClient extends AutoCloseable {

		/** Makes the client's first round trip: the connection (or session) and one read. */
		void connect();

		/** Writes one record of this client's own, as durably as the store writes a claim; later calls update it. */
		void write();

		@Override
		void close();

	}

	/**
	 * Waits until the new server is like one a fleet already uses, saying why it waits.
	 * @param out where to say it
	 */
	void awaitInUse(PrintStream out) {
	}

	/** Reads the server's CPU time, operations and memory now. */
	abstract Reading read();

	/** What the server did during a phase, printed at its end. */
	@FunctionalInterface
	interface Watch {

		/**
		 * Prints what the server did since the watch started.
		 * @param out where
		 * @param title what the phase was
		 * @param claims the claims made in it
		 */
		void print(PrintStream out, String title, int claims);

	}

	/**
	 * Starts watching what the server does, where the store can tell more than {@link #read()}.
	 * @param sampleEvery how often to sample what piles up in the server (its sessions or requests at once)
	 * @return the watch; by default one that prints nothing
	 */
	Watch watch(Duration sampleEvery) {
		return (out, title, claims) -> {
		};
	}

	/**
	 * Stops the server, keeps it down for the outage, and starts it again on its data.
	 * @param outage how long it stays down
	 */
	abstract void restart(Duration outage);

	/** How long the last restart took until the server answered, where the store measures it, else {@code null}. */
	String restartNote() {
		return null;
	}

	/**
	 * Stops the server, keeps it down for the outage, and starts it again without its data.
	 * @param outage how long it stays down
	 * @return {@code false} when the store has no such restart here
	 */
	abstract boolean restartEmpty(Duration outage);

	/** Stops every client and the server. */
	@Override
	public abstract void close();

	static void sleep(Duration duration) {
		try {
			Thread.sleep(duration.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	/** CPU time of a process of this machine, from {@code /proc/<pid>/stat} (user and system, clock ticks of 10 ms). */
	static long processCpuMillis(long pid) {
		try {
			String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
			String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
			// After the name: state is field 3 of the whole line, utime 14 and stime 15.
			return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) * 10;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * Redis as {@code redis-server} with an append-only file, one Lettuce connection factory per instance, all on
	 * one {@link ClientResources} (event loops and timers), with the starter's 500 ms cap on the reconnection delay.
	 */
	private static final class Redis extends FleetStore {

		private final ThrowawayRedis server;

		private final ClientResources resources;

		Redis(Path dir) {
			this.server = ThrowawayRedis.start(dir, "--appendonly", "yes", "--maxclients", "10000");
			this.resources = ClientResources.builder()
				.reconnectDelay(Delay.exponential(Duration.ofMillis(10), Duration.ofMillis(500), 2,
						TimeUnit.MILLISECONDS))
				.build();
		}

		@Override
		String name() {
			return "redis";
		}

		@Override
		String describe() {
			return "redis-server " + info("server").getOrDefault("redis_version", "?") + " (append-only file, "
					+ "everysec) on 127.0.0.1; each instance its own Lettuce connection factory and connection, all "
					+ "sharing one ClientResources (Netty event loops), reconnection delay capped at 500 ms as the "
					+ "starter does; RedisWorkerIdAssigner (lease " + describeLease() + ", renewals every "
					+ renewalInterval().toMillis() + " ms" + ((heartbeat() != null) ? " (--heartbeat-seconds)" : "")
					+ ", claim history 256)";
		}

		@Override
		String operationsCounted() {
			return "script calls (EVALSHA and EVAL: claims, renewals, releases, fleet reads)";
		}

		@Override
		String memoryMeasured() {
			return "used_memory of INFO memory";
		}

		@Override
		Client client(String instanceId, String namespace) {
			LettuceConnectionFactory factory = connectionFactory();
			RedisWorkerIdAssigner.Builder builder = RedisWorkerIdAssigner.builder(factory);
			if (namespace != null) {
				builder.namespace(namespace);
			}
			return new Client(builder.instanceId(instanceId)
				.leaseDuration(lease())
				.heartbeatInterval(heartbeat())
				.build(), factory::destroy);
		}

		@Override
		Duration renewalInterval() {
			return (heartbeat() != null) ? heartbeat() : Duration.ofMillis(1500);
		}

		@Override
		FloorClient floorClient(String instanceId) {
			LettuceConnectionFactory factory = connectionFactory();
			byte[] key = ("uid-fleet-floor:" + instanceId).getBytes(StandardCharsets.UTF_8);
			return new FloorClient() {

				private RedisConnection connection;

				@Override
				public void connect() {
					this.connection = factory.getConnection();
					this.connection.ping();
				}

				@Override
				public void write() {
					this.connection.stringCommands().set(key, key);
				}

				@Override
				public void close() {
					if (this.connection != null) {
						this.connection.close();
					}
					factory.destroy();
				}

			};
		}

		private LettuceConnectionFactory connectionFactory() {
			LettuceConnectionFactory factory = new LettuceConnectionFactory(
					new RedisStandaloneConfiguration("127.0.0.1", this.server.port()),
					LettuceClientConfiguration.builder().clientResources(this.resources).build());
			factory.afterPropertiesSet();
			factory.start();
			return factory;
		}

		/**
		 * Waits until the server has run for longer than the registry-loss margin (30 s): before that, a namespace's
		 * first claims wait the margin, as on any Redis that has just started.
		 */
		@Override
		void awaitInUse(PrintStream out) {
			out.println("(Waiting until the new Redis has run for longer than the registry-loss margin, 30 s, as a "
					+ "Redis in use has: before that a namespace's first claims wait the margin.)");
			out.println();
			for (int i = 0; i < 60; i++) {
				long uptime = Long.parseLong(info("server").getOrDefault("uptime_in_seconds", "0"));
				if (uptime > 31) {
					return;
				}
				sleep(Duration.ofSeconds(1));
			}
		}

		@Override
		Reading read() {
			Map<String, String> cpu = info("cpu");
			long cpuMillis = Math.round((Double.parseDouble(cpu.get("used_cpu_sys"))
					+ Double.parseDouble(cpu.get("used_cpu_user"))) * 1000);
			long scripts = 0;
			for (Map.Entry<String, String> stat : info("commandstats").entrySet()) {
				if (stat.getKey().equals("cmdstat_evalsha") || stat.getKey().equals("cmdstat_eval")) {
					String calls = stat.getValue().replaceAll("^calls=(\\d+),.*", "$1");
					scripts += Long.parseLong(calls);
				}
			}
			long memory = Long.parseLong(info("memory").get("used_memory"));
			return new Reading(cpuMillis, scripts, memory);
		}

		Map<String, String> info(String section) {
			Map<String, String> values = new HashMap<>();
			for (String line : this.server.cli("INFO", section).split("\r?\n")) {
				int colon = line.indexOf(':');
				if (colon > 0) {
					values.put(line.substring(0, colon), line.substring(colon + 1).trim());
				}
			}
			return values;
		}

		@Override
		void restart(Duration outage) {
			this.server.stop();
			sleep(outage);
			this.server.start();
		}

		@Override
		boolean restartEmpty(Duration outage) {
			this.server.stop();
			sleep(outage);
			this.server.restartEmpty();
			return true;
		}

		@Override
		public void close() {
			this.resources.shutdown();
			this.server.close();
		}

	}

	/**
	 * ZooKeeper as a server process of its own ({@code ZooKeeperServerMain} in a JVM of its own, a fresh data
	 * directory), one Curator client and session per instance, at the starter's defaults.
	 */
	private static final class ZooKeeper extends FleetStore {

		private final ThrowawayZooKeeperProcess server;

		/** The server's CPU time in processes that have exited (a restart starts a new one). */
		private long cpuOfEndedProcesses;

		ZooKeeper(Path dir) {
			this.server = ThrowawayZooKeeperProcess.start(dir, (zookeeperListenBacklog > 0)
					? List.of("clientPortListenBacklog=" + zookeeperListenBacklog) : List.of());
		}

		@Override
		String name() {
			return "zookeeper";
		}

		@Override
		String describe() {
			return "ZooKeeper " + org.apache.zookeeper.Version.getFullVersion().replaceAll("[-,].*", "")
					+ " standalone (ZooKeeperServerMain in a JVM of its own, -Xmx1000m as zkServer.sh gives it, tick 2 s, "
					+ "no limit of connections per address, sessions up to 60 s, accept queue "
					+ describeListenBacklog()
					+ "); each instance its own CuratorFramework "
					+ "and session (session timeout " + describeLease() + ", connection timeout 10 s, as the starter "
					+ "builds it); ZookeeperWorkerIdAssigner at its defaults (lease " + describeLease() + ", "
					+ describeHeartbeat() + ", claim history 256)";
		}

		@Override
		String operationsCounted() {
			return "packets received (mntr zk_packets_received: requests and session pings)";
		}

		@Override
		String memoryMeasured() {
			return "znode data (mntr zk_approximate_data_size)";
		}

		@Override
		Client client(String instanceId, String namespace) {
			// Counts what the client sends (a ZooKeeper handle of the simulation's own under Curator), and when its
			// session was established and last re-established.
			CountingZooKeeper.Counts counts = new CountingZooKeeper.Counts();
			CuratorFramework client = curator(counts);
			ZookeeperWorkerIdAssigner.Builder builder = ZookeeperWorkerIdAssigner.builder(client);
			if (namespace != null) {
				builder.namespace(namespace);
			}
			return new Client(builder.instanceId(instanceId)
				.leaseDuration(lease())
				.heartbeatInterval(heartbeat())
				.build(), client::close, counts);
		}

		@Override
		FloorClient floorClient(String instanceId) {
			CuratorFramework client = curator(new CountingZooKeeper.Counts());
			String path = "/uid-fleet-floor/" + instanceId;
			return new FloorClient() {

				@Override
				public void connect() {
					call(() -> client.checkExists().forPath("/"));
				}

				private boolean created;

				@Override
				public void write() {
					if (this.created) {
						// As a renewal writes its lease znode.
						call(() -> client.setData().forPath(path, new byte[8]));
						return;
					}
					// Ephemeral, as a claim's lease znode is: gone with the session when the client closes.
					call(() -> client.create().creatingParentsIfNeeded().withMode(CreateMode.EPHEMERAL).forPath(path));
					this.created = true;
				}

				@Override
				public void close() {
					client.close();
				}

			};
		}

		/** A Curator client as the starter builds it, started; its session is established in the background. */
		private CuratorFramework curator(CountingZooKeeper.Counts counts) {
			CuratorFramework client = CuratorFrameworkFactory.builder()
				.connectString(this.server.connectString())
				.sessionTimeoutMs((int) leaseOrDefault().toMillis())
				.connectionTimeoutMs(10_000)
				.retryPolicy(new ExponentialBackoffRetry(200, 3))
				.zookeeperFactory(CountingZooKeeper.factory(counts))
				.build();
			client.getConnectionStateListenable().addListener((curator, state) -> {
				counts.state(state.name());
				if (state.isConnected()) {
					counts.connected();
				}
			});
			client.start();
			return client;
		}

		private static void call(Callable<?> request) {
			try {
				request.call();
			}
			catch (Exception ex) {
				throw new IllegalStateException(ex);
			}
		}

		@Override
		Watch watch(Duration sampleEvery) {
			return ZooKeeperWatch.start(this.server.port(), this::serverCpuMillis, sampleEvery)::print;
		}

		@Override
		Reading read() {
			Map<String, String> mntr = mntr();
			return new Reading(serverCpuMillis(), Long.parseLong(mntr.getOrDefault("zk_packets_received", "0")),
					Long.parseLong(mntr.getOrDefault("zk_approximate_data_size", "0")));
		}

		private synchronized long serverCpuMillis() {
			ServerProcess process = this.server.process();
			return this.cpuOfEndedProcesses + (process.isAlive() ? processCpuMillis(process.pid()) : 0);
		}

		private Map<String, String> mntr() {
			return ZooKeeperWatch.mntr(this.server.port());
		}

		@Override
		void restart(Duration outage) {
			synchronized (this) {
				this.cpuOfEndedProcesses += processCpuMillis(this.server.process().pid());
			}
			this.server.stop();
			sleep(outage);
			long startNanos = System.nanoTime();
			this.server.start();
			this.restartSeconds = (System.nanoTime() - startNanos) / 1e9;
		}

		/** How long the last restart took from the server's start until it answered, seconds. */
		private double restartSeconds;

		@Override
		String restartNote() {
			return String.format(java.util.Locale.ROOT, "%.1f s", this.restartSeconds);
		}

		@Override
		boolean restartEmpty(Duration outage) {
			// A ZooKeeper ensemble that loses its data loses its sessions with it: not an outage a fleet rides.
			return false;
		}

		@Override
		public void close() {
			this.server.close();
		}

	}

	/**
	 * MariaDB as a {@code mariadbd} of its own (a fresh data directory, {@code --max-connections=2000}, statements on
	 * a pool of threads when asked), one HikariCP pool per instance (at most 2 connections, none kept idle); the lease
	 * table and its claim history created by the first claim.
	 */
	private static final class Db extends FleetStore {

		private final ThrowawayMariaDb server;

		private boolean floorTable;

		Db(Path dir, boolean digests) {
			// performance_schema (statements by digest, rows examined) costs the server some CPU: only when asked.
			List<String> options = new ArrayList<>(List.of("--max-connections=2000"));
			if (digests) {
				options.add("--performance-schema=ON");
			}
			if (mariaDbThreadPool) {
				options.add("--thread-handling=pool-of-threads");
			}
			this.server = ThrowawayMariaDb.start(dir, options.toArray(String[]::new));
		}

		@Override
		Watch watch(Duration sampleEvery) {
			return MariaDbWatch.start(this.server.jdbcUrl(), sampleEvery)::print;
		}

		@Override
		String name() {
			return "db (MariaDB)";
		}

		@Override
		String describe() {
			return "mariadbd " + query("SELECT VERSION()").replaceAll("-.*", "") + " (InnoDB, buffer pool 16 MB, "
					+ (mariaDbThreadPool ? "statements on a pool of threads, thread_handling=pool-of-threads "
							+ "(--db-thread-pool)" : "a thread per connection (MariaDB's default)")
					+ ") on 127.0.0.1; each instance its own HikariCP pool (at most 2 connections, none idle) where an "
					+ "application would have its usual pool; JdbcLeaseWorkerIdAssigner at its defaults (lease "
					+ describeLease() + ", " + describeHeartbeat() + ", claim history 256)";
		}

		@Override
		String operationsCounted() {
			return "statements (Questions of SHOW GLOBAL STATUS)";
		}

		@Override
		String memoryMeasured() {
			return "the lease table and its claim history, data and indexes (information_schema)";
		}

		@Override
		Client client(String instanceId, String namespace) {
			HikariDataSource pool = pool(instanceId);
			String suffix = (namespace != null) ? "_" + namespace.toUpperCase(Locale.ROOT).replace('-', '_') : "";
			String table = JdbcLeaseWorkerIdAssigner.DEFAULT_TABLE + suffix;
			return new Client(
					JdbcLeaseWorkerIdAssigner.builder(pool)
						.leaseTable(table)
						.instanceId(instanceId)
						.leaseDuration(lease())
						.heartbeatInterval(heartbeat())
						.initializeSchema(true)
						.build(),
					pool::close);
		}

		@Override
		FloorClient floorClient(String instanceId) {
			createFloorTable();
			HikariDataSource pool = pool(instanceId);
			return new FloorClient() {

				private Connection connection;

				@Override
				public void connect() {
					try {
						this.connection = pool.getConnection();
						this.connection.setAutoCommit(true);
						try (ResultSet result = this.connection.createStatement().executeQuery("SELECT 1")) {
							result.next();
						}
					}
					catch (SQLException ex) {
						throw new IllegalStateException(ex);
					}
				}

				private boolean inserted;

				@Override
				public void write() {
					// One row of its own, committed on its own, as a claim commits its transaction; then updated by
					// its key, as a renewal is.
					String sql = this.inserted ? "UPDATE UID_FLEET_FLOOR SET written = NOW(3) WHERE instance_id = ?"
							: "REPLACE INTO UID_FLEET_FLOOR (instance_id, written) VALUES (?, NOW(3))";
					try (PreparedStatement statement = this.connection.prepareStatement(sql)) {
						statement.setString(1, instanceId);
						statement.executeUpdate();
						this.inserted = true;
					}
					catch (SQLException ex) {
						throw new IllegalStateException(ex);
					}
				}

				@Override
				public void close() {
					try {
						if (this.connection != null) {
							this.connection.close();
						}
					}
					catch (SQLException ex) {
						// Closing: nothing to keep.
					}
					pool.close();
				}

			};
		}

		private synchronized void createFloorTable() {
			if (!this.floorTable) {
				update("CREATE TABLE IF NOT EXISTS UID_FLEET_FLOOR (instance_id VARCHAR(255) NOT NULL, "
						+ "written DATETIME(3) NOT NULL, PRIMARY KEY (instance_id)) ENGINE = InnoDB");
				this.floorTable = true;
			}
		}

		/** The pool an instance's assigner gets: HikariCP, at most 2 connections, none kept idle. */
		private HikariDataSource pool(String instanceId) {
			HikariDataSource pool = new HikariDataSource();
			pool.setJdbcUrl(this.server.jdbcUrl());
			pool.setUsername("root");
			pool.setPassword("");
			pool.setMaximumPoolSize(2);
			pool.setMinimumIdle(0);
			pool.setInitializationFailTimeout(-1);
			pool.setPoolName("fleet-" + instanceId);
			return pool;
		}

		@Override
		Reading read() {
			long cpu = processCpuMillis(this.server.process().pid());
			long questions = Long.parseLong(query("SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS "
					+ "WHERE VARIABLE_NAME = 'QUESTIONS'"));
			String size = query("SELECT COALESCE(SUM(DATA_LENGTH + INDEX_LENGTH), 0) FROM information_schema.TABLES "
					+ "WHERE TABLE_SCHEMA = 'test' AND TABLE_NAME LIKE 'UID_WORKER_LEASE%'");
			return new Reading(cpu, questions, Long.parseLong(size));
		}

		private void update(String sql) {
			try (Connection connection = DriverManager.getConnection(this.server.jdbcUrl(), "root", "")) {
				connection.createStatement().executeUpdate(sql);
			}
			catch (SQLException ex) {
				throw new IllegalStateException(sql, ex);
			}
		}

		private String query(String sql) {
			try (Connection connection = DriverManager.getConnection(this.server.jdbcUrl(), "root", "");
					ResultSet result = connection.createStatement().executeQuery(sql)) {
				return result.next() ? result.getString(1) : "";
			}
			catch (SQLException ex) {
				throw new IllegalStateException(sql, ex);
			}
		}

		@Override
		void restart(Duration outage) {
			this.server.stop();
			sleep(outage);
			this.server.start();
		}

		@Override
		boolean restartEmpty(Duration outage) {
			// A database that comes back without its lease table is not detected (worker-ids.md, "Guarantees and their
			// limits": fence the table); measuring it would describe a case uid does not claim to handle.
			return false;
		}

		@Override
		public void close() {
			this.server.close();
		}

	}

	/**
	 * Sets the heartbeat of every assigner ({@code --heartbeat-seconds}), to measure another than their default: a
	 * sixth of the lease (5 s) for the db and ZooKeeper, 1.5 s for Redis.
	 * @param heartbeat the heartbeat, {@code null} for the default
	 */
	static void heartbeat(Duration heartbeat) {
		FleetStore.heartbeat = heartbeat;
	}

	static Duration heartbeat() {
		return heartbeat;
	}

	static String describeHeartbeat() {
		Duration heartbeat = heartbeat();
		return (heartbeat != null) ? "heartbeat " + heartbeat.toSeconds() + " s (--heartbeat-seconds)"
				: "heartbeat " + leaseOrDefault().dividedBy(6).toMillis() + " ms (a sixth of the lease; Redis 1.5 s)";
	}

	/**
	 * Sets the lease of every assigner ({@code --lease-seconds}), and ZooKeeper's session timeout with it, as an
	 * application that lengthens the one lengthens the other (a session that ends takes the lease znode with it).
	 * @param lease the lease, {@code null} for the assigners' default
	 */
	static void lease(Duration lease) {
		FleetStore.lease = lease;
	}

	static Duration lease() {
		return lease;
	}

	static Duration leaseOrDefault() {
		return (lease != null) ? lease : LeaseSettings.DEFAULT_LEASE_DURATION;
	}

	/**
	 * Sets the ZooKeeper server's accept queue ({@code --zookeeper-listen-backlog}, its
	 * {@code clientPortListenBacklog}): connections beyond it that arrive at once, as a fleet's do when the server
	 * comes back, wait for the kernel to send their handshake again, a second and more later.
	 * @param backlog the queue's length, 0 for ZooKeeper's default (the JDK's 50)
	 */
	static void zookeeperListenBacklog(int backlog) {
		FleetStore.zookeeperListenBacklog = backlog;
	}

	/**
	 * Sets whether MariaDB runs its connections' statements on a pool of threads ({@code --db-thread-pool}, its
	 * {@code thread_handling=pool-of-threads}) rather than on a thread of each connection's own, its default: with a
	 * thread per connection, the statements of 1,000 instances starting at once run all together on two cores.
	 * @param threadPool whether to
	 */
	static void mariaDbThreadPool(boolean threadPool) {
		FleetStore.mariaDbThreadPool = threadPool;
	}

	private static String describeListenBacklog() {
		return (zookeeperListenBacklog > 0) ? zookeeperListenBacklog + " (--zookeeper-listen-backlog)"
				: "50 (ZooKeeper's default, the JDK's)";
	}

	static String describeLease() {
		return leaseOrDefault().toSeconds() + " s" + ((lease != null) ? " (--lease-seconds)" : "");
	}

}
