package io.github.uidgen.samples.e2e;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.uidgen.testsupport.BootPorts;

/**
 * One running instance of the sample: the {@code java -jar} process itself (no shell in between, so a kill
 * reaches the JVM), its port, its log file and the client that talks to it.
 *
 * <p>The instance binds ports the operating system picks, for its service and its actuator alike
 * ({@code --server.port=0}, {@code --management.server.port=0}), and the test reads them from the instance's log
 * once its web servers have started ({@link BootPorts}): a port the test picked and passed on could be taken by any
 * other process (a store, another test JVM) in the seconds before the instance bound it.
 */
final class SampleProcess implements AutoCloseable {

	/** Every process still running, killed when the test JVM exits however it exits, so none outlives a run. */
	private static final Set<Process> running = ConcurrentHashMap.newKeySet();

	/** Numbers the log files, so that an instance launched again under its name gets a log of its own. */
	private static final AtomicInteger launches = new AtomicInteger();

	static {
		Runtime.getRuntime().addShutdownHook(new Thread(() -> running.forEach(Process::destroyForcibly),
				"sample-process-reaper"));
	}

	private final String name;

	private final Path workDir;

	private final List<String> jvmOptions;

	private final List<String> args;

	private final Path log;

	private final Process process;

	private final Instant launchedAt;

	/** The client on the instance's ports, {@code null} until the log names both. */
	private volatile SampleClient client;

	private SampleProcess(String name, Path workDir, List<String> jvmOptions, List<String> args, Path log,
			Process process, Instant launchedAt) {
		this.name = name;
		this.workDir = workDir;
		this.jvmOptions = jvmOptions;
		this.args = args;
		this.log = log;
		this.process = process;
		this.launchedAt = launchedAt;
	}

	/**
	 * Launches the sample jar on a port the operating system picks; returns at once, see {@link #awaitReady(Duration)}.
	 * @param name a short name for logs and messages
	 * @param workDir the working directory (the static assigner keeps its state file under it)
	 * @param args application arguments such as {@code --spring.profiles.active=redis}
	 * @return the launched process
	 */
	static SampleProcess launch(String name, Path workDir, List<String> args) {
		return launch(name, workDir, List.of(), args);
	}

	/**
	 * Launches the sample jar on a port the operating system picks, with extra JVM options; returns at once.
	 * @param name a short name for logs and messages
	 * @param workDir the working directory
	 * @param jvmOptions options before {@code -jar}, such as {@code -Dspring.aot.enabled=true}
	 * @param args application arguments
	 * @return the launched process
	 */
	static SampleProcess launch(String name, Path workDir, List<String> jvmOptions, List<String> args) {
		try {
			Files.createDirectories(workDir.resolve("logs"));
			Path log = workDir.resolve("logs").resolve(name + "-" + launches.incrementAndGet() + ".log");
			List<String> command = new ArrayList<>(SampleJvm.command(jvmOptions));
			command.add("--server.port=0");
			// The sample's actuator listens on a port of its own (8081 on the loopback address); here on another
			// one the OS picks. It stays a port of its own, as the sample is built with it: the ahead-of-time
			// processed jar fixed the actuator's own web server at build time.
			command.add("--management.server.port=0");
			command.addAll(args);
			Instant launchedAt = Instant.now();
			Process process = new ProcessBuilder(command).directory(workDir.toFile())
				.redirectErrorStream(true)
				.redirectOutput(log.toFile())
				.start();
			running.add(process);
			process.onExit().thenRun(() -> running.remove(process));
			return new SampleProcess(name, workDir, List.copyOf(jvmOptions), List.copyOf(args), log, process,
					launchedAt);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not launch " + name, ex);
		}
	}

	/**
	 * Launches the same application again (same working directory, JVM options and arguments), as an operator
	 * would after a crash.
	 * @return the new process
	 */
	SampleProcess relaunch() {
		return launch(this.name, this.workDir, this.jvmOptions, this.args);
	}

	/**
	 * Waits until the actuator health endpoint answers 200.
	 * @param timeout how long to wait
	 * @return this process
	 */
	SampleProcess awaitReady(Duration timeout) {
		long deadline = System.nanoTime() + timeout.toNanos();
		while (System.nanoTime() < deadline) {
			if (!this.process.isAlive()) {
				throw new AssertionError(this.name + " exited with " + this.process.exitValue() + " before it was ready:\n"
						+ logTail());
			}
			try {
				if (isHealthy()) {
					return this;
				}
			}
			catch (IOException ex) {
				// not listening yet
			}
			sleep(Duration.ofMillis(200));
		}
		throw new AssertionError(this.name + " was not ready within " + timeout + ":\n" + logTail());
	}

	/**
	 * Waits until the actuator health endpoint answers 200, or the process exits, as one of several instances
	 * started at once may (for example when no worker ID is left for it).
	 * @param timeout how long to wait
	 * @return {@code true} when it is ready, {@code false} when it exited
	 */
	boolean awaitReadyOrExit(Duration timeout) {
		long deadline = System.nanoTime() + timeout.toNanos();
		while (System.nanoTime() < deadline) {
			if (!this.process.isAlive()) {
				return false;
			}
			try {
				if (isHealthy()) {
					return true;
				}
			}
			catch (IOException ex) {
				// not listening yet
			}
			sleep(Duration.ofMillis(200));
		}
		throw new AssertionError(this.name + " neither became ready nor exited within " + timeout + ":\n"
				+ logTail());
	}

