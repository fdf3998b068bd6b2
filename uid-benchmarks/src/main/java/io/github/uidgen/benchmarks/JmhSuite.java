package io.github.uidgen.benchmarks;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.util.Statistics;

/**
 * Runs the JMH benchmarks through JMH's API and prints their results as tables with medians, spreads and the
 * ratios of ours to each peer, all from the same run. JMH's own detailed output goes to log files.
 *
 * <p>The machine is shared, so load from elsewhere comes and goes. Instead of running all forks of one generator
 * and then all forks of the next, each "round" runs one fork of every generator in turn, and the rounds repeat:
 * a busy spell then lowers every generator's figures a little instead of one generator's a lot.
 */
final class JmhSuite {

	private static final String[] JVM_ARGS = { "-Xms1g", "-Xmx1g" };

	private static final String GET_UID = "\\.GetUidBenchmark\\.getUid$";


	private final Path logDir;

	private final int rounds;

	private final int warmupIterations;

	private final int iterations;

	private final PrintStream out;

	JmhSuite(Path logDir, int rounds, int warmupIterations, int iterations, PrintStream out) {
		this.logDir = logDir;
		this.rounds = rounds;
		this.warmupIterations = warmupIterations;
		this.iterations = iterations;
		this.out = out;
	}

	private ChainedOptionsBuilder options(String include, String log, int iterationCount) throws IOException {
		Files.createDirectories(this.logDir);
		return new OptionsBuilder().include(include)
			.forks(1)
			.warmupIterations(this.warmupIterations)
			.warmupTime(TimeValue.seconds(1))
			.measurementIterations(iterationCount)
			.measurementTime(TimeValue.seconds(1))
			.jvmArgsAppend(JVM_ARGS)
			.shouldFailOnError(true)
			.output(this.logDir.resolve(log).toString());
	}

	private static String[] names(List<Contender> contenders) {
		return contenders.stream().map(Contender::name).toArray(String[]::new);
	}

	private String describeRepetition(int iterationCount) {
		return String.format("%d rounds (each round one JMH fork of every generator in turn) × %d measured "
				+ "iterations of 1 s after %d warm-up iterations", this.rounds, iterationCount,
				this.warmupIterations);
	}

	/**
	 * Throughput of every contender at each thread count, then the ratios of ours to each peer.
	 */
	void throughput(List<Contender> contenders, List<Integer> threadCounts) throws Exception {
		Map<Contender, Map<Integer, List<Double>>> scores = new LinkedHashMap<>();
		Map<Contender, Map<Integer, Double>> threw = new LinkedHashMap<>();
		for (Contender contender : contenders) {
			scores.put(contender, new LinkedHashMap<>());
			threw.put(contender, new LinkedHashMap<>());
		}
		for (int round = 1; round <= this.rounds; round++) {
			for (int threads : threadCounts) {
				progress("throughput, round " + round + " of " + this.rounds + ", " + threads + " thread(s)");
				Collection<RunResult> results = new Runner(options(GET_UID,
						"throughput-" + threads + "t-round" + round + ".log", this.iterations)
					.param("contender", names(contenders))
					.threads(threads)
					.mode(Mode.Throughput)
					.timeUnit(TimeUnit.SECONDS)
					.build()).run();
				for (RunResult result : results) {
					Contender contender = contender(result.getParams());
					scores.get(contender).computeIfAbsent(threads, key -> new ArrayList<>())
						.addAll(iterationScores(result));
					threw.get(contender).merge(threads, secondarySum(result, "threw"), Double::sum);
				}
			}
		}
		this.out.printf("## Throughput: getUID on one shared generator, IDs per second%n%n");
		this.out.printf("%s; each cell is the median of its %d iterations, the spread is (max − min) / median.%n%n",
				describeRepetition(this.iterations), this.rounds * this.iterations);
		List<String> headers = new ArrayList<>(List.of("generator", "settings"));
		for (int threads : threadCounts) {
			headers.add(threads + " thread" + ((threads == 1) ? "" : "s"));
			headers.add("spread");
		}
		headers.add("calls that threw");
		MarkdownTable figures = new MarkdownTable(headers.toArray(String[]::new)).leftAligned(1);
		Map<Contender, Map<Integer, Samples>> medians = new LinkedHashMap<>();
		for (Contender contender : contenders) {
			List<Object> row = new ArrayList<>(List.of(contender.label(), contender.settings()));
			double thrown = 0;
			for (int threads : threadCounts) {
				Samples samples = new Samples(scores.get(contender).get(threads));
				medians.computeIfAbsent(contender, key -> new LinkedHashMap<>()).put(threads, samples);
				row.add(MarkdownTable.millions(samples.median()));
				row.add(String.format("%.0f%%", samples.spreadPercent()));
				thrown += threw.get(contender).getOrDefault(threads, 0.0);
			}
			row.add(String.format("%,.0f", thrown));
			figures.row(row.toArray());
		}
		figures.print(this.out);
		if (medians.containsKey(Contender.UID_CACHED_DEFAULTS)) {
			this.out.printf("uid-cached-defaults borrows at most 10 s of future IDs (40.96 million); every fork runs "
					+ "longer than that budget lasts at these rates, so its row shows the sustained ceiling of "
					+ "4,096 IDs/ms. Its burst is measured by the saturation runs and the sustained part.%n%n");
		}
		printRatios(medians, threadCounts);
		printCeilings(medians, threadCounts);
	}

