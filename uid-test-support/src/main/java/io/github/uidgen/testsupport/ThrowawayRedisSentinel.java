package io.github.uidgen.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.springframework.data.redis.connection.RedisSentinelConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * A Redis master, its replica and a sentinel watching them, all of a test's own on spare loopback ports
 * ({@code redis-server}, {@code redis-server --replicaof}, {@code redis-server <conf> --sentinel}), each stopped by
 * its PID. It can fail the master over ({@code SENTINEL FAILOVER}) or kill it, and waits until the sentinel names
 * the new master and that server has taken the role.
 */
public final class ThrowawayRedisSentinel implements AutoCloseable {

	/** The name the sentinel monitors the master under. */
	public static final String MASTER_NAME = "uid-master";

	private static final Duration STARTUP = Duration.ofSeconds(30);

	private static final Duration FAILOVER = Duration.ofSeconds(30);

	private final Path dir;

	/** How long the sentinel waits before it finds a master that does not answer down. */
	private final Duration downAfter;

	/** Data servers by port: the master and the replica, whichever is which now. */
	private final Map<Integer, ServerProcess> servers = new LinkedHashMap<>();

	private int sentinelPort;

	private ServerProcess sentinel;

	/** Where the sentinel's configuration file lies, which it rewrites and fsyncs on every change of the set. */
	private Path configDir;

	private ThrowawayRedisSentinel(Path dir, Duration downAfter) {
		this.dir = dir.toAbsolutePath();
		this.downAfter = downAfter;
	}

	/**
	 * Starts a master, a replica of it and a sentinel, and waits until the replica is in sync and the sentinel knows
	 * both, so a failover can start at once.
	 * @param dir a directory of the test's own for data, configuration and logs
	 * @return the running set
	 */
	public static ThrowawayRedisSentinel start(Path dir) {
		return start(dir, new String[0]);
	}

	/**
	 * Starts a master with more {@code redis-server} arguments (for example {@code --min-replicas-to-write 1}, which
	 * makes it refuse writes once cut off from its replica), a plain replica of it and a sentinel, and waits as
	 * {@link #start(Path)} does.
	 * @param dir a directory of the test's own for data, configuration and logs
	 * @param masterArgs arguments for the first master only
	 * @return the running set
	 */
	public static ThrowawayRedisSentinel start(Path dir, String... masterArgs) {
		return start(dir, Duration.ofSeconds(1), masterArgs);
	}

	/**
	 * Starts a master, a replica and a sentinel as {@link #start(Path, String...)} does, the sentinel finding a
	 * master down only once it has not answered for the given time ({@code down-after-milliseconds}; Sentinel's own
	 * default is 30 s).
	 * @param dir a directory of the test's own for data, configuration and logs
	 * @param downAfter the sentinel's {@code down-after-milliseconds}
	 * @param masterArgs arguments for the first master only
	 * @return the running set
	 */
	public static ThrowawayRedisSentinel start(Path dir, Duration downAfter, String... masterArgs) {
		ThrowawayRedisSentinel set = new ThrowawayRedisSentinel(dir, downAfter);
		try {
			int masterPort = set.startServer(masterArgs);
			int replicaPort = set.startServer("--replicaof", "127.0.0.1", Integer.toString(masterPort));
			set.servers.get(replicaPort)
				.awaitTrue(STARTUP, () -> set.cli(replicaPort, "INFO", "replication").contains("master_link_status:up"),
						"sync with its master");
			set.startSentinel(masterPort);
			set.sentinel.awaitTrue(STARTUP, () -> set.knowsReplica(replicaPort), "discover the replica");
			return set;
		}
		catch (RuntimeException ex) {
			set.close();
			throw ex;
		}
	}

	private int startServer(String... extraArgs) {
		int port = ServerProcess.freePort();
		Path serverDir = this.dir.resolve("redis-" + port);
		createDirectories(serverDir);
		List<String> command = new ArrayList<>(List.of("redis-server", "--port", Integer.toString(port),
				"--bind", "127.0.0.1", "--dir", serverDir.toString(), "--save", "", "--appendonly", "no",
				"--daemonize", "no", "--protected-mode", "no"));
		command.addAll(List.of(extraArgs));
		this.servers.put(port, ServerProcess.launch("redis-server:" + port, command, serverDir.resolve("redis.log"),
				port, STARTUP));
		return port;
	}

