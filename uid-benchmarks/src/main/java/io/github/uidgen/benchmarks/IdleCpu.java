package io.github.uidgen.benchmarks;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * What a started generator costs while nobody asks it for IDs: each generator is built, asked for one ID, left alone
 * for 2 s to settle, and then watched for {@code --seconds} (60) while it sits idle. Reported are the CPU time of its
 * own threads (those named {@code uid-…}), how often they woke up (context switches from {@code /proc}), and the CPU
 * time of its whole JVM against a JVM that holds no generator at all.
 *
 * <p>Every generator sits in a JVM of its own, all of them (and the JVM without a generator) at the same time, so
 * the part takes one minute whatever the number of generators; idle threads hardly compete for the CPU.
 */
public final class IdleCpu {

	static final String DEFAULT_CONTENDERS = "uid-cached-defaults,uid-default,uid-segment";

	private static final String NONE = "none";

	private static final String THREAD_PREFIX = "uid-";

	private static final long SETTLE_MILLIS = 2_000;

	private IdleCpu() {
	}

	public static void main(String[] args) throws Exception {
		Arguments arguments = new Arguments(args, "contenders", "seconds", "child");
		int seconds = arguments.getInt("seconds", 60);
		String child = arguments.get("child", null);
		if (child != null) {
			runChild(child.equals(NONE) ? null : Contender.of(child), seconds);
			System.exit(0);
		}
		run(arguments.getContenders("contenders", DEFAULT_CONTENDERS), seconds, System.out);
	}

	/**
	 * Watches every contender, and a JVM without one, at the same time, then prints the table.
	 */
	static void run(List<Contender> contenders, int seconds, PrintStream out) throws IOException, InterruptedException {
		System.err.printf("[%tT] idle CPU: %d generators sitting idle for %d s%n", System.currentTimeMillis(),
				contenders.size(), seconds);
		Map<String, ChildJvm> children = new LinkedHashMap<>();
		children.put(NONE, start(NONE, seconds));
		for (Contender contender : contenders) {
			children.put(contender.label(), start(contender.label(), seconds));
		}
		Map<String, String[]> results = new LinkedHashMap<>();
		for (Map.Entry<String, ChildJvm> child : children.entrySet()) {
			List<String[]> lines = child.getValue().results();
			if (lines.isEmpty()) {
				throw new IllegalStateException("The idle measurement of " + child.getKey() + " reported nothing");
			}
			results.put(child.getKey(), lines.get(0));
		}
		double perMinute = 60.0 / seconds;
		double idleJvm = Long.parseLong(results.get(NONE)[2]) / 1e6 * perMinute;
		out.printf("## Idle cost: CPU used by a started generator that is not asked for IDs, over %d s%n%n", seconds);
		out.printf("Each generator in a JVM of its own, built, asked for one ID, left %d s to settle and then watched "
				+ "for %d s; all of them at the same time. Its threads are those named uid-…; wake-ups are their "
				+ "context switches. The JVM's CPU includes the JIT and GC threads; an idle JVM without a generator "
				+ "used %.1f ms per minute.%n%n", SETTLE_MILLIS / 1000, seconds, idleJvm);
		MarkdownTable table = new MarkdownTable("generator", "settings", "its threads",
				"CPU of its threads, ms per minute", "wake-ups per second", "JVM CPU, ms per minute",
				"JVM CPU − idle JVM's, ms per minute")
			.leftAligned(1)
			.leftAligned(2);
		for (Contender contender : contenders) {
			String[] result = results.get(contender.label());
			double threadMillis = Long.parseLong(result[1]) / 1e6 * perMinute;
			double jvmMillis = Long.parseLong(result[2]) / 1e6 * perMinute;
			long wakeups = Long.parseLong(result[3]);
			table.row(contender.label(), contender.settings(), result[4].isEmpty() ? "none" : result[4],
					String.format("%.1f", threadMillis),
					(wakeups >= 0) ? String.format("%.1f", wakeups / (double) seconds) : "n/a",
					String.format("%.1f", jvmMillis), String.format("%.1f", jvmMillis - idleJvm));
		}
		table.print(out);
	}

	private static ChildJvm start(String label, int seconds) throws IOException {
		return ChildJvm.start(label + " idle", List.of("-Xms64m", "-Xmx256m"), IdleCpu.class, "--child", label,
				"--seconds", Integer.toString(seconds));
	}

	private static void runChild(Contender contender, int seconds) throws InterruptedException {
		ThreadMXBean threads = ManagementFactory.getThreadMXBean();
		com.sun.management.OperatingSystemMXBean os = (com.sun.management.OperatingSystemMXBean) ManagementFactory
			.getOperatingSystemMXBean();
		IdSource source = (contender != null) ? contender.open() : null;
		try {
			if (source != null) {
				source.nextId();
			}
			Thread.sleep(SETTLE_MILLIS);
			Map<Long, Long> cpuBefore = generatorThreadCpu(threads);
			long wakeupsBefore = wakeups();
			long processBefore = os.getProcessCpuTime();
			Thread.sleep(TimeUnit.SECONDS.toMillis(seconds));
			long processUsed = os.getProcessCpuTime() - processBefore;
			long wakeupsAfter = wakeups();
			Map<Long, Long> cpuAfter = generatorThreadCpu(threads);
			long threadUsed = 0;
			for (Map.Entry<Long, Long> thread : cpuAfter.entrySet()) {
				threadUsed += thread.getValue() - cpuBefore.getOrDefault(thread.getKey(), 0L);
			}
			TreeSet<String> names = new TreeSet<>();
			for (long id : cpuAfter.keySet()) {
				var info = threads.getThreadInfo(id);
				if (info != null) {
					names.add(info.getThreadName());
				}
			}
			ChildJvm.report((contender != null) ? contender.label() : NONE, threadUsed, processUsed,
					(wakeupsBefore >= 0 && wakeupsAfter >= 0) ? wakeupsAfter - wakeupsBefore : -1,
					String.join(", ", names));
		}
		finally {
			if (source != null) {
				source.close();
			}
		}
	}

	/** The CPU time of every live thread named like a generator's, by thread ID. */
	private static Map<Long, Long> generatorThreadCpu(ThreadMXBean threads) {
		Map<Long, Long> cpu = new LinkedHashMap<>();
		for (long id : threads.getAllThreadIds()) {
			var info = threads.getThreadInfo(id);
			if (info != null && info.getThreadName().startsWith(THREAD_PREFIX)) {
				cpu.put(id, Math.max(0, threads.getThreadCpuTime(id)));
			}
		}
		return cpu;
	}

	/**
	 * Sums the context switches of this JVM's native threads named like a generator's (Linux gives a Java thread
	 * its name, cut to 15 characters).
	 * @return the count, or -1 where {@code /proc} cannot tell
	 */
	private static long wakeups() {
		try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
			long sum = 0;
			for (Path task : tasks.toList()) {
				try {
					if (!Files.readString(task.resolve("comm")).startsWith(THREAD_PREFIX)) {
						continue;
					}
					for (String line : Files.readAllLines(task.resolve("status"))) {
						if (line.startsWith("voluntary_ctxt_switches:")
								|| line.startsWith("nonvoluntary_ctxt_switches:")) {
							sum += Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
						}
					}
				}
				catch (IOException | RuntimeException ex) {
					// the thread ended meanwhile
				}
			}
			return sum;
		}
		catch (IOException | RuntimeException ex) {
			return -1;
		}
	}

}