	private void printRatios(Map<Contender, Map<Integer, Samples>> scores, List<Integer> threadCounts) {
		// uid-cached-defaults is left out: in a JMH fork it runs at its ceiling, so its ratios would be the cap's.
		List<Contender> ours = new ArrayList<>(List.of(Contender.UID_CACHED, Contender.UID_DEFAULT,
				Contender.UID_SEGMENT));
		ours.retainAll(scores.keySet());
		if (ours.isEmpty()) {
			return;
		}
		List<String> headers = new ArrayList<>(List.of("peer"));
		for (Contender mine : ours) {
			for (int threads : threadCounts) {
				headers.add(mine.label() + " ÷ peer, " + threads + "t");
			}
		}
		this.out.printf("### Ratios of ours to each peer (medians of the same run)%n%n");
		MarkdownTable ratios = new MarkdownTable(headers.toArray(String[]::new));
		for (Contender peer : scores.keySet()) {
			// Only other generators are peers: not ours at the ceiling, nor ours with meters.
			if (ours.contains(peer) || peer == Contender.UID_CACHED_DEFAULTS || peer.name().endsWith("_METERED")) {
				continue;
			}
			List<Object> row = new ArrayList<>(List.of(peer.label()));
			for (Contender mine : ours) {
				for (int threads : threadCounts) {
					row.add(MarkdownTable.ratio(scores.get(mine).get(threads).median(),
							scores.get(peer).get(threads).median()));
				}
			}
			ratios.row(row.toArray());
		}
		ratios.print(this.out);
	}

	private void printCeilings(Map<Contender, Map<Integer, Samples>> scores, List<Integer> threadCounts) {
		MarkdownTable table = new MarkdownTable("generator", "ceiling (2^seqBits per ms)", "threads",
				"median IDs/s", "best iteration", "median of ceiling");
		boolean any = false;
		for (Map.Entry<Contender, Map<Integer, Samples>> entry : scores.entrySet()) {
			long ceiling = entry.getKey().ceilingPerSecond();
			if (ceiling <= 0) {
				continue;
			}
			for (int threads : threadCounts) {
				Samples samples = entry.getValue().get(threads);
				table.row(entry.getKey().label(), MarkdownTable.millions(ceiling) + "/s", threads,
						MarkdownTable.millions(samples.median()), MarkdownTable.millions(samples.max()),
						String.format("%.1f%%", 100 * samples.median() / ceiling));
				any = true;
			}
		}
		if (any) {
			this.out.printf("### Layout-capped generators against their ceiling%n%n");
			table.print(this.out);
		}
	}

