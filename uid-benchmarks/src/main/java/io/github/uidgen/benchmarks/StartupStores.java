package io.github.uidgen.benchmarks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.apache.curator.test.TestingServer;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.Cursor;
import org.springframework.data.redis.core.ScanOptions;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * The stores the start-up benchmark's instances use, under names of this run's own: MariaDB tables and Redis keys
 * that begin with {@code uid_startup_<run>} / {@code uid-startup-<run>}, removed when the run ends, and a ZooKeeper
 * server in this JVM (Curator's {@code TestingServer}, as the claims part uses) whose data goes with it.
 */
final class StartupStores implements AutoCloseable {

	private final String run;

	private final String mariadbUrl;

	private final String redisHost;

	private final int redisPort;

	private TestingServer zookeeper;

	StartupStores(String mariadbUrl, String redis) {
		this.run = Long.toString(System.currentTimeMillis() % 100_000_000L, 36);
		this.mariadbUrl = mariadbUrl;
		this.redisHost = redis.substring(0, redis.lastIndexOf(':'));
		this.redisPort = Integer.parseInt(redis.substring(redis.lastIndexOf(':') + 1));
	}

	/** Starts the ZooKeeper server, when a setup needs it. */
	void startZookeeper() {
		if (this.zookeeper == null) {
			this.zookeeper = ClaimStore.startZooKeeper();
		}
	}

	String zookeeperConnectString() {
		if (this.zookeeper == null) {
			throw new IllegalStateException("No ZooKeeper server was started");
		}
		return this.zookeeper.getConnectString();
	}

	/** The database URL the instances use, without the user, which the sample's mysql profile sets. */
	String mariadbUrl() {
		return this.mariadbUrl;
	}

	/**
	 * A name of this run's own, as a table name or key prefix.
	 * @param what what it names
	 * @return for example {@code uid_startup_k3x9_lease}
	 */
	String name(String what) {
		return ("uid_startup_" + this.run + "_" + what).toLowerCase(Locale.ROOT);
	}

	/**
	 * The redis profile on this run's Redis, and for the sample its key prefix and a namespace.
	 * @param namespace the worker registry's namespace; {@code null} for the application without uid
	 * @param instanceIdArgument the instance ID argument; {@code null} for the application without uid
	 * @return the arguments
	 */
	List<String> redisArguments(String namespace, String instanceIdArgument) {
		List<String> arguments = new ArrayList<>(List.of("--spring.profiles.active=redis",
				"--spring.data.redis.host=" + this.redisHost, "--spring.data.redis.port=" + this.redisPort));
		if (namespace != null) {
			arguments.addAll(List.of("--uid.worker.redis.key-prefix=" + redisPrefix(),
					"--uid.worker.redis.namespace=" + namespace, instanceIdArgument));
		}
		return arguments;
	}

	private String redisPrefix() {
		return "uid-startup-" + this.run;
	}

	/** Removes the run's tables and keys and stops the ZooKeeper server; reports what it could not remove. */
	@Override
	public void close() {
		dropTables();
		deleteRedisKeys();
		if (this.zookeeper != null) {
			try {
				this.zookeeper.close();
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}
	}

	private void dropTables() {
		try (Connection connection = DriverManager.getConnection(this.mariadbUrl, "root", "");
				Statement statement = connection.createStatement()) {
			for (String table : List.of(name("lease"), name("segment"))) {
				statement.execute("DROP TABLE IF EXISTS " + table);
			}
		}
		catch (SQLException ex) {
			System.err.println("Could not drop the start-up benchmark's tables: " + ex.getMessage());
		}
	}

	private void deleteRedisKeys() {
		LettuceConnectionFactory factory = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration(this.redisHost, this.redisPort));
		factory.afterPropertiesSet();
		factory.start();
		try {
			StringRedisTemplate redis = new StringRedisTemplate(factory);
			List<String> keys = new ArrayList<>();
			// The worker registry's keys are {<prefix>:<namespace>}:<key>; the segment keys <prefix>:<key>.
			for (String pattern : List.of("{" + redisPrefix() + ":*", name("segment") + ":*")) {
				try (Cursor<String> cursor = redis.scan(ScanOptions.scanOptions().match(pattern).count(1000).build())) {
					cursor.forEachRemaining(keys::add);
				}
			}
			if (!keys.isEmpty()) {
				redis.delete(keys);
			}
		}
		catch (RuntimeException ex) {
			System.err.println("Could not delete the start-up benchmark's Redis keys: " + ex.getMessage());
		}
		finally {
			factory.destroy();
		}
	}

}
