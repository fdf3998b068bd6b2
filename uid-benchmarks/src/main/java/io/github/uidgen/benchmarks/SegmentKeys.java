package io.github.uidgen.benchmarks;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ThreadFactory;

import io.github.uidgen.segment.SegmentUidGenerator;
import io.github.uidgen.segment.SegmentUidGenerators;
import io.github.uidgen.segment.redis.RedisSegmentStore;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Ten thousand segment keys on one Redis, in a JVM of their own, at default settings: the threads and the memory
 * they cost, how long the first number of each key takes (one key after another from one thread, and from eight
 * threads at once), and the steady rate of {@code T} threads that each take one number of every key in turn, with
 * every number kept and checked for duplicates per key.
 *
 * <p>Run with {@code java -jar uid-benchmarks.jar segment-keys} (options: {@code --keys}, {@code --threads},
 * {@code --seconds}, {@code --redis}, {@code --virtual}). The keys get a prefix of their own on the Redis, removed
 * afterwards. The shared Redis of a development machine usually keeps nothing across a restart, so the store is
 * built with {@code requirePersistence(false)}; that changes nothing measured.
 */
public final class SegmentKeys {

	static final int DEFAULT_KEYS = 10_000;

	static final String DEFAULT_THREADS = "1,2,8";

	private SegmentKeys() {
	}

	public static void main(String[] args) throws Exception {
		Arguments arguments = new Arguments(args, "keys", "threads", "seconds", "redis", "virtual", "child");
		int keys = arguments.getInt("keys", DEFAULT_KEYS);
		List<Integer> threads = arguments.getInts("threads", DEFAULT_THREADS);
		int seconds = arguments.getInt("seconds", 4);
		String redis = arguments.get("redis", "127.0.0.1:6379");
		boolean virtual = Boolean.parseBoolean(arguments.get("virtual", "false"));
		if (arguments.get("child", null) != null) {
			new SegmentKeysRun(keys, threads, seconds, redis, virtual).run();
			System.exit(0);
		}
		run(keys, threads, seconds, redis, virtual, System.out);
	}

	/**
	 * Measures in a child JVM and prints the tables.
	 */
	static void run(int keys, List<Integer> threads, int seconds, String redis, boolean virtual, PrintStream out)
			throws IOException, InterruptedException {
		List<String> jvmOptions = List.of("-Xms1g", "-Xmx3g", "-XX:+UseG1GC", "-Djdk.attach.allowAttachSelf=true",
				"-Djol.magicFieldOffset=true");
		List<String[]> results = ChildJvm
			.start("segment keys", jvmOptions, SegmentKeys.class, "--child", "true", "--keys", Integer.toString(keys),
					"--threads", String.join(",", threads.stream().map(String::valueOf).toList()), "--seconds",
					Integer.toString(seconds), "--redis", redis, "--virtual", Boolean.toString(virtual))
			.results();
		Map<String, String> values = new java.util.LinkedHashMap<>();
		List<String[]> steady = new ArrayList<>();
		for (String[] result : results) {
			if (result[0].equals("steady")) {
				steady.add(result);
			}
			else {
				values.put(result[0], result[1]);
			}
		}
		out.printf("## %,d segment keys on Redis: threads, memory, first numbers%n%n", keys);
		MarkdownTable table = new MarkdownTable("measure", "value").leftAligned(0);
		table.row("prefetch threads", values.get("threadKind"));
		table.row("JVM threads: before the keys → after " + String.format("%,d", keys) + " keys",
				values.get("threadsBefore") + " → " + values.get("threadsAfter"));
		table.row("uid threads after " + String.format("%,d", keys) + " keys (most seen in the steady runs)",
				values.get("uidThreads") + " (" + values.get("uidThreadsMax") + ")");
		table.row("RSS: before the keys → after " + String.format("%,d", keys) + " idle keys",
				mib(values.get("rssBefore")) + " → " + mib(values.get("rssAfter")));
		table.row("memory per idle key: objects walked with JOL (used heap after full collections)",
				values.get("jolPerKey") + " bytes (" + values.get("heapPerKey") + " bytes)");
		table.row("first number of each key, one key after another, 1 thread",
				millis(values.get("firstSequentialNanos")) + " in all, " + micros(values.get("firstSequentialNanos"),
						keys) + " a key");
		table.row("first number of each of " + String.format("%,d", keys) + " more keys, 8 threads at once",
				millis(values.get("firstParallelNanos")) + " in all");
		table.row("for reference: one INCRBY on the same connection after each of those first numbers",
				millis(values.get("incrbyNanos")) + " in all, " + micros(values.get("incrbyNanos"), keys) + " each");
		table.print(out);
		out.printf("## Steady rate: T threads each take one number of every one of the %,d keys in turn%n%n", keys);
		MarkdownTable rates = new MarkdownTable("threads", "IDs per second, all keys", "IDs checked", "duplicates",
				"segments claimed", "uid threads, most seen");
		for (String[] row : steady) {
			rates.row(row[1], MarkdownTable.millions(Double.parseDouble(row[2])), String.format("%,d",
					Long.parseLong(row[3])), row[4], String.format("%,d", Long.parseLong(row[5])), row[6]);
		}
		rates.print(out);
		out.printf("Default settings (step 1,000, max step 1,000,000, prefetch at 80%%, prefetch threads: %s), "
				+ "RedisSegmentStore through Lettuce on %s; every number kept (as an offset per key) and checked for "
				+ "duplicates per key, and each thread's numbers of a key checked to increase. Rates over %d s after "
				+ "1 s of warm-up, recording included. RSS from /proc/self/status, with the keys created and idle. JVM: -Xms1g -Xmx3g, G1, %s.%n%n", values.get("threadKind"), redis,
				seconds, System.getProperty("java.runtime.version"));
		if (steady.stream().anyMatch((row) -> !row[4].equals("0"))) {
			throw new IllegalStateException("Duplicates found: " + steady);
		}
	}

