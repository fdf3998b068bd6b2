package io.github.uidgen.benchmarks;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The same work on virtual threads (on the default carrier pool) and on platform threads: {@code T} threads, 1,000
 * and 10,000 by default, each take their share of {@code N} IDs from one generator, every ID kept and checked, as in
 * the saturation runs; and JMH's throughput of {@code getUID} with {@code T} benchmark threads of either kind
 * ({@code -Djmh.executor=VIRTUAL}). Needs Java 21 or later.
 *
 * <p>Each generator runs in a JVM of its own; in it, a warm-up run of each kind, then per thread count one run of
 * each kind with a freshly started generator, the kinds in turn; {@code --repeats} such JVMs per generator, round
 * by round.
 */
public final class VirtualThreadRuns {

	static final String DEFAULT_CONTENDERS = "uid-cached-defaults,uid-cached,atomic-long";

	static final String DEFAULT_JMH_CONTENDERS = "uid-cached,atomic-long";

	private static final String CHILD = "child";

	private VirtualThreadRuns() {
	}

	public static void main(String[] args) throws Exception {
		Arguments arguments = new Arguments(args, "contenders", "jmh-contenders", "threads", "ids", "repeats",
				"rounds", "warmup", "iterations", "log-dir", "skip-jmh", CHILD);
		List<Integer> threadCounts = arguments.getInts("threads", "1000,10000");
		int ids = arguments.getInt("ids", 24_000_000);
		String child = arguments.get(CHILD, null);
		if (child != null) {
			runChild(Contender.of(child), threadCounts, ids);
			return;
		}
		PrintStream out = System.out;
		if (!ThreadKind.virtualAvailable()) {
			out.printf("## Virtual threads against platform threads%n%nSkipped: virtual threads need Java 21 or later, "
					+ "this is %s. Run the jar with a JDK 21+ `java`.%n%n", Runtime.version());
			return;
		}
		saturation(arguments.getContenders("contenders", DEFAULT_CONTENDERS), threadCounts, ids,
				arguments.getInt("repeats", 3), out);
		if (!Boolean.parseBoolean(arguments.get("skip-jmh", "false"))) {
			JmhSuite jmh = new JmhSuite(Path.of(arguments.get("log-dir", "benchmark-logs")),
					arguments.getInt("rounds", 3), arguments.getInt("warmup", 2), arguments.getInt("iterations", 3), out);
			jmh.threadKinds(arguments.getContenders("jmh-contenders", DEFAULT_JMH_CONTENDERS), threadCounts);
		}
	}

	/**
	 * Runs every contender in JVMs of its own and prints the table.
	 */
	static void saturation(List<Contender> contenders, List<Integer> threadCounts, int ids, int repeats,
			PrintStream out) throws Exception {
		List<String[]> results = new ArrayList<>();
		for (int round = 1; round <= repeats; round++) {
			for (Contender contender : contenders) {
				System.err.printf("virtual threads, round %d of %d: %s%n", round, repeats, contender.label());
				results.addAll(ChildJvm.start(contender.label(), List.of("-Xms1g", "-Xmx1g", "-XX:+AlwaysPreTouch"),
						VirtualThreadRuns.class, "--" + CHILD, contender.label(), "--threads", SaturationRunner.join(threadCounts),
						"--ids", Integer.toString(ids))
					.results());
			}
		}
		// contender -> threads -> kind -> outcomes
		Map<Contender, Map<Integer, Map<ThreadKind, List<SaturationRun.Outcome>>>> byRow = new LinkedHashMap<>();
		for (String[] fields : results) {
			ThreadKind kind = ThreadKind.valueOf(fields[0]);
			SaturationRun.Outcome outcome = SaturationRun.Outcome.parse(String.join("\t", "RESULT",
					String.join("\t", List.of(fields).subList(1, fields.length))));
			byRow.computeIfAbsent(outcome.contender(), (key) -> new LinkedHashMap<>())
				.computeIfAbsent(outcome.threads(), (key) -> new LinkedHashMap<>())
				.computeIfAbsent(kind, (key) -> new ArrayList<>())
				.add(outcome);
		}
		out.printf("## Virtual threads against platform threads: T threads take their share of the IDs; every ID "
				+ "kept and checked%n%n");
		out.printf("%d measured runs per cell, in %d rounds that each run every generator once, in a JVM of its own "
				+ "(a warm-up run of each kind first, then per thread count one run of each kind, each with a freshly "
				+ "started generator); %,d IDs per run, shared out evenly. Virtual threads run on the default carrier "
				+ "pool (%d carriers here).%n%n", repeats, repeats, ids, Runtime.getRuntime().availableProcessors());
		MarkdownTable table = new MarkdownTable("generator", "settings", "threads", "IDs per thread",
				"platform threads, IDs/s", "spread", "virtual threads, IDs/s", "spread", "virtual ÷ platform", "threw",
				"duplicates", "negative").leftAligned(1);
		for (int threads : threadCounts) {
			for (Map.Entry<Contender, Map<Integer, Map<ThreadKind, List<SaturationRun.Outcome>>>> entry : byRow
				.entrySet()) {
				Map<ThreadKind, List<SaturationRun.Outcome>> kinds = entry.getValue().get(threads);
				if (kinds == null) {
					continue;
				}
				Samples platform = SaturationRunner.rates(kinds.get(ThreadKind.PLATFORM));
				Samples virtual = SaturationRunner.rates(kinds.get(ThreadKind.VIRTUAL));
				long threw = 0;
				long duplicates = 0;
				long negatives = 0;
				boolean complete = true;
				for (List<SaturationRun.Outcome> outcomes : kinds.values()) {
					for (SaturationRun.Outcome outcome : outcomes) {
						threw += outcome.threw();
						duplicates += outcome.duplicates();
						negatives += outcome.negatives();
						complete &= outcome.complete();
					}
				}
				table.row(entry.getKey().label(), entry.getKey().settings(), String.format("%,d", threads),
						String.format("%,d", ids / threads) + (complete ? "" : " (incomplete!)"),
						MarkdownTable.millions(platform.median()), String.format("%.0f%%", platform.spreadPercent()),
						MarkdownTable.millions(virtual.median()), String.format("%.0f%%", virtual.spreadPercent()),
						MarkdownTable.ratio(virtual.median(), platform.median()), String.format("%,d", threw),
						String.format("%,d", duplicates), String.format("%,d", negatives));
			}
		}
		table.print(out);
		out.println("\"threw\", \"duplicates\" and \"negative\" are totals over all runs of the row, both kinds.");
		out.println();
	}

	private static void runChild(Contender contender, List<Integer> threadCounts, int ids) throws InterruptedException {
		int warmupThreads = Math.min(1_000, threadCounts.get(0));
		int warmupIds = Math.min(ids, 4_000_000) / warmupThreads;
		for (ThreadKind kind : ThreadKind.values()) {
			new SaturationRun(contender, warmupThreads, warmupIds, kind).run(new long[warmupThreads][warmupIds]);
		}
		for (int threads : threadCounts) {
			long[][] arrays = new long[threads][ids / threads];
			for (ThreadKind kind : ThreadKind.values()) {
				SaturationRun.Outcome outcome = new SaturationRun(contender, threads, ids / threads, kind).run(arrays);
				System.out.println(ChildJvm.RESULT + kind.name() + outcome.toLine().substring("RESULT".length()));
				System.out.flush();
			}
		}
		System.exit(0);
	}

}