	/**
	 * Throughput of every contender with many benchmark threads, platform and virtual ones (JMH's
	 * {@code -Djmh.executor=VIRTUAL}, Java 21 and later), then virtual ÷ platform.
	 */
	void threadKinds(List<Contender> contenders, List<Integer> threadCounts) throws Exception {
		Map<String, List<Double>> scores = new LinkedHashMap<>();
		Map<String, Double> threw = new LinkedHashMap<>();
		for (int round = 1; round <= this.rounds; round++) {
			for (int threads : threadCounts) {
				for (ThreadKind kind : ThreadKind.values()) {
					progress("throughput, " + kind.name().toLowerCase() + " threads, round " + round + " of "
							+ this.rounds + ", " + threads + " threads");
					ChainedOptionsBuilder options = options(GET_UID, "threads-" + kind.name().toLowerCase() + "-"
							+ threads + "t-round" + round + ".log", this.iterations);
					if (kind == ThreadKind.VIRTUAL) {
						options.jvmArgsAppend("-Xms1g", "-Xmx1g", "-Djmh.executor=VIRTUAL");
					}
					Collection<RunResult> results = new Runner(options.param("contender", names(contenders))
						.threads(threads)
						.mode(Mode.Throughput)
						.timeUnit(TimeUnit.SECONDS)
						.build()).run();
					for (RunResult result : results) {
						String key = contender(result.getParams()).name() + "@" + threads + "@" + kind;
						scores.computeIfAbsent(key, (k) -> new ArrayList<>()).addAll(iterationScores(result));
						threw.merge(key, secondarySum(result, "threw"), Double::sum);
					}
				}
			}
		}
		this.out.printf("## Virtual threads against platform threads: getUID throughput, IDs per second (JMH)%n%n");
		this.out.printf("%s, for each kind of thread in turn; each cell is the median of its %d iterations. Virtual "
				+ "benchmark threads run on the default carrier pool (JMH's -Djmh.executor=VIRTUAL).%n%n",
				describeRepetition(this.iterations), this.rounds * this.iterations);
		MarkdownTable table = new MarkdownTable("generator", "settings", "threads", "platform threads", "spread",
				"virtual threads", "spread", "virtual ÷ platform", "calls that threw").leftAligned(1);
		for (int threads : threadCounts) {
			for (Contender contender : contenders) {
				String key = contender.name() + "@" + threads + "@";
				Samples platform = new Samples(scores.get(key + ThreadKind.PLATFORM));
				Samples virtual = new Samples(scores.get(key + ThreadKind.VIRTUAL));
				table.row(contender.label(), contender.settings(), String.format("%,d", threads),
						MarkdownTable.millions(platform.median()), String.format("%.0f%%", platform.spreadPercent()),
						MarkdownTable.millions(virtual.median()), String.format("%.0f%%", virtual.spreadPercent()),
						MarkdownTable.ratio(virtual.median(), platform.median()),
						String.format("%,.0f",
								threw.get(key + ThreadKind.PLATFORM) + threw.get(key + ThreadKind.VIRTUAL)));
			}
		}
		table.print(this.out);
	}

	/**
	 * Latency percentiles of single getUID calls (JMH sample mode).
	 */
	void latency(List<Contender> contenders, int threads) throws Exception {
		int latencyIterations = Math.max(2, this.iterations - 1);
		Map<Contender, List<Statistics>> statistics = new LinkedHashMap<>();
		for (int round = 1; round <= this.rounds; round++) {
			progress("latency (sample mode), round " + round + " of " + this.rounds + ", " + threads + " thread(s)");
			Collection<RunResult> results = new Runner(options(GET_UID,
					"latency-" + threads + "t-round" + round + ".log", latencyIterations)
				.param("contender", names(contenders))
				.threads(threads)
				.mode(Mode.SampleTime)
				.timeUnit(TimeUnit.NANOSECONDS)
				.build()).run();
			for (RunResult result : results) {
				statistics.computeIfAbsent(contender(result.getParams()), key -> new ArrayList<>())
					.add(result.getPrimaryResult().getStatistics());
			}
		}
		this.out.printf("## Latency of getUID, %d thread%s, nanoseconds (JMH sample mode)%n%n", threads,
				(threads == 1) ? "" : "s");
		this.out.printf("%s; each percentile is the median of the rounds' percentiles.%n%n",
				describeRepetition(latencyIterations));
		MarkdownTable table = new MarkdownTable("generator", "samples", "p50", "p90", "p99", "p99.9", "p99.99",
				"max");
		for (Map.Entry<Contender, List<Statistics>> entry : statistics.entrySet()) {
			List<Statistics> rounds = entry.getValue();
			long samples = rounds.stream().mapToLong(Statistics::getN).sum();
			table.row(entry.getKey().label(), String.format("%,d", samples), percentile(rounds, 50),
					percentile(rounds, 90), percentile(rounds, 99), percentile(rounds, 99.9),
					percentile(rounds, 99.99), ns(rounds.stream().mapToDouble(Statistics::getMax).max().orElse(0)));
		}
		table.print(this.out);
		this.out.printf("Sample mode times single calls with System.nanoTime, so figures near 20–40 ns are "
				+ "mostly the timer itself; the cap of 4,096 IDs/ms shows as the far tail of the Snowflakes and of "
				+ "uid-default (one call in 4,096 waits for the next millisecond).%n%n");
	}

