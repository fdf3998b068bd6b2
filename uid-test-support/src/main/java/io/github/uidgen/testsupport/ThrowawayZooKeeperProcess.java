package io.github.uidgen.testsupport;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A ZooKeeper server in a JVM of its own ({@code ZooKeeperServerMain} from this JVM's class path, with the 1,000 MB
 * heap {@code zkServer.sh} gives it), on a spare loopback port, its data in a directory of the caller's. Unlike
 * {@link ThrowawayZooKeeper}, its CPU is a process's of its own, and it is stopped by its PID and started again on
 * its data as an operator restarts a server: what a fleet measures against it is the server's, not the JVM it would
 * share with the clients.
 */
public final class ThrowawayZooKeeperProcess implements AutoCloseable {

	private static final Duration STARTUP = Duration.ofMinutes(3);

	private final Path dir;

	private final Path config;

	private final int port;

	private ServerProcess server;

	private ThrowawayZooKeeperProcess(Path dir, int port) {
		this.dir = dir;
		this.config = dir.resolve("zoo.cfg");
		this.port = port;
	}

	/**
	 * Writes a configuration and starts the server on it: tick 2 s (ZooKeeper's default), sessions up to 60 s, no
	 * limit of connections per address, {@code mntr} and {@code srvr} allowed, no admin server.
	 * @param dir a directory of the caller's for the configuration, the data and the log
	 * @return the running server, answering requests
	 */
	public static ThrowawayZooKeeperProcess start(Path dir) {
		return start(dir, List.of());
	}

	/**
	 * Starts the server as {@link #start(Path)} does, with more lines of {@code zoo.cfg}.
	 * @param dir a directory of the caller's for the configuration, the data and the log
	 * @param settings lines such as {@code clientPortListenBacklog=1024}, after the others
	 * @return the running server, answering requests
	 */
	public static ThrowawayZooKeeperProcess start(Path dir, List<String> settings) {
		try {
			Path absolute = dir.toAbsolutePath();
			ThrowawayZooKeeperProcess zooKeeper = new ThrowawayZooKeeperProcess(absolute, ServerProcess.freePort());
			Files.createDirectories(absolute.resolve("data"));
			List<String> lines = new ArrayList<>(List.of("tickTime=2000", "dataDir=" + absolute.resolve("data"),
					"clientPort=" + zooKeeper.port, "clientPortAddress=127.0.0.1", "maxClientCnxns=0",
					"maxSessionTimeout=60000", "admin.enableServer=false", "4lw.commands.whitelist=mntr,srvr"));
			lines.addAll(settings);
			lines.add("");
			Files.writeString(zooKeeper.config, String.join("\n", lines));
			zooKeeper.launch();
			return zooKeeper;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private void launch() {
		String java = ProcessHandle.current().info().command().orElse("java");
		this.server = ServerProcess.launch("zookeeper:" + this.port,
				List.of(java, "-Xmx1000m", "-Dzookeeper.admin.enableServer=false",
						"-Dzookeeper.4lw.commands.whitelist=mntr,srvr", "-cp", System.getProperty("java.class.path"),
						"org.apache.zookeeper.server.ZooKeeperServerMain", this.config.toString()),
				this.dir.resolve("zookeeper.log"), this.port, STARTUP);
		// It accepts connections before it has loaded its data; it serves once it answers mntr.
		this.server.awaitTrue(STARTUP, this::serves, "serve requests");
	}

	/**
	 * Returns whether the server serves requests now (it answers {@code mntr}).
	 * @return whether it serves
	 */
	public boolean serves() {
		return fourLetterWord(this.port, "mntr").stream().anyMatch((line) -> line.startsWith("zk_server_state"));
	}

	/**
	 * Sends a four-letter command ({@code mntr} or {@code srvr}) to a ZooKeeper server of this machine and returns
	 * the lines of the answer.
	 * @param port the server's client port
	 * @param word the command
	 * @return its lines, none while the server is down
	 */
	public static List<String> fourLetterWord(int port, String word) {
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
			socket.setSoTimeout(5_000);
			OutputStream out = socket.getOutputStream();
			out.write(word.getBytes(StandardCharsets.US_ASCII));
			out.flush();
			BufferedReader in = new BufferedReader(
					new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII));
			return in.lines().toList();
		}
		catch (IOException | UncheckedIOException ex) {
			return List.of();
		}
	}

	/**
	 * Returns the connect string, {@code 127.0.0.1:<port>}.
	 * @return the connect string
	 */
	public String connectString() {
		return "127.0.0.1:" + this.port;
	}

	/**
	 * Returns the port it listens on (the same across restarts).
	 * @return the port
	 */
	public int port() {
		return this.port;
	}

	/**
	 * Returns the running process, for its PID and CPU time.
	 * @return the process
	 */
	public ServerProcess process() {
		return this.server;
	}

	/** Stops the server with SIGTERM and waits for it to exit; its data stays for {@link #start()}. */
	public void stop() {
		if (this.server != null) {
			this.server.stop(Duration.ofSeconds(30));
		}
	}

	/** Starts a stopped server again on the same port and data, and waits until it serves. */
	public void start() {
		if (this.server == null || !this.server.isAlive()) {
			launch();
		}
	}

	@Override
	public void close() {
		stop();
	}

	@Override
	public String toString() {
		return "ThrowawayZooKeeperProcess[" + connectString() + ", " + this.dir + "]";
	}

}