	private void startSentinel(int masterPort) {
		this.sentinelPort = ServerProcess.freePort();
		Path sentinelDir = this.dir.resolve("sentinel-" + this.sentinelPort);
		createDirectories(sentinelDir);
		this.configDir = configDirectory(sentinelDir);
		Path config = this.configDir.resolve("sentinel.conf");
		// One sentinel, quorum 1: it decides alone. The sentinel rewrites this file as the set changes.
		String text = String.join("\n", "port " + this.sentinelPort, "bind 127.0.0.1", "protected-mode no",
				"daemonize no", "dir " + sentinelDir, "sentinel monitor " + MASTER_NAME + " 127.0.0.1 " + masterPort + " 1",
				"sentinel down-after-milliseconds " + MASTER_NAME + " " + this.downAfter.toMillis(),
				"sentinel failover-timeout " + MASTER_NAME + " 10000",
				"sentinel parallel-syncs " + MASTER_NAME + " 1", "");
		try {
			Files.writeString(config, text);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		this.sentinel = ServerProcess.launch("redis-sentinel:" + this.sentinelPort,
				List.of("redis-server", config.toString(), "--sentinel"), sentinelDir.resolve("sentinel.log"),
				this.sentinelPort, STARTUP);
		this.sentinel.awaitTrue(STARTUP, () -> masterPort() == masterPort, "monitor the master");
	}

	private boolean knowsReplica(int replicaPort) {
		String replicas = cli(this.sentinelPort, "SENTINEL", "REPLICAS", MASTER_NAME);
		// Flat reply: name, ip:port, ..., flags, slave, ...; a replica in trouble carries s_down or disconnected.
		return replicas.contains("127.0.0.1:" + replicaPort) && !replicas.contains("s_down")
				&& !replicas.contains("disconnected");
	}

	/**
	 * Returns the port of the master, as the sentinel names it now.
	 * @return the port, -1 when the sentinel names none
	 */
	public int masterPort() {
		String[] address = cli(this.sentinelPort, "SENTINEL", "GET-MASTER-ADDR-BY-NAME", MASTER_NAME).split("\n");
		if (address.length != 2) {
			return -1;
		}
		try {
			return Integer.parseInt(address[1].trim());
		}
		catch (NumberFormatException ex) {
			return -1;
		}
	}

	/**
	 * Returns the port of the sentinel.
	 * @return the port
	 */
	public int sentinelPort() {
		return this.sentinelPort;
	}

	/**
	 * Returns the ports of the data servers (master and replica, in the order they were started).
	 * @return the ports
	 */
	public List<Integer> serverPorts() {
		return List.copyOf(this.servers.keySet());
	}

	/**
	 * Returns the process of a data server, to pause, stop or kill it.
	 * @param port its port
	 * @return the process
	 */
	public ServerProcess server(int port) {
		return this.servers.get(port);
	}

	/**
	 * Opens a started connection factory through Spring Data Redis's sentinel configuration (Lettuce): it asks the
	 * sentinel for the master; call {@code destroy()} when done.
	 * @return the factory
	 */
	public LettuceConnectionFactory connectionFactory() {
		RedisSentinelConfiguration configuration = new RedisSentinelConfiguration().master(MASTER_NAME)
			.sentinel("127.0.0.1", this.sentinelPort);
		LettuceConnectionFactory factory = new LettuceConnectionFactory(configuration);
		factory.afterPropertiesSet();
		factory.start();
		return factory;
	}

	/**
	 * Runs one command on one of the servers (or the sentinel) through {@code redis-cli}.
	 * @param port the server's port
	 * @param args the command and its arguments
	 * @return what {@code redis-cli} printed
	 */
	public String cli(int port, String... args) {
		return RedisCli.run(port, Duration.ofSeconds(10), args);
	}

	/**
	 * Has the sentinel fail the master over to the replica ({@code SENTINEL FAILOVER}), as an operator would, and
	 * waits until the sentinel names the replica as master and it has taken the role (about a second). The old
	 * master follows the new one later (see {@link #awaitFollowing(int)}).
	 * @return the new master's port
	 */
	public int failover() {
		int oldMaster = masterPort();
		long deadline = System.nanoTime() + FAILOVER.toNanos();
		String reply = cli(this.sentinelPort, "SENTINEL", "FAILOVER", MASTER_NAME);
		// Right after a change the sentinel may not yet see a replica it can promote; ask again within the bound.
		while (!"OK".equals(reply) && System.nanoTime() < deadline) {
			sleep(Duration.ofMillis(200));
			reply = cli(this.sentinelPort, "SENTINEL", "FAILOVER", MASTER_NAME);
		}
		if (!"OK".equals(reply)) {
			throw new IllegalStateException("SENTINEL FAILOVER answered: " + reply);
		}
		return awaitNewMaster(oldMaster);
	}

	/**
	 * Fails the master over so that the replica has every write the master took, as {@code FAILOVER} and a Cluster
	 * manual failover see to by pausing writes until the replica has caught up, and {@code SENTINEL FAILOVER} alone
	 * does not (it promotes the replica at once; the old master keeps taking writes until the sentinel demotes it,
	 * and those are lost). Writes on the master are paused ({@code CLIENT PAUSE WRITE}), the sentinel fails over
	 * once the replica has the master's whole replication stream, and the old master's clients are disconnected
	 * before the pause is lifted, so that nothing held back runs there: they reconnect to the new master through the
	 * sentinel and send it again.
	 * @return the new master's port
	 */
	public int failoverWithEveryWrite() {
		int oldMaster = masterPort();
		int replica = this.servers.keySet().stream().filter((port) -> port != oldMaster).findFirst().orElseThrow();
		cli(oldMaster, "CLIENT", "PAUSE", Long.toString(FAILOVER.toMillis()), "WRITE");
		try {
			this.servers.get(replica).awaitTrue(FAILOVER, () -> {
				long sent = replicationOffset(oldMaster);
				return sent > 0 && sent == replicationOffset(replica);
			}, "take in the whole replication stream of 127.0.0.1:" + oldMaster);
			int newMaster = failover();
			cli(oldMaster, "CLIENT", "KILL", "TYPE", "normal");
			return newMaster;
		}
		finally {
			cli(oldMaster, "CLIENT", "UNPAUSE");
		}
	}

	private long replicationOffset(int port) {
		String replication = cli(port, "INFO", "replication");
		int at = replication.indexOf("master_repl_offset:");
		if (at < 0) {
			return -1;
		}
		String rest = replication.substring(at + "master_repl_offset:".length());
		return Long.parseLong(rest.lines().findFirst().orElse("-1").trim());
	}

	/**
	 * Waits until a former master follows the current one in sync; the sentinel reconfigures it at its next look
	 * at it, which may take some 15 s.
	 * @param formerMaster the former master's port
	 */
	public void awaitFollowing(int formerMaster) {
		this.servers.get(formerMaster).awaitTrue(FAILOVER, () -> {
			String replication = cli(formerMaster, "INFO", "replication");
			return replication.contains("role:slave") && replication.contains("master_port:" + masterPort())
					&& replication.contains("master_link_status:up");
		}, "follow the current master");
	}

	/**
	 * Kills the master with SIGKILL, as a crash would, and waits until the sentinel has found it down and promoted
	 * the replica (after its down-after time, 1 s unless started with another).
	 * @return the new master's port
	 */
	public int killMaster() {
		int oldMaster = masterPort();
		this.servers.get(oldMaster).kill();
		return awaitNewMaster(oldMaster);
	}

	private int awaitNewMaster(int oldMaster) {
		int[] promoted = { -1 };
		this.sentinel.awaitTrue(FAILOVER.plus(this.downAfter), () -> {
			int now = masterPort();
			if (now == oldMaster || now < 0 || !this.servers.containsKey(now)) {
				return false;
			}
			promoted[0] = now;
			return cli(now, "INFO", "replication").contains("role:master");
		}, "promote a new master in place of 127.0.0.1:" + oldMaster);
		return promoted[0];
	}

	@Override
	public void close() {
		if (this.sentinel != null) {
			this.sentinel.stop(Duration.ofSeconds(10));
		}
		this.servers.values().forEach((server) -> server.stop(Duration.ofSeconds(10)));
		deleteConfig();
	}

	/**
	 * Returns a directory in memory ({@code /dev/shm}) for the sentinel's configuration, or one beside the logs where
	 * there is none. The sentinel saves the file, with an fsync, on every step of a failover from its single event
	 * loop: on a disk busy with a parallel build one such save took 2.9 s, the sentinel took the stall for a clock
	 * jump, entered TILT mode and promoted nobody for 30 s.
	 */
	private Path configDirectory(Path onDisk) {
		Path memory = Path.of("/dev/shm");
		if (Files.isDirectory(memory) && Files.isWritable(memory)) {
			try {
				return Files.createTempDirectory(memory, "uid-sentinel-" + this.sentinelPort + "-");
			}
			catch (IOException ex) {
				// Fall back to the disk.
			}
		}
		return onDisk;
	}

	private void deleteConfig() {
		if (this.configDir == null || !this.configDir.startsWith("/dev/shm")) {
			return;
		}
		try (var files = Files.list(this.configDir)) {
			for (Path file : files.toList()) {
				Files.deleteIfExists(file);
			}
			Files.deleteIfExists(this.configDir);
		}
		catch (IOException ex) {
			// A few bytes left in memory until the machine restarts; nothing to fail a test for.
		}
	}

	@Override
	public String toString() {
		return "ThrowawayRedisSentinel[sentinel 127.0.0.1:" + this.sentinelPort + ", servers " + this.servers.keySet()
				+ "]";
	}

	private static void createDirectories(Path dir) {
		try {
			Files.createDirectories(dir);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static void sleep(Duration duration) {
		try {
			Thread.sleep(duration.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted", ex);
		}
	}

}