	private static String percentile(List<Statistics> rounds, double percentile) {
		List<Double> values = new ArrayList<>();
		for (Statistics statistics : rounds) {
			values.add(statistics.getPercentile(percentile));
		}
		return ns(new Samples(values).median());
	}

	/**
	 * The uncontended cost of one call for generators capped at 4,096 IDs/ms, paced under the cap.
	 */
	void pacedCost(List<Contender> contenders) throws Exception {
		List<Double> baseline = new ArrayList<>();
		Map<Contender, List<Double>> paced = new LinkedHashMap<>();
		for (int round = 1; round <= this.rounds; round++) {
			progress("paced uncontended cost per call, round " + round + " of " + this.rounds);
			Collection<RunResult> results = new Runner(options("\\.PacedCallBenchmark\\.",
					"paced-round" + round + ".log", this.iterations)
				.param("contender", names(contenders))
				.threads(1)
				.build()).run();
			for (RunResult result : results) {
				if (result.getParams().getBenchmark().endsWith(".baseline")) {
					baseline.addAll(iterationScores(result));
				}
				else {
					paced.computeIfAbsent(contender(result.getParams()), key -> new ArrayList<>())
						.addAll(iterationScores(result));
				}
			}
		}
		if (baseline.isEmpty()) {
			throw new IllegalStateException("The baseline of the paced benchmark did not run");
		}
		Samples base = new Samples(baseline);
		this.out.printf("## Uncontended cost per call, paced under the 4,096 IDs/ms cap, nanoseconds%n%n");
		this.out.printf("Each call follows %d tokens of Blackhole.consumeCPU (the baseline row measures those "
				+ "alone); cost = paced − baseline. %s; medians of %d iterations.%n%n", PacedCallBenchmark.PACE_TOKENS,
				describeRepetition(this.iterations), this.rounds * this.iterations);
		Samples hutool = paced.containsKey(Contender.HUTOOL_SNOWFLAKE)
				? new Samples(paced.get(Contender.HUTOOL_SNOWFLAKE)) : null;
		double hutoolCost = (hutool != null) ? hutool.median() - base.median() : 0;
		MarkdownTable table = new MarkdownTable("generator", "paced ns/op", "spread", "cost of the call, ns",
				"cost ÷ hutool-snowflake's");
		table.row("baseline (busy work only)", String.format("%.1f", base.median()),
				String.format("%.1f%%", base.spreadPercent()), "", "");
		for (Map.Entry<Contender, List<Double>> entry : paced.entrySet()) {
			Samples samples = new Samples(entry.getValue());
			double cost = samples.median() - base.median();
			table.row(entry.getKey().label(), String.format("%.1f", samples.median()),
					String.format("%.1f%%", samples.spreadPercent()), String.format("%.1f", cost),
					(hutoolCost > 0) ? String.format("%.2f", cost / hutoolCost) : "n/a");
		}
		table.print(this.out);
		printMeterPrice(paced, base);
	}

	/**
	 * For each generator measured both bare and with the starter's meters bound, the paced cost of a call side by
	 * side: what binding the meters (and reading them every 10 ms) adds to one {@code getUID}.
	 */
	private void printMeterPrice(Map<Contender, List<Double>> paced, Samples base) {
		MarkdownTable table = new MarkdownTable("generator", "settings", "bare: cost of the call, ns", "spread",
				"meters bound: cost, ns", "spread", "meters bound − bare, ns")
			.leftAligned(1);
		boolean any = false;
		for (Contender plain : paced.keySet()) {
			List<Double> bare = paced.get(plain);
			List<Double> metered = paced.get(meteredTwin(plain));
			if (metered == null) {
				continue;
			}
			Samples bareSamples = new Samples(bare);
			Samples meteredSamples = new Samples(metered);
			table.row(plain.label(), plain.settings(),
					String.format("%.1f", bareSamples.median() - base.median()),
					String.format("%.1f%%", bareSamples.spreadPercent()),
					String.format("%.1f", meteredSamples.median() - base.median()),
					String.format("%.1f%%", meteredSamples.spreadPercent()),
					String.format("%+.1f", meteredSamples.median() - bareSamples.median()));
			any = true;
		}
		if (!any) {
			return;
		}
		this.out.printf("## Price of the meters: one getUID with the starter's UidMeterBinder bound, paced%n%n");
		this.out.printf("The same paced runs as above: each metered generator has the starter's UidMeterBinder bound "
				+ "to a SimpleMeterRegistry whose every meter a thread reads every 10 ms, far more often than any scrape. "
				+ "Costs are paced − baseline; a difference within the spreads is noise.%n%n");
		table.print(this.out);
	}

