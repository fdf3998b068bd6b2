package io.github.uidgen.benchmarks;

import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

import io.github.uidgen.testsupport.ThrowawayZooKeeperProcess;

/**
 * What the ZooKeeper server (a process of its own) and the simulation's JVM did during one phase of the fleet
 * simulation: the writes the ensemble logged (its {@code zxid} grew by one for each, refused ones too), the reads and
 * writes it answered with their latency in the server, its disk syncs, the most requests outstanding at once (sampled
 * as often as the phase asks), the server process's CPU time, and that of the JVM's threads by kind (the ZooKeeper
 * clients', Curator's, the instances' own start threads), against the two cores and what other processes of the
 * machine took meanwhile.
 */
final class ZooKeeperWatch {

	/** Summaries of {@code mntr} whose count and sum grow over the phase. */
	private static final List<String> SUMMARIES = List.of("updatelatency", "readlatency", "fsynctime",
			"prep_processor_queue_time_ms", "local_write_committed_time_ms", "jvm_pause_time_ms");

	private static final String START_THREADS = "the instances' start threads (claim, first mark, first ID)";

	private final int port;

	/** The server process's CPU time, milliseconds. */
	private final LongSupplier serverCpuMillis;

	private final long serverCpuBefore;

	private final Map<String, String> before;

	private final long zxidBefore;

	private final long startNanos = System.nanoTime();

	private final long processCpuBefore = processCpuNanos();

	private final CpuSnapshot machineBefore = CpuSnapshot.take();

	private final com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory
		.getThreadMXBean();

	/** CPU time of each thread seen, first and last sample, and its kind. */
	private final Map<Long, long[]> cpuByThread = new HashMap<>();

	private final Map<Long, String> kindByThread = new HashMap<>();

	private volatile long mostOutstanding;

	private volatile boolean stopped;

	private final Duration sampleEvery;

	private final Thread sampler;

	private final long endedBefore = ENDED_START_THREADS.get();

	private ZooKeeperWatch(int port, LongSupplier serverCpuMillis, Duration sampleEvery) {
		this.port = port;
		this.sampleEvery = sampleEvery;
		this.serverCpuMillis = serverCpuMillis;
		this.serverCpuBefore = serverCpuMillis.getAsLong();
		this.before = mntr(port);
		this.zxidBefore = zxid(port);
		sampleThreads(true);
		this.sampler = new Thread(this::sample, "zookeeper-watch");
		this.sampler.setDaemon(true);
		this.sampler.start();
	}

	/**
	 * Starts watching the server on a port of this machine.
	 * @param port its client port
	 * @param serverCpuMillis reads the server process's CPU time, milliseconds
	 * @param sampleEvery how often to ask it for its requests outstanding ({@code mntr})
	 * @return the watch, printed and stopped by {@link #print}
	 */
	static ZooKeeperWatch start(int port, LongSupplier serverCpuMillis, Duration sampleEvery) {
		return new ZooKeeperWatch(port, serverCpuMillis, sampleEvery);
	}

	private void sample() {
		while (!this.stopped) {
			long outstanding = parse(mntr(this.port).get("zk_outstanding_requests"));
			if (outstanding > this.mostOutstanding) {
				this.mostOutstanding = outstanding;
			}
			try {
				Thread.sleep(this.sampleEvery.toMillis());
			}
			catch (InterruptedException ex) {
				return;
			}
		}
	}

	/**
	 * Reads the CPU time of every live thread, at the start and at the end of the phase only: sampling thousands of
	 * threads as the phase runs cost the CPU it measures. Threads that end within the phase report their own time
	 * ({@link #threadEnded()}).
	 */
	private synchronized void sampleThreads(boolean first) {
		ThreadGroup root = Thread.currentThread().getThreadGroup();
		while (root.getParent() != null) {
			root = root.getParent();
		}
		Thread[] all = new Thread[root.activeCount() + 256];
		int count = root.enumerate(all, true);
		long[] ids = new long[count];
		for (int i = 0; i < count; i++) {
			ids[i] = all[i].getId();
			this.kindByThread.putIfAbsent(ids[i], kind(all[i].getName()));
		}
		long[] cpu = this.threads.getThreadCpuTime(ids);
		for (int i = 0; i < count; i++) {
			if (cpu[i] < 0) {
				continue;
			}
			long[] seen = this.cpuByThread.get(ids[i]);
			if (seen == null) {
				// A thread that started within the phase counts from 0, one that ran before from now.
				this.cpuByThread.put(ids[i], new long[] { first ? cpu[i] : 0, cpu[i] });
			}
			else {
				seen[1] = cpu[i];
			}
		}
	}

	/** CPU time of the instances' start threads that ended, each adding its own as it ends. */
	private static final AtomicLong ENDED_START_THREADS = new AtomicLong();

	/** Called by an instance's start thread as it ends, with nothing after it: adds its CPU time to the phase's. */
	static void threadEnded() {
		long nanos = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
		if (nanos > 0) {
			ENDED_START_THREADS.addAndGet(nanos);
		}
	}

