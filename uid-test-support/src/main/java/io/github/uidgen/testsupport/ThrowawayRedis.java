package io.github.uidgen.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Stream;

import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * A {@code redis-server} of a fault test's own, on a spare loopback port with its data in a directory of the
 * test's: it can be flushed, snapshotted, stopped, paused, killed, and restarted empty or from an older snapshot on
 * the same port (so clients reconnect to it), as a real fleet's Redis would be. Never the shared server on 6379.
 */
public final class ThrowawayRedis implements AutoCloseable {

	private static final Duration STARTUP = Duration.ofSeconds(20);

	private static final String DUMP = "dump.rdb";

	/** Where Redis 7 keeps its append-only files, under {@code --dir}. */
	private static final String APPEND_ONLY_DIR = "appendonlydir";

	private final Path dir;

	private final int port;

	private final List<String> extraArgs;

	private ServerProcess server;

	private ThrowawayRedis(Path dir, int port, List<String> extraArgs) {
		this.dir = dir;
		this.port = port;
		this.extraArgs = extraArgs;
	}

	/**
	 * Starts an empty server that saves no snapshot by itself (see {@link #snapshot(String)}).
	 * @param dir a directory of the test's own for its data and log
	 * @param extraArgs more {@code redis-server} arguments, for example {@code --appendonly yes}
	 * @return the running server
	 */
	public static ThrowawayRedis start(Path dir, String... extraArgs) {
		ThrowawayRedis redis = new ThrowawayRedis(dir.toAbsolutePath(), ServerProcess.freePort(), List.of(extraArgs));
		redis.launch();
		return redis;
	}

	/**
	 * Starts a server that is still loading its data when this returns, and stays so for at least {@code keys} times
	 * {@code loadDelayPerKey} (Redis's {@code key-load-delay}, a setting for its own tests): every data command is
	 * answered {@code LOADING} meanwhile, as by a Redis that restarted with a large snapshot. The snapshot is written
	 * first, {@code keys} keys by {@code DEBUG POPULATE}.
	 * @param dir a directory of the test's own for its data and log
	 * @param keys how many keys the snapshot holds
	 * @param loadDelayPerKey how long loading takes per key, at least 1 µs
	 * @return the server, loading
	 */
	public static ThrowawayRedis startLoading(Path dir, int keys, Duration loadDelayPerKey) {
		ThrowawayRedis writer = start(dir, "--enable-debug-command", "local");
		try {
			requireOk(writer.cli("DEBUG", "POPULATE", Integer.toString(keys)), "DEBUG POPULATE");
			requireOk(writer.cli("SAVE"), "SAVE");
		}
		finally {
			writer.stop();
		}
		ThrowawayRedis loading = new ThrowawayRedis(writer.dir, writer.port, List.of("--key-load-delay",
				Long.toString(Math.max(1, loadDelayPerKey.toNanos() / 1_000)), "--loading-process-events-interval-bytes",
				"1024"));
		loading.launch((reply) -> reply.startsWith("LOADING"), "answer LOADING");
		return loading;
	}

	/**
	 * Tells whether the server is loading its data ({@code INFO persistence} says {@code loading:1}).
	 * @return whether it is loading
	 */
	public boolean isLoading() {
		return cli("INFO", "persistence").contains("loading:1");
	}

	private void launch() {
		launch("PONG"::equals, "answer PING");
	}

