package io.github.uidgen.benchmarks;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.github.uidgen.testsupport.BootPorts;

/**
 * One start of an application as its own OS process, timed from launch to the first {@code 200} of {@code GET /uid},
 * then stopped the way a platform stops it (SIGTERM, a graceful shutdown) and waited for. What happened in between is
 * read back from its log: when each milestone line was written, by the log's own timestamps.
 *
 * <p>The application binds ports the operating system picks ({@code --server.port=0},
 * {@code --management.server.port=0}) and its port is read from its log ({@link BootPorts}): a port picked here and
 * passed on could be taken by another process in the seconds before the application bound it.
 */
final class AppLaunch {

	/** How often the launcher asks for {@code /uid}: a refused connection costs microseconds, so this is the resolution. */
	private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(5);

	private static final Pattern TIMESTAMP = Pattern
		.compile("^(\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d+(?:Z|[+-]\\d\\d:\\d\\d))\\s");

	/**
	 * The milestones read from the log, in order: each the first line that matches. The claim is the line of any
	 * assigner that says it has a worker ID; the segment generator has none.
	 */
	static final Map<String, Pattern> MILESTONES = milestones();

	private static Map<String, Pattern> milestones() {
		Map<String, Pattern> milestones = new LinkedHashMap<>();
		milestones.put("Spring's \"Starting\"", Pattern.compile(" : Starting .* using Java "));
		milestones.put("web context initialised", Pattern.compile("Root WebApplicationContext: initialization completed"));
		milestones.put("worker ID claimed", Pattern.compile(
				"uid (?:static )?worker ID \\d+ (?:claimed|leased|assigned)|uid worker ID \\d+ (?:leased|assigned)"));
		milestones.put("Tomcat started", Pattern.compile("Tomcat started on port \\d+"));
		return milestones;
	}

	private AppLaunch() {
	}

	/**
	 * What one start took.
	 * @param firstIdMillis from launch to the first {@code 200} of {@code GET /uid}
	 * @param cpuMillis the CPU time the process had used (all its threads, user and system) when its first ID came;
	 * -1 where {@code /proc} cannot tell
	 * @param milestones from launch to each milestone line that was logged, by name
	 * @param log the instance's log
	 */
	record Result(double firstIdMillis, double cpuMillis, Map<String, Double> milestones, Path log) {
	}

	/**
	 * Starts the command, waits for the first ID, stops the process gracefully and waits for it to exit.
	 * @param command the command, ports excluded: {@code --server.port=0} and {@code --management.server.port=0}
	 * are added
	 * @param workDir the process's working directory
	 * @param log where its output goes
	 * @param timeout how long the first ID may take
	 * @return the timings
	 * @throws IllegalStateException when it exits or times out before its first ID
	 */
	static Result run(List<String> command, Path workDir, Path log, Duration timeout)
			throws IOException, InterruptedException {
		Files.createDirectories(workDir);
		Files.createDirectories(log.getParent());
		List<String> full = new ArrayList<>(command);
		full.add("--server.port=0");
		full.add("--management.server.port=0");
		ProcessBuilder builder = new ProcessBuilder(full).directory(workDir.toFile())
			.redirectErrorStream(true)
			.redirectOutput(log.toFile());
		long launchedMillis = System.currentTimeMillis();
		long launchedNanos = System.nanoTime();
		Process process = builder.start();
		double firstId;
		double cpu;
		try {
			firstId = awaitFirstId(process, launchedNanos, timeout, log);
			cpu = cpuMillis(process.pid());
		}
		finally {
			stop(process);
		}
		return new Result(firstId, cpu, milestones(log, launchedMillis), log);
	}

	/** Asks for {@code /uid} until it answers, once the log names the port; the log is read again only as it grows. */
	private static double awaitFirstId(Process process, long launchedNanos, Duration timeout, Path log)
			throws InterruptedException {
		long deadline = launchedNanos + timeout.toNanos();
		OptionalInt port = OptionalInt.empty();
		long logSize = 0;
		while (true) {
			long size = size(log);
			if (port.isEmpty() && size != logSize) {
				logSize = size;
				port = BootPorts.server(readLog(log));
			}
			if (port.isPresent() && answers(port.getAsInt())) {
				return (System.nanoTime() - launchedNanos) / 1e6;
			}
			if (!process.isAlive()) {
				throw new IllegalStateException("The instance exited (" + process.exitValue() + ") before its first "
						+ "ID; see " + log);
			}
			if (System.nanoTime() - deadline > 0) {
				throw new IllegalStateException("No ID within " + timeout.toSeconds() + " s; see " + log);
			}
			TimeUnit.NANOSECONDS.sleep(POLL_NANOS);
		}
	}

	/** Whether {@code GET /uid} answers 200 now; a refused or unanswered connection is a no. */
	private static boolean answers(int port) {
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1000);
			socket.setSoTimeout(60_000);
			OutputStream out = socket.getOutputStream();
			out.write(("GET /uid HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nConnection: close\r\n\r\n")
				.getBytes(StandardCharsets.US_ASCII));
			out.flush();
			InputStream in = socket.getInputStream();
			byte[] status = new byte[12];
			int read = 0;
			while (read < status.length) {
				int n = in.read(status, read, status.length - read);
				if (n < 0) {
					return false;
				}
				read += n;
			}
			return new String(status, StandardCharsets.US_ASCII).startsWith("HTTP/1.1 200");
		}
		catch (IOException ex) {
			return false;
		}
	}

	/** User and system CPU time of a process so far, from {@code /proc/<pid>/stat} (in ticks of 10 ms). */
	private static double cpuMillis(long pid) {
		try {
			String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
			String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split("\\s+");
			// utime and stime are fields 14 and 15; the array starts at field 3.
			return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) * 10.0;
		}
		catch (IOException | RuntimeException ex) {
			return -1;
		}
	}

	/** SIGTERM, as a platform stops an instance, and a wait for the graceful shutdown; SIGKILL after a minute. */
	private static void stop(Process process) throws InterruptedException {
		process.destroy();
		if (!process.waitFor(60, TimeUnit.SECONDS)) {
			process.destroyForcibly();
			process.waitFor(10, TimeUnit.SECONDS);
		}
	}

	private static long size(Path log) {
		try {
			return Files.size(log);
		}
		catch (IOException ex) {
			return 0;
		}
	}

	/** The log so far; a line still being written may be cut off, and is whole at the next read. */
	private static String readLog(Path log) {
		try {
			return Files.readString(log, StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			return "";
		}
	}

	/** When each milestone line was logged, in milliseconds from launch. */
	static Map<String, Double> milestones(Path log, long launchedMillis) throws IOException {
		List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
		int port = BootPorts.server(String.join("\n", lines)).orElse(-1);
		Map<String, Double> found = new LinkedHashMap<>();
		for (String line : lines) {
			Matcher timestamp = TIMESTAMP.matcher(line);
			if (!timestamp.find()) {
				continue;
			}
			for (Map.Entry<String, Pattern> milestone : MILESTONES.entrySet()) {
				if (found.containsKey(milestone.getKey()) || !milestone.getValue().matcher(line).find()
						|| (milestone.getKey().equals("Tomcat started") && !line.contains("port " + port + " "))) {
					continue;
				}
				try {
					long at = OffsetDateTime.parse(timestamp.group(1)).toInstant().toEpochMilli();
					found.put(milestone.getKey(), (double) (at - launchedMillis));
				}
				catch (DateTimeParseException ex) {
					// Not a log line of ours after all.
				}
			}
		}
		return found;
	}

}
