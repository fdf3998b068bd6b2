package io.github.uidgen.benchmarks;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The saturation runner: for each generator, {@code T} threads take {@code N} IDs each from one shared generator,
 * as fast as they can; prints IDs per second, the calls that threw and the duplicates found among all IDs kept.
 *
 * <p>Each generator runs in a JVM of its own (started by this one, like a JMH fork) so that no generator's
 * threads, garbage or JIT profile can slow down the next. In that JVM one unmeasured warm-up run comes first, then
 * one measured run per thread count, each with a freshly started generator; {@code --repeats} rounds of that,
 * every generator in turn.
 */
public final class SaturationRunner {

	static final String DEFAULT_CONTENDERS = "uid-cached,uid-cached-defaults,uid-default,uid-segment,baidu-cached,"
			+ "cosid-segment-chain,cosid-snowflake,hutool-snowflake,atomic-long";

	private static final String CHILD = "child";

	private SaturationRunner() {
	}

	public static void main(String[] args) throws Exception {
		Arguments arguments = new Arguments(args, "contenders", "threads", "ids", "capped-ids", "repeats", CHILD);
		String child = arguments.get(CHILD, null);
		List<Integer> threadCounts = arguments.getInts("threads", "1,2,8");
		int ids = arguments.getInt("ids", 24_000_000);
		int cappedIds = arguments.getInt("capped-ids", 8_000_000);
		int repeats = arguments.getInt("repeats", 3);
		if (child != null) {
			runChild(Contender.of(child), threadCounts, ids, repeats);
			return;
		}
		List<Contender> contenders = arguments.getContenders("contenders", DEFAULT_CONTENDERS);
		run(contenders, threadCounts, ids, cappedIds, repeats, System.out);
	}

	/**
	 * Runs every contender in its own JVM and prints the table.
	 */
	static void run(List<Contender> contenders, List<Integer> threadCounts, int ids, int cappedIds, int repeats,
			PrintStream out) throws IOException, InterruptedException {
		out.printf("## Saturation: T threads take IDs from one shared generator; every ID kept and checked%n%n");
		out.printf("%d measured runs per row, in %d rounds that each run every generator once, in a JVM of its own "
				+ "(a warm-up run first, then one run per thread count, each with a freshly started generator); %,d "
				+ "IDs per run for generators without a layout cap or that borrow ahead, %,d for those capped at "
				+ "4,096 IDs/ms.%n%n",
				repeats, repeats, ids, cappedIds);
		List<SaturationRun.Outcome> outcomes = new ArrayList<>();
		// Round-robin: one run of every generator, then the next round, so a busy spell on the shared machine
		// lowers every generator's figures a little instead of one generator's a lot.
		for (int round = 1; round <= repeats; round++) {
			for (Contender contender : contenders) {
				// Generators bounded by 4,096 IDs per millisecond need fewer IDs for a steady figure; one that
				// borrows ahead gets the full count, which its burst budget covers.
				int total = (contender.ceilingPerSecond() > 0 && !contender.borrowsAhead()) ? cappedIds : ids;
				outcomes.addAll(fork(contender, threadCounts, total, 1));
			}
		}
		print(outcomes, threadCounts, out);
	}