	private static String mib(String bytes) {
		return (bytes != null) ? String.format("%,.0f MiB", Long.parseLong(bytes) / 1048576.0) : "n/a";
	}

	private static String millis(String nanos) {
		return String.format("%,.0f ms", Long.parseLong(nanos) / 1e6);
	}

	private static String micros(String nanos, int keys) {
		return String.format("%,.0f µs", Long.parseLong(nanos) / 1e3 / keys);
	}

	/** Reads this process's resident set size, in bytes, or -1 where /proc is not there. */
	static long rss() {
		try {
			for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
				if (line.startsWith("VmRSS:")) {
					return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
				}
			}
		}
		catch (IOException | RuntimeException ex) {
			// not on Linux
		}
		return -1;
	}

	static int jvmThreads() {
		return ManagementFactory.getThreadMXBean().getThreadCount();
	}

	static int uidThreads() {
		return (int) Thread.getAllStackTraces()
			.keySet()
			.stream()
			.filter((thread) -> thread.getName().startsWith("uid-segment-prefetch"))
			.count();
	}

	/** A factory of virtual threads on Java 21+, reached by reflection so the module still builds for Java 17. */
	static ThreadFactory virtualThreadFactory() {
		try {
			Object builder = Thread.class.getMethod("ofVirtual").invoke(null);
			return (ThreadFactory) Class.forName("java.lang.Thread$Builder").getMethod("factory").invoke(builder);
		}
		catch (ReflectiveOperationException ex) {
			throw new IllegalStateException("Virtual threads need Java 21 or later; this is "
					+ System.getProperty("java.version"), ex);
		}
	}

	/** Opens the Lettuce connection factory of a {@code host:port}. */
	static LettuceConnectionFactory connect(String redis) {
		String[] hostPort = redis.split(":");
		LettuceConnectionFactory factory = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration(hostPort[0], Integer.parseInt(hostPort[1])));
		factory.afterPropertiesSet();
		factory.start();
		return factory;
	}

	/** Removes every key under a prefix. */
	static void removeKeys(LettuceConnectionFactory factory, String prefix) {
		StringRedisTemplate redis = new StringRedisTemplate(factory);
		var keys = redis.keys(prefix + ":*");
		if (keys != null && !keys.isEmpty()) {
			redis.delete(keys);
		}
	}

	static SegmentUidGenerators generators(LettuceConnectionFactory factory, String prefix, boolean virtual) {
		SegmentUidGenerator.Builder settings = SegmentUidGenerator
			.builder(RedisSegmentStore.builder(factory).keyPrefix(prefix).requirePersistence(false).build());
		if (virtual) {
			settings.prefetchThreadFactory(virtualThreadFactory());
		}
		return new SegmentUidGenerators(settings);
	}

	static String newPrefix() {
		return "uid-bench-keys-" + UUID.randomUUID().toString().substring(0, 8);
	}

}
