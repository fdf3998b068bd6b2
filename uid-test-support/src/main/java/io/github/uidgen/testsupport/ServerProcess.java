package io.github.uidgen.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * One server process a fault test starts for itself on a spare loopback port: launched without a shell (so a
 * signal reaches the server itself), logged to a file, signalled and stopped by its PID, and killed when the test
 * JVM exits however it exits. Fault tests stop, pause and restart these, never the shared servers.
 */
public final class ServerProcess {

	/** Every server still running, killed when the test JVM exits so none outlives a run. */
	private static final Set<Process> running = ConcurrentHashMap.newKeySet();

	static {
		Runtime.getRuntime().addShutdownHook(new Thread(() -> running.forEach(Process::destroyForcibly),
				"throwaway-server-reaper"));
	}

	private final String name;

	private final Process process;

	private final Path log;

	private ServerProcess(String name, Process process, Path log) {
		this.name = name;
		this.process = process;
		this.log = log;
	}

	/**
	 * Launches a server and waits, within a bound, until it accepts connections on its port.
	 * @param name a short name for messages
	 * @param command the command line
	 * @param log the file its output goes to (appended)
	 * @param port the loopback port it listens on
	 * @param startup how long it may take to start
	 * @return the running server
	 */
	static ServerProcess launch(String name, List<String> command, Path log, int port, Duration startup) {
		Process process;
		try {
			Files.createDirectories(log.getParent());
			process = new ProcessBuilder(command).redirectErrorStream(true)
				.redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
				.start();
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot start " + name + ": " + command, ex);
		}
		running.add(process);
		ServerProcess server = new ServerProcess(name, process, log);
		server.awaitTrue(startup, () -> !process.isAlive() || accepts(port), "accept connections on port " + port);
		if (!process.isAlive()) {
			running.remove(process);
			throw new IllegalStateException(name + " exited with " + process.exitValue() + " at start; see " + log
					+ ":\n" + server.logTail());
		}
		return server;
	}

	/**
	 * Returns a loopback port nobody listens on at the moment and that no test JVM on this machine has handed out
	 * before: the operating system may offer a port again before the server it went to has bound it, and test JVMs
	 * run side by side (Surefire forks, Maven modules built in parallel). A port is taken by holding a lock on a file
	 * named for it in {@code uid-test-ports} under the temporary directory until this JVM exits.
	 * @return the port
	 */
	public static int freePort() {
		for (int attempt = 0; attempt < 100; attempt++) {
			int port;
			try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
				port = socket.getLocalPort();
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
			if (PortClaims.claim(port)) {
				return port;
			}
		}
		throw new IllegalStateException("No free port that no test JVM had handed out already in 100 attempts");
	}

	static boolean accepts(int port) {
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
			return true;
		}
		catch (IOException ex) {
			return false;
		}
	}

	/**
	 * Returns the server's process ID.
	 * @return the PID
	 */
	public long pid() {
		return this.process.pid();
	}

	/**
	 * Returns whether the process still runs.
	 * @return whether it is alive
	 */
	public boolean isAlive() {
		return this.process.isAlive();
	}

	/** Freezes the server (SIGSTOP): connections stay open, nothing answers. */
	public void pause() {
		signal("STOP");
	}

	/** Lets a paused server carry on (SIGCONT). */
	public void resume() {
		signal("CONT");
	}

	/**
	 * Stops the server with SIGTERM (a clean shutdown) and waits for it to exit; SIGKILL after the bound.
	 * @param bound how long a clean shutdown may take
	 */
	public void stop(Duration bound) {
		if (this.process.isAlive()) {
			signal("CONT");
			this.process.destroy();
			awaitExit(bound);
		}
		running.remove(this.process);
	}

	/** Kills the server with SIGKILL, as a crash would, and waits for it to exit. */
	public void kill() {
		this.process.destroyForcibly();
		awaitExit(Duration.ofSeconds(10));
		running.remove(this.process);
	}

	private void awaitExit(Duration bound) {
		try {
			if (!this.process.waitFor(bound.toMillis(), TimeUnit.MILLISECONDS)) {
				this.process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			this.process.destroyForcibly();
		}
	}

	private void signal(String signal) {
		if (!this.process.isAlive()) {
			return;
		}
		try {
			Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid())).start();
			if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
				throw new IllegalStateException("kill -" + signal + " " + pid() + " failed for " + this.name);
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while signalling " + this.name, ex);
		}
	}

	/**
	 * Waits, within a bound, for a condition; fails with the server's log tail when it does not come true.
	 * @param bound the longest wait
	 * @param condition what to wait for
	 * @param what what is awaited, for the message
	 */
	void awaitTrue(Duration bound, BooleanSupplier condition, String what) {
		long deadline = System.nanoTime() + bound.toNanos();
		while (!condition.getAsBoolean()) {
			if (System.nanoTime() - deadline > 0) {
				throw new IllegalStateException(this.name + " did not " + what + " within " + bound + "; see "
						+ this.log + ":\n" + logTail());
			}
			try {
				Thread.sleep(50);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException("Interrupted while waiting for " + this.name, ex);
			}
		}
	}

	/**
	 * Returns the last lines of the server's log, for failure messages.
	 * @return up to 20 lines
	 */
	public String logTail() {
		try {
			List<String> lines = Files.readAllLines(this.log);
			return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
		}
		catch (IOException | UncheckedIOException ex) {
			return "(no log: " + ex + ")";
		}
	}

	@Override
	public String toString() {
		return this.name + " (pid " + pid() + ")";
	}

}