	private static List<SaturationRun.Outcome> fork(Contender contender, List<Integer> threadCounts, int ids,
			int repeats) throws IOException, InterruptedException {
		String java = ProcessHandle.current().info().command().orElse("java");
		List<String> command = new ArrayList<>(List.of(java, "-Xms1g", "-Xmx1g", "-XX:+AlwaysPreTouch", "-cp",
				System.getProperty("java.class.path"), SaturationRunner.class.getName(), "--" + CHILD,
				contender.label(), "--threads", join(threadCounts), "--ids", Integer.toString(ids), "--repeats",
				Integer.toString(repeats)));
		Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
		List<SaturationRun.Outcome> outcomes = new ArrayList<>();
		try (BufferedReader reader = new BufferedReader(
				new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
			String line;
			while ((line = reader.readLine()) != null) {
				if (line.startsWith("RESULT\t")) {
					SaturationRun.Outcome outcome = SaturationRun.Outcome.parse(line);
					outcomes.add(outcome);
					System.err.printf("  %-20s %d threads: %,.0f IDs/s, %,d threw, %,d duplicates%n",
							contender.label(), outcome.threads(), outcome.idsPerSecond(), outcome.threw(),
							outcome.duplicates());
				}
				else {
					System.err.println(line);
				}
			}
		}
		int exit = process.waitFor();
		if (exit != 0) {
			throw new IllegalStateException("The saturation run of " + contender.label() + " failed (exit " + exit
					+ ")");
		}
		return outcomes;
	}

	private static void runChild(Contender contender, List<Integer> threadCounts, int ids, int repeats)
			throws InterruptedException {
		// Warm-up: the same code paths, unmeasured.
		int warmupIds = Math.min(ids, 4_000_000) / 2;
		new SaturationRun(contender, 2, warmupIds).run(new long[][] { new long[warmupIds], new long[warmupIds] });
		for (int threads : threadCounts) {
			// Allocated (and so zeroed and paged in) before the run starts; the previous thread count's arrays are
			// garbage by now and collected while allocating these, outside the measured time.
			long[][] arrays = new long[threads][ids / threads];
			for (int r = 0; r < repeats; r++) {
				SaturationRun.Outcome outcome = new SaturationRun(contender, threads, ids / threads).run(arrays);
				System.out.println(outcome.toLine());
				System.out.flush();
			}
		}
		System.exit(0);
	}

	private static void print(List<SaturationRun.Outcome> outcomes, List<Integer> threadCounts, PrintStream out) {
		Map<String, List<SaturationRun.Outcome>> byRow = new LinkedHashMap<>();
		for (SaturationRun.Outcome outcome : outcomes) {
			byRow.computeIfAbsent(outcome.contender().name() + "@" + outcome.threads(), key -> new ArrayList<>())
				.add(outcome);
		}
		// A ratio column for each of ours that took part in the run.
		List<Contender> ours = new ArrayList<>(List.of(Contender.UID_CACHED, Contender.UID_CACHED_DEFAULTS,
				Contender.UID_DEFAULT, Contender.UID_SEGMENT));
		Map<Contender, Map<Integer, Double>> oursMedians = new LinkedHashMap<>();
		for (List<SaturationRun.Outcome> row : byRow.values()) {
			SaturationRun.Outcome first = row.get(0);
			if (ours.contains(first.contender())) {
				oursMedians.computeIfAbsent(first.contender(), (key) -> new LinkedHashMap<>())
					.put(first.threads(), rates(row).median());
			}
		}
		ours.retainAll(oursMedians.keySet());
		List<String> headers = new ArrayList<>(List.of("generator", "settings", "threads", "IDs per run", "runs",
				"IDs/s (median)", "min – max", "spread", "of ceiling", "threw", "duplicates", "negative"));
		ours.forEach((mine) -> headers.add(mine.label() + " ÷"));
		MarkdownTable table = new MarkdownTable(headers.toArray(String[]::new)).leftAligned(1);
		for (int threads : threadCounts) {
			for (List<SaturationRun.Outcome> row : byRow.values()) {
				SaturationRun.Outcome first = row.get(0);
				if (first.threads() != threads) {
					continue;
				}
				Samples rates = rates(row);
				long threw = 0;
				long duplicates = 0;
				long negatives = 0;
				boolean complete = true;
				for (SaturationRun.Outcome outcome : row) {
					threw += outcome.threw();
					duplicates += outcome.duplicates();
					negatives += outcome.negatives();
					complete &= outcome.complete();
				}
				long ceiling = first.contender().ceilingPerSecond();
				List<Object> cells = new ArrayList<>(List.of(first.contender().label(), first.contender().settings(),
						threads,
						String.format("%,d", first.ids()) + (complete ? "" : " (incomplete!)"), row.size(),
						MarkdownTable.millions(rates.median()),
						MarkdownTable.millions(rates.min()) + " – " + MarkdownTable.millions(rates.max()),
						String.format("%.0f%%", rates.spreadPercent()),
						(ceiling > 0) ? String.format("%.1f%%", 100 * rates.median() / ceiling) : "",
						String.format("%,d", threw), String.format("%,d", duplicates),
						String.format("%,d", negatives)));
				for (Contender mine : ours) {
					cells.add(MarkdownTable.ratio(oursMedians.get(mine).getOrDefault(threads, 0.0), rates.median()));
				}
				table.row(cells.toArray());
			}
		}
		table.print(out);
		out.println("\"threw\" and \"duplicates\" are totals over all runs of the row; \"of ceiling\" is the median "
				+ "against 2^seqBits IDs per millisecond, the most a layout issues sustained; a generator that borrows "
				+ "ahead (uid-cached-defaults, up to 10 s of future IDs) runs above it until its budget is used.");
		out.println();
	}

	static Samples rates(List<SaturationRun.Outcome> row) {
		List<Double> rates = new ArrayList<>();
		for (SaturationRun.Outcome outcome : row) {
			rates.add(outcome.idsPerSecond());
		}
		return new Samples(rates);
	}

	static String join(List<Integer> values) {
		StringBuilder joined = new StringBuilder();
		for (int value : values) {
			joined.append((joined.length() > 0) ? "," : "").append(value);
		}
		return joined.toString();
	}

}