	private void launch(Predicate<String> ready, String readiness) {
		List<String> command = new ArrayList<>(List.of("redis-server", "--port", Integer.toString(this.port),
				"--bind", "127.0.0.1", "--dir", this.dir.toString(), "--dbfilename", DUMP, "--save", "",
				"--appendonly", "no", "--daemonize", "no", "--protected-mode", "no"));
		command.addAll(this.extraArgs);
		try {
			Files.createDirectories(this.dir);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		this.server = ServerProcess.launch("redis-server:" + this.port, command, this.dir.resolve("redis.log"),
				this.port, STARTUP);
		this.server.awaitTrue(STARTUP, () -> ready.test(cli("PING")), readiness);
	}

	/**
	 * Returns the port it listens on (the same across restarts).
	 * @return the port
	 */
	public int port() {
		return this.port;
	}

	/**
	 * Returns the running process.
	 * @return the process
	 */
	public ServerProcess process() {
		return this.server;
	}

	/**
	 * Opens a started connection factory on this server; call {@code destroy()} when done.
	 * @return the factory
	 */
	public LettuceConnectionFactory connectionFactory() {
		return TestRedis.connectionFactory(this.port);
	}

	/**
	 * Runs one command through {@code redis-cli} and returns its raw output, trimmed.
	 * @param args the command and its arguments
	 * @return what {@code redis-cli} printed, empty when it could not connect
	 */
	public String cli(String... args) {
		List<String> command = new ArrayList<>(List.of("redis-cli", "-h", "127.0.0.1", "-p",
				Integer.toString(this.port)));
		command.addAll(List.of(args));
		try {
			Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
			if (!process.waitFor(10, TimeUnit.SECONDS)) {
				process.destroyForcibly();
				return "";
			}
			return new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while running redis-cli", ex);
		}
	}

	/** Deletes every key, as {@code FLUSHALL} by an operator would. */
	public void flushAll() {
		requireOk(cli("FLUSHALL"), "FLUSHALL");
	}

	/**
	 * Writes a snapshot of the data as it is now ({@code SAVE}) and keeps a copy under a name, for
	 * {@link #restartFrom(Path)} later.
	 * @param name a name for the copy
	 * @return the copy
	 */
	public Path snapshot(String name) {
		requireOk(cli("SAVE"), "SAVE");
		Path copy = this.dir.resolve("snapshot-" + name + ".rdb");
		try {
			return Files.copy(this.dir.resolve(DUMP), copy, StandardCopyOption.REPLACE_EXISTING);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * Dumps keys ({@code DUMP}) as a backup tool or a key-copying migration would, for
	 * {@link #restoreInPlace(List, Map)} later.
	 * @param keys the keys
	 * @return each key that exists, with its serialized value
	 */
	public Map<String, byte[]> dump(List<String> keys) {
		LettuceConnectionFactory factory = connectionFactory();
		try (RedisConnection connection = factory.getConnection()) {
			Map<String, byte[]> dumped = new LinkedHashMap<>();
			for (String key : keys) {
				byte[] value = connection.keyCommands().dump(key.getBytes(StandardCharsets.UTF_8));
				if (value != null) {
					dumped.put(key, value);
				}
			}
			return dumped;
		}
		finally {
			factory.destroy();
		}
	}

	/**
	 * Writes dumped keys back into the running server ({@code RESTORE … REPLACE}), as a restore or migration tool
	 * replaying an older dump does: the same process, the same {@code run_id}. Keys of the set that did not exist when
	 * it was dumped are deleted, so the keys are exactly as they were; all in one transaction.
	 * @param keys the keys that were dumped
	 * @param dumped keys and values from {@link #dump(List)}
	 */
	public void restoreInPlace(List<String> keys, Map<String, byte[]> dumped) {
		LettuceConnectionFactory factory = connectionFactory();
		try (RedisConnection connection = factory.getConnection()) {
			// All at once, so that no renewal lands between two keys and leaves a registry no restore would.
			connection.multi();
			for (String key : keys) {
				byte[] name = key.getBytes(StandardCharsets.UTF_8);
				byte[] value = dumped.get(key);
				if (value != null) {
					connection.keyCommands().restore(name, 0, value, true);
				}
				else {
					connection.keyCommands().del(name);
				}
			}
			connection.exec();
		}
		finally {
			factory.destroy();
		}
	}

	/**
	 * Returns the {@code run_id} of the running process: it changes with every restart.
	 * @return the run ID
	 */
	public String runId() {
		for (String line : cli("INFO", "server").split("\r?\n")) {
			if (line.startsWith("run_id:")) {
				return line.substring("run_id:".length()).trim();
			}
		}
		throw new IllegalStateException("INFO server of " + this + " has no run_id");
	}

	/** Stops the server without saving and starts it again empty, on the same port. */
	public void restartEmpty() {
		stop();
		deleteDump();
		launch();
	}

	/**
	 * Stops the server without saving and starts it again from an older snapshot, as a restore from backup or a
	 * failover to a lagging replica would.
	 * @param snapshot a copy from {@link #snapshot(String)}
	 */
	public void restartFrom(Path snapshot) {
		stop();
		try {
			Files.copy(snapshot, this.dir.resolve(DUMP), StandardCopyOption.REPLACE_EXISTING);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		launch();
	}

	/** Stops the server (SIGTERM; it saves nothing, as no save points are set). */
	public void stop() {
		if (this.server != null) {
			this.server.stop(Duration.ofSeconds(10));
		}
	}

	/** Starts a stopped server again with whatever data its directory holds. */
	public void start() {
		if (this.server == null || !this.server.isAlive()) {
			launch();
		}
	}

	/** Deletes the snapshot and, for a server started with {@code --appendonly yes}, its append-only files. */
	private void deleteDump() {
		try {
			Files.deleteIfExists(this.dir.resolve(DUMP));
			Path appendOnly = this.dir.resolve(APPEND_ONLY_DIR);
			if (Files.isDirectory(appendOnly)) {
				try (Stream<Path> files = Files.list(appendOnly)) {
					for (Path file : files.toList()) {
						Files.delete(file);
					}
				}
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static void requireOk(String reply, String command) {
		if (!"OK".equals(reply)) {
			throw new IllegalStateException(command + " answered: " + reply);
		}
	}

	@Override
	public void close() {
		stop();
	}

	@Override
	public String toString() {
		return "ThrowawayRedis[127.0.0.1:" + this.port + ", " + this.dir + "]";
	}

}
