package io.github.uidgen.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import com.zaxxer.hikari.HikariDataSource;

/**
 * A MariaDB server of a fault test's own: a fresh data directory ({@code mariadb-install-db}) and a
 * {@code mariadbd} on a spare loopback port, root with an empty password and a database {@code test}. It can be
 * stopped, killed, paused and started again on the same port, and cold-backed-up and restored, as a real fleet's
 * database would be. Never the shared server on 3306.
 */
public final class ThrowawayMariaDb implements AutoCloseable {

	private static final Duration STARTUP = Duration.ofSeconds(60);

	private final Path dir;

	private final Path dataDir;

	private final Path runDir;

	private final int port;

	/** More {@code mariadbd} options, given at every start. */
	private final List<String> extraArgs;

	private ServerProcess server;

	private ThrowawayMariaDb(Path dir, int port, List<String> extraArgs) throws IOException {
		this.dir = dir;
		this.extraArgs = extraArgs;
		this.dataDir = dir.resolve("data");
		// The socket path must stay under the 108 characters of a Unix socket address, whatever the test's dir.
		this.runDir = Files.createTempDirectory("uid-mdb-");
		this.port = port;
	}

	/**
	 * Creates a data directory and starts the server on it.
	 * @param dir a directory of the test's own (it must not hold a data directory yet)
	 * @param extraArgs more {@code mariadbd} options, for example {@code --max-connections=2000}
	 * @return the running server, with a database {@code test}
	 */
	public static ThrowawayMariaDb start(Path dir, String... extraArgs) {
		try {
			ThrowawayMariaDb db = new ThrowawayMariaDb(dir.toAbsolutePath(), ServerProcess.freePort(),
					List.of(extraArgs));
			db.install();
			db.launch();
			db.execute("mysql", "CREATE DATABASE IF NOT EXISTS test");
			return db;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private void install() throws IOException {
		Files.createDirectories(this.dir);
		Path log = this.dir.resolve("install.log");
		Process install = new ProcessBuilder("mariadb-install-db", "--no-defaults", "--datadir=" + this.dataDir,
				"--user=" + System.getProperty("user.name"), "--auth-root-authentication-method=normal",
				"--skip-test-db")
			.redirectErrorStream(true)
			.redirectOutput(log.toFile())
			.start();
		try {
			if (!install.waitFor(120, TimeUnit.SECONDS) || install.exitValue() != 0) {
				install.destroyForcibly();
				throw new IllegalStateException("mariadb-install-db failed; see " + log);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while creating a MariaDB data directory", ex);
		}
	}

	private void launch() {
		List<String> command = new ArrayList<>(List.of("mariadbd", "--no-defaults", "--datadir=" + this.dataDir,
				"--user=" + System.getProperty("user.name"), "--port=" + this.port, "--bind-address=127.0.0.1",
				"--socket=" + this.runDir.resolve("sock"), "--pid-file=" + this.runDir.resolve("pid"),
				"--skip-log-bin", "--innodb-buffer-pool-size=16M", "--performance-schema=OFF"));
		command.addAll(this.extraArgs);
		this.server = ServerProcess.launch("mariadbd:" + this.port, command, this.dir.resolve("mariadbd.log"),
				this.port, STARTUP);
		this.server.awaitTrue(STARTUP, this::answers, "answer a query");
	}

	/**
	 * Returns whether the server answers a query now, within seconds.
	 * @return whether it answers
	 */
	public boolean answers() {
		try (Connection connection = DriverManager.getConnection(url("mysql"), "root", "")) {
			return connection.isValid(2);
		}
		catch (SQLException ex) {
			return false;
		}
	}

	/**
	 * Returns the JDBC URL of the {@code test} database (MySQL driver, short connect timeout).
	 * @return the URL
	 */
	public String jdbcUrl() {
		return url("test");
	}

	private String url(String database) {
		return "jdbc:mysql://127.0.0.1:" + this.port + "/" + database + "?connectTimeout=3000&socketTimeout=10000";
	}

	/**
	 * Returns the port it listens on (the same across restarts).
	 * @return the port
	 */
	public int port() {
		return this.port;
	}

	/**
	 * Returns the running process, to pause or kill it.
	 * @return the process
	 */
	public ServerProcess process() {
		return this.server;
	}

	/**
	 * Opens a small pool on the {@code test} database that gives up on a dead server within seconds; close it when
	 * done.
	 * @return the pool
	 */
	public HikariDataSource dataSource() {
		HikariDataSource dataSource = new HikariDataSource();
		dataSource.setJdbcUrl(jdbcUrl());
		dataSource.setUsername("root");
		dataSource.setPassword("");
		dataSource.setMaximumPoolSize(8);
		dataSource.setMinimumIdle(0);
		dataSource.setConnectionTimeout(3_000);
		dataSource.setInitializationFailTimeout(-1);
		dataSource.setPoolName("uid-throwaway-mariadb-" + this.port);
		return dataSource;
	}

	/**
	 * Runs one statement on the {@code test} database over a fresh connection.
	 * @param sql the statement
	 */
	public void execute(String sql) {
		execute("test", sql);
	}

	private void execute(String database, String sql) {
		try (Connection connection = DriverManager.getConnection(url(database), "root", "")) {
			connection.createStatement().execute(sql);
		}
		catch (SQLException ex) {
			throw new IllegalStateException(sql, ex);
		}
	}

	/** Stops the server cleanly (SIGTERM) and waits for it to exit. */
	public void stop() {
		if (this.server != null) {
			this.server.stop(Duration.ofSeconds(30));
		}
	}

	/** Starts a stopped server again on the same port and data directory. */
	public void start() {
		if (this.server == null || !this.server.isAlive()) {
			launch();
		}
	}

	/**
	 * Takes a cold backup: stops the server, copies its data directory, starts it again.
	 * @param name a name for the copy
	 * @return the copy
	 */
	public Path coldBackup(String name) {
		stop();
		Path copy = this.dir.resolve("backup-" + name);
		copyTree(this.dataDir, copy);
		launch();
		return copy;
	}

	/**
	 * Restores a cold backup, as an operator restoring last night's backup would: stops the server, replaces its
	 * data directory with the copy, starts it again.
	 * @param backup a copy from {@link #coldBackup(String)}
	 */
	public void restore(Path backup) {
		stop();
		deleteTree(this.dataDir);
		copyTree(backup, this.dataDir);
		launch();
	}

	private static void copyTree(Path from, Path to) {
		try (Stream<Path> paths = Files.walk(from)) {
			for (Path path : (Iterable<Path>) paths::iterator) {
				Path target = to.resolve(from.relativize(path).toString());
				if (Files.isDirectory(path)) {
					Files.createDirectories(target);
				}
				else {
					Files.copy(path, target);
				}
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static void deleteTree(Path root) {
		if (!Files.exists(root)) {
			return;
		}
		try (Stream<Path> paths = Files.walk(root)) {
			for (Path path : (Iterable<Path>) paths.sorted(Comparator.reverseOrder())::iterator) {
				Files.delete(path);
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** Stops the server and deletes its data directory. */
	@Override
	public void close() {
		stop();
		deleteTree(this.dataDir);
		deleteTree(this.runDir);
	}

	@Override
	public String toString() {
		return "ThrowawayMariaDb[127.0.0.1:" + this.port + ", " + this.dir + "]";
	}

}