	private static String kind(String name) {
		if (name.contains("-SendThread(") || name.endsWith("-EventThread")) {
			return "ZooKeeper clients (send and event threads)";
		}
		if (name.startsWith("Curator-")) {
			return "Curator (background and connection-state threads)";
		}
		if (name.startsWith("fleet-start-")) {
			return START_THREADS;
		}
		if (name.startsWith("uid-")) {
			return "the generators' own threads (mark keepers)";
		}
		return "other (probe, watch, JVM service threads)";
	}

	/**
	 * Stops watching and prints what the server and the JVM did.
	 * @param out where
	 * @param title what the phase was
	 * @param claims the claims made in it, to count per claim
	 */
	void print(PrintStream out, String title, int claims) {
		this.stopped = true;
		this.sampler.interrupt();
		try {
			this.sampler.join(5_000);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		sampleThreads(false);
		double seconds = (System.nanoTime() - this.startNanos) / 1e9;
		Map<String, String> after = mntr(this.port);
		long writes = zxid(this.port) - this.zxidBefore;
		out.printf("#### The ZooKeeper server during %s (%.1f s, %d claims made)%n%n", title, seconds, claims);
		MarkdownTable table = new MarkdownTable("", "growth", "per claim made").leftAligned(0);
		table.row("writes logged (zxid growth: every create, setData, delete, multi, session creation and close, "
				+ "refused ones too)", String.format(Locale.ROOT, "%,d", writes), perClaim(writes, claims));
		long packets = growth(after, "zk_packets_received");
		table.row("packets received (requests and pings)", String.format(Locale.ROOT, "%,d", packets),
				perClaim(packets, claims));
		for (String summary : SUMMARIES) {
			long count = growth(after, "zk_cnt_" + summary);
			long sum = growth(after, "zk_sum_" + summary);
			table.row(summary + ": count; mean", String.format(Locale.ROOT, "%,d; %.2f ms", count,
					(count > 0) ? (double) sum / count : 0.0), perClaim(count, claims));
		}
		table.row("most requests outstanding at once (sampled)", String.format(Locale.ROOT, "%,d",
				this.mostOutstanding), "");
		table.row("sessions at the end (zk_global_sessions)", after.getOrDefault("zk_global_sessions", "?"), "");
		table.print(out);
		out.println();
		printCpu(out, seconds);
	}

	private synchronized void printCpu(PrintStream out, double seconds) {
		Map<String, Long> byKind = new TreeMap<>();
		long threadTotal = 0;
		for (Map.Entry<Long, long[]> entry : this.cpuByThread.entrySet()) {
			long used = entry.getValue()[1] - entry.getValue()[0];
			byKind.merge(this.kindByThread.get(entry.getKey()), used, Long::sum);
			threadTotal += used;
		}
		long ended = ENDED_START_THREADS.get() - this.endedBefore;
		byKind.merge(START_THREADS, ended, Long::sum);
		threadTotal += ended;
		long process = processCpuNanos() - this.processCpuBefore;
		byKind.put("the JVM itself (GC, JIT; the process less its threads)", Math.max(0, process - threadTotal));
		out.printf("CPU of the ZooKeeper server's process in that time: %.0f %% of one core.%n%n",
				(this.serverCpuMillis.getAsLong() - this.serverCpuBefore) / 10.0 / seconds);
		out.printf("CPU of the simulation's JVM in that time, by thread (read at its start and end; of 2 cores = 200 %%): "
				+ "%.0f %% of one core in all; the machine: %s%n%n", process / 1e7 / seconds,
				CpuSnapshot.take().since(this.machineBefore));
		MarkdownTable table = new MarkdownTable("threads", "CPU (% of one core)").leftAligned(0);
		byKind.entrySet()
			.stream()
			.sorted((a, b) -> Long.compare(b.getValue(), a.getValue()))
			.forEach((entry) -> table.row(entry.getKey(),
					String.format(Locale.ROOT, "%.1f %%", entry.getValue() / 1e7 / seconds)));
		table.print(out);
		out.println();
	}

	private long growth(Map<String, String> after, String key) {
		return parse(after.get(key)) - parse(this.before.get(key));
	}

	private static String perClaim(long value, int claims) {
		return (claims > 0) ? String.format(Locale.ROOT, "%,.1f", (double) value / claims) : "–";
	}

	private static long parse(String value) {
		if (value == null) {
			return 0;
		}
		try {
			return Long.parseLong(value);
		}
		catch (NumberFormatException ex) {
			return (long) Double.parseDouble(value);
		}
	}

	/** The {@code zxid} the server reports in {@code srvr}: its count of logged transactions in this epoch. */
	private static long zxid(int port) {
		for (String line : ThrowawayZooKeeperProcess.fourLetterWord(port, "srvr")) {
			if (line.startsWith("Zxid:")) {
				return Long.decode(line.substring(5).trim()) & 0xFFFFFFFFL;
			}
		}
		return 0;
	}

	/**
	 * ZooKeeper's {@code mntr} four-letter command.
	 * @param port the server's client port
	 * @return its values by name, none while the server is down
	 */
	static Map<String, String> mntr(int port) {
		Map<String, String> values = new HashMap<>();
		for (String line : ThrowawayZooKeeperProcess.fourLetterWord(port, "mntr")) {
			String[] pair = line.split("\t", 2);
			if (pair.length == 2) {
				values.put(pair[0], pair[1].trim());
			}
		}
		return values;
	}

	private static long processCpuNanos() {
		return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
			.getProcessCpuTime();
	}

}