	/** Whether the instance listens on both ports, as its log says, and its health endpoint answers 200. */
	private boolean isHealthy() throws IOException {
		SampleClient listening = listeningClient();
		return listening != null && listening.get("/actuator/health", Duration.ofSeconds(2)).statusCode() == 200;
	}

	/** The client on the ports the log names, or {@code null} while either web server has not started. */
	private SampleClient listeningClient() {
		SampleClient known = this.client;
		if (known == null) {
			String log = logIfAny();
			OptionalInt port = BootPorts.server(log);
			OptionalInt managementPort = BootPorts.management(log);
			if (port.isPresent() && managementPort.isPresent()) {
				known = new SampleClient(port.getAsInt(), managementPort.getAsInt());
				this.client = known;
			}
		}
		return known;
	}

	private String logIfAny() {
		try {
			return Files.readString(this.log);
		}
		catch (IOException | UncheckedIOException ex) {
			return "";
		}
	}

	/**
	 * Freezes the JVM with SIGSTOP, as a long GC pause, a stopped container or a suspended VM would: every thread
	 * stops, sockets stay open, nothing answers.
	 */
	void pause() {
		signal("STOP");
	}

	/** Lets a paused JVM carry on (SIGCONT). */
	void resume() {
		signal("CONT");
	}

	private void signal(String signal) {
		try {
			Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid())).start();
			if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
				throw new AssertionError("kill -" + signal + " " + pid() + " failed for " + this.name);
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new AssertionError("Interrupted while signalling " + this.name, ex);
		}
	}

	/**
	 * Kills the JVM with SIGKILL, as a crash or {@code kill -9} would: no shutdown hook, no lease release.
	 * @return the exit code
	 */
	int kill() {
		this.process.destroyForcibly();
		return awaitExit();
	}

	/**
	 * Asks the JVM to stop with SIGTERM, which runs Spring's graceful shutdown.
	 * @return the exit code
	 */
	int stop() {
		this.process.destroy();
		return awaitExit();
	}

	private int awaitExit() {
		return awaitExit(Duration.ofSeconds(60));
	}

	/**
	 * Waits for the process to exit by itself.
	 * @param timeout how long to wait
	 * @return the exit code
	 */
	int awaitExit(Duration timeout) {
		try {
			if (!this.process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
				throw new AssertionError(this.name + " did not exit within " + timeout + ":\n" + logTail());
			}
			return this.process.exitValue();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new AssertionError("Interrupted while waiting for " + this.name + " to exit", ex);
		}
	}

	/**
	 * Returns the port of the instance's actuator, as its log names it.
	 * @return the port
	 * @throws IllegalStateException while the instance's web servers have not started
	 */
	int managementPort() {
		return client().managementPort();
	}

	String name() {
		return this.name;
	}

	long pid() {
		return this.process.pid();
	}

	/** The command line of the OS process as the OS reports it. */
	String osCommand() {
		return this.process.info().command().orElse("");
	}

	Instant launchedAt() {
		return this.launchedAt;
	}

	boolean isAlive() {
		return this.process.isAlive();
	}

	/**
	 * Returns the client on the instance's port.
	 * @return the client
	 * @throws IllegalStateException while the instance's web server has not started
	 */
	SampleClient client() {
		SampleClient listening = listeningClient();
		if (listening == null) {
			throw new IllegalStateException(this.name + " does not listen yet: await it ready first");
		}
		return listening;
	}

	/** The last lines of the log, for failure messages. */
	String logTail() {
		try {
			List<String> lines = Files.readAllLines(this.log);
			return String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size()));
		}
		catch (IOException | UncheckedIOException ex) {
			return "(no log at " + this.log + ": " + ex + ")";
		}
	}

	/**
	 * Returns Spring Boot's report of a failed start ("APPLICATION FAILED TO START", its description and action),
	 * or the log's last lines when there is none.
	 * @return the report
	 */
	String startupFailure() {
		String log = log();
		int report = log.indexOf("APPLICATION FAILED TO START");
		if (report < 0) {
			return logTail();
		}
		int end = log.indexOf("\n\n", log.indexOf("Action:", report) + "Action:\n\n".length());
		return log.substring(report, (end > 0) ? end : log.length()).strip();
	}

	String log() {
		try {
			return Files.readString(this.log);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	@Override
	public void close() {
		if (this.process.isAlive()) {
			this.process.destroyForcibly();
			try {
				this.process.waitFor(30, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
	}

	@Override
	public String toString() {
		SampleClient listening = this.client;
		return this.name + " (pid " + this.process.pid() + ", port "
				+ ((listening != null) ? listening.port() : "not known yet") + ")";
	}

	private static void sleep(Duration duration) {
		try {
			Thread.sleep(duration.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new AssertionError("Interrupted", ex);
		}
	}

}