	/**
	 * Bytes allocated per getUID (and per bare ring take) with JMH's GC profiler.
	 */
	void allocation(List<Contender> contenders, int threads) throws Exception {
		progress("allocation (-prof gc)");
		List<RunResult> results = new ArrayList<>(new Runner(options(GET_UID, "alloc.log", this.iterations)
			.param("contender", names(contenders))
			.threads(threads)
			.addProfiler(GCProfiler.class)
			.build()).run());
		results.addAll(new Runner(options("\\.RingBufferBenchmark\\.", "alloc-ring.log", this.iterations).threads(1)
			.addProfiler(GCProfiler.class)
			.build()).run());
		this.out.printf("## Allocation per call (JMH -prof gc, %d thread%s, one fork each)%n%n", threads,
				(threads == 1) ? "" : "s");
		MarkdownTable table = new MarkdownTable("benchmark", "ops/s", "gc.alloc.rate.norm (B/op)",
				"gc.alloc.rate (MB/s)", "GCs during measurement");
		for (RunResult result : results) {
			BenchmarkParams params = result.getParams();
			String name = params.getBenchmark().substring(params.getBenchmark().lastIndexOf('.') + 1);
			String label = (params.getParam("contender") != null) ? "getUID, " + contender(params).label()
					: "RingBuffer." + name;
			Map<String, Result> secondary = result.getAggregatedResult().getSecondaryResults();
			table.row(label, MarkdownTable.millions(result.getPrimaryResult().getScore()),
					score(secondary, "gc.alloc.rate.norm", "%.4f"), score(secondary, "gc.alloc.rate", "%.3f"),
					score(secondary, "gc.count", "%.0f"));
		}
		table.print(this.out);
		this.out.printf("JMH 1.37 on JDK 17 reads the JVM-wide allocated bytes, so the figure includes the filler "
				+ "and high-water-mark threads and JMH's own bookkeeping, spread over all calls.%n%n");
	}

	/** The same generator with the starter's meters bound, or {@code null} when there is none. */
	private static Contender meteredTwin(Contender bare) {
		return switch (bare) {
			case UID_DEFAULT -> Contender.UID_DEFAULT_METERED;
			case UID_CACHED -> Contender.UID_CACHED_METERED;
			case UID_CACHED_DEFAULTS -> Contender.UID_CACHED_DEFAULTS_METERED;
			case UID_SEGMENT -> Contender.UID_SEGMENT_METERED;
			default -> null;
		};
	}

	private static String score(Map<String, Result> secondary, String key, String format) {
		Result result = secondary.get(key);
		return (result != null) ? String.format(format, result.getScore()) : "n/a";
	}

	private static Contender contender(BenchmarkParams params) {
		return Contender.valueOf(params.getParam("contender"));
	}

	private static List<Double> iterationScores(RunResult result) {
		List<Double> scores = new ArrayList<>();
		for (BenchmarkResult fork : result.getBenchmarkResults()) {
			for (IterationResult iteration : fork.getIterationResults()) {
				scores.add(iteration.getPrimaryResult().getScore());
			}
		}
		return scores;
	}

	private static double secondarySum(RunResult result, String key) {
		double sum = 0;
		for (BenchmarkResult fork : result.getBenchmarkResults()) {
			for (IterationResult iteration : fork.getIterationResults()) {
				Result secondary = iteration.getSecondaryResults().get(key);
				if (secondary != null) {
					sum += secondary.getScore();
				}
			}
		}
		return sum;
	}

	private static String ns(double value) {
		return String.format("%,.0f", value);
	}

	private void progress(String what) {
		System.err.printf("[%tT] JMH: %s (details in %s)%n", System.currentTimeMillis(), what, this.logDir);
	}

}
