package io.github.uidgen.benchmarks;

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
 * ratios of ours to each peer, all from the same run. JMH's own detailed output goes to a log file.
 */
final class JmhSuite {

	private static final String[] JVM_ARGS = { "-Xms1g", "-Xmx1g" };

	private final Path logDir;

	private final int forks;

	private final int warmupIterations;

	private final int iterations;

	private final PrintStream out;

	JmhSuite(Path logDir, int forks, int warmupIterations, int iterations, PrintStream out) {
		this.logDir = logDir;
		this.forks = forks;
		this.warmupIterations = warmupIterations;
		this.iterations = iterations;
		this.out = out;
	}

	private ChainedOptionsBuilder options(String include, String log) throws java.io.IOException {
		return options(include, log, this.forks, this.iterations);
	}

	private ChainedOptionsBuilder options(String include, String log, int forkCount, int iterationCount)
			throws java.io.IOException {
		Files.createDirectories(this.logDir);
		return new OptionsBuilder().include(include)
			.forks(forkCount)
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

	/**
	 * Throughput of every contender at each thread count, then the ratios of ours to each peer.
	 */
	void throughput(List<Contender> contenders, List<Integer> threadCounts) throws Exception {
		Map<Contender, Map<Integer, Samples>> scores = new LinkedHashMap<>();
		Map<Contender, Map<Integer, Long>> threw = new LinkedHashMap<>();
		for (int threads : threadCounts) {
			progress("throughput, " + threads + " thread(s)");
			Collection<RunResult> results = new Runner(options("\\.GetUidBenchmark\\.getUid$", "throughput-" + threads
					+ "t.log").param("contender", names(contenders))
				.threads(threads)
				.mode(Mode.Throughput)
				.timeUnit(TimeUnit.SECONDS)
				.build()).run();
			for (RunResult result : results) {
				Contender contender = contender(result.getParams());
				scores.computeIfAbsent(contender, key -> new LinkedHashMap<>()).put(threads, iterationScores(result));
				threw.computeIfAbsent(contender, key -> new LinkedHashMap<>())
					.put(threads, (long) secondarySum(result, "threw"));
			}
		}
		this.out.printf("## Throughput: getUID on one shared generator, IDs per second%n%n");
		this.out.printf("JMH %s forks × %s measured iterations of 1 s (after %s warm-up iterations) per cell; the "
				+ "cell is the median of those %d iterations, the spread is (max − min) / median.%n%n", this.forks,
				this.iterations, this.warmupIterations, this.forks * this.iterations);
		List<String> headers = new ArrayList<>(List.of("generator"));
		for (int threads : threadCounts) {
			headers.add(threads + " thread" + ((threads == 1) ? "" : "s"));
			headers.add("spread");
		}
		headers.add("calls that threw");
		MarkdownTable figures = new MarkdownTable(headers.toArray(String[]::new));
		for (Map.Entry<Contender, Map<Integer, Samples>> entry : scores.entrySet()) {
			List<Object> row = new ArrayList<>(List.of(entry.getKey().label()));
			long thrown = 0;
			for (int threads : threadCounts) {
				Samples samples = entry.getValue().get(threads);
				row.add(MarkdownTable.millions(samples.median()));
				row.add(String.format("%.0f%%", samples.spreadPercent()));
				thrown += threw.get(entry.getKey()).get(threads);
			}
			row.add(String.format("%,d", thrown));
			figures.row(row.toArray());
		}
		figures.print(this.out);
		printRatios(scores, threadCounts);
		printCeilings(scores, threadCounts);
	}

	private void printRatios(Map<Contender, Map<Integer, Samples>> scores, List<Integer> threadCounts) {
		List<Contender> ours = List.of(Contender.UID_CACHED, Contender.UID_DEFAULT);
		List<String> headers = new ArrayList<>(List.of("peer"));
		for (Contender mine : ours) {
			if (!scores.containsKey(mine)) {
				continue;
			}
			for (int threads : threadCounts) {
				headers.add(mine.label() + " ÷ peer, " + threads + "t");
			}
		}
		if (headers.size() == 1) {
			return;
		}
		this.out.printf("### Ratios of ours to each peer (medians of the same run)%n%n");
		MarkdownTable ratios = new MarkdownTable(headers.toArray(String[]::new));
		for (Contender peer : scores.keySet()) {
			if (ours.contains(peer)) {
				continue;
			}
			List<Object> row = new ArrayList<>(List.of(peer.label()));
			for (Contender mine : ours) {
				if (!scores.containsKey(mine)) {
					continue;
				}
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
				"median IDs/s", "of ceiling");
		boolean any = false;
		for (Map.Entry<Contender, Map<Integer, Samples>> entry : scores.entrySet()) {
			long ceiling = entry.getKey().ceilingPerSecond();
			if (ceiling <= 0) {
				continue;
			}
			for (int threads : threadCounts) {
				double median = entry.getValue().get(threads).median();
				table.row(entry.getKey().label(), MarkdownTable.millions(ceiling) + "/s", threads,
						MarkdownTable.millions(median), String.format("%.1f%%", 100 * median / ceiling));
				any = true;
			}
		}
		if (any) {
			this.out.printf("### Layout-capped generators against their ceiling%n%n");
			table.print(this.out);
		}
	}

	/**
	 * Latency percentiles of single getUID calls (JMH sample mode).
	 */
	void latency(List<Contender> contenders, int threads) throws Exception {
		progress("latency (sample mode), " + threads + " thread(s)");
		int latencyIterations = Math.max(1, this.iterations - 2);
		Collection<RunResult> results = new Runner(options("\\.GetUidBenchmark\\.getUid$", "latency-" + threads
				+ "t.log", this.forks, latencyIterations).param("contender", names(contenders))
			.threads(threads)
			.mode(Mode.SampleTime)
			.timeUnit(TimeUnit.NANOSECONDS)
			.build()).run();
		this.out.printf("## Latency of getUID, %d thread%s, nanoseconds (JMH sample mode)%n%n", threads,
				(threads == 1) ? "" : "s");
		this.out.printf("Samples of %d forks × %d iterations of 1 s pooled per row.%n%n", this.forks,
				latencyIterations);
		MarkdownTable table = new MarkdownTable("generator", "samples", "p50", "p90", "p99", "p99.9", "p99.99",
				"max");
		for (RunResult result : results) {
			Statistics stats = result.getPrimaryResult().getStatistics();
			table.row(contender(result.getParams()).label(), String.format("%,d", stats.getN()),
					ns(stats.getPercentile(50)), ns(stats.getPercentile(90)), ns(stats.getPercentile(99)),
					ns(stats.getPercentile(99.9)), ns(stats.getPercentile(99.99)), ns(stats.getMax()));
		}
		table.print(this.out);
		this.out.printf("Sample mode times single calls with System.nanoTime, so figures near 20–30 ns are "
				+ "dominated by the timer itself; the cap of 4,096 IDs/ms shows as the tail of the Snowflakes.%n%n");
	}

	/**
	 * The uncontended cost of one call for generators capped at 4,096 IDs/ms, paced under the cap.
	 */
	void pacedCost(List<Contender> contenders) throws Exception {
		progress("paced uncontended cost per call");
		Collection<RunResult> results = new Runner(options("\\.PacedCallBenchmark\\.", "paced.log")
			.param("contender", names(contenders))
			.threads(1)
			.build()).run();
		Samples baseline = null;
		Map<Contender, Samples> paced = new LinkedHashMap<>();
		for (RunResult result : results) {
			if (result.getParams().getBenchmark().endsWith(".baseline")) {
				baseline = iterationScores(result);
			}
			else {
				paced.put(contender(result.getParams()), iterationScores(result));
			}
		}
		if (baseline == null) {
			throw new IllegalStateException("The baseline of the paced benchmark did not run");
		}
		this.out.printf("## Uncontended cost per call, paced under the 4,096 IDs/ms cap, nanoseconds%n%n");
		this.out.printf("Each call follows %d tokens of Blackhole.consumeCPU (baseline below); cost = paced − "
				+ "baseline, medians of %d iterations each.%n%n", PacedCallBenchmark.PACE_TOKENS,
				this.forks * this.iterations);
		Samples reference = paced.get(Contender.HUTOOL_SNOWFLAKE);
		MarkdownTable table = new MarkdownTable("generator", "paced ns/op", "spread", "cost of the call, ns",
				"cost ÷ hutool-snowflake's");
		table.row("baseline (busy work only)", String.format("%.1f", baseline.median()),
				String.format("%.1f%%", baseline.spreadPercent()), "", "");
		for (Map.Entry<Contender, Samples> entry : paced.entrySet()) {
			double cost = entry.getValue().median() - baseline.median();
			double referenceCost = (reference != null) ? reference.median() - baseline.median() : 0;
			table.row(entry.getKey().label(), String.format("%.1f", entry.getValue().median()),
					String.format("%.1f%%", entry.getValue().spreadPercent()), String.format("%.1f", cost),
					(referenceCost > 0) ? String.format("%.2f", cost / referenceCost) : "n/a");
		}
		table.print(this.out);
	}

	/**
	 * Bytes allocated per getUID (and per bare ring take) with JMH's GC profiler.
	 */
	void allocation(List<Contender> contenders, int threads) throws Exception {
		progress("allocation (-prof gc)");
		List<RunResult> results = new ArrayList<>(new Runner(options("\\.GetUidBenchmark\\.getUid$", "alloc.log", 1,
				this.iterations)
			.param("contender", names(contenders))
			.threads(threads)
			.addProfiler(GCProfiler.class)
			.build()).run());
		results.addAll(new Runner(options("\\.RingBufferBenchmark\\.", "alloc-ring.log", 1, this.iterations).threads(1)
			.addProfiler(GCProfiler.class)
			.build()).run());
		this.out.printf("## Allocation per call (JMH -prof gc, %d thread%s)%n%n", threads, (threads == 1) ? "" : "s");
		MarkdownTable table = new MarkdownTable("benchmark", "ops/s", "gc.alloc.rate.norm (B/op)",
				"gc.alloc.rate (MB/s)", "GCs during measurement");
		for (RunResult result : results) {
			BenchmarkParams params = result.getParams();
			String name = params.getBenchmark().substring(params.getBenchmark().lastIndexOf('.') + 1);
			String label = (params.getParam("contender") != null)
					? "getUID, " + contender(params).label() : "RingBuffer." + name;
			Map<String, Result> secondary = result.getAggregatedResult().getSecondaryResults();
			table.row(label, MarkdownTable.millions(result.getPrimaryResult().getScore()),
					score(secondary, "gc.alloc.rate.norm", "%.4f"), score(secondary, "gc.alloc.rate", "%.3f"),
					score(secondary, "gc.count", "%.0f"));
		}
		table.print(this.out);
		this.out.printf("JMH 1.37 on JDK 17 reads the JVM-wide allocated bytes, so the figure includes the filler "
				+ "and high-water-mark threads and JMH's own bookkeeping, spread over all calls.%n%n");
	}

	private static String score(Map<String, Result> secondary, String key, String format) {
		Result result = secondary.get(key);
		return (result != null) ? String.format(format, result.getScore()) : "n/a";
	}

	private static Contender contender(BenchmarkParams params) {
		return Contender.valueOf(params.getParam("contender"));
	}

	private static Samples iterationScores(RunResult result) {
		List<Double> scores = new ArrayList<>();
		for (BenchmarkResult fork : result.getBenchmarkResults()) {
			for (IterationResult iteration : fork.getIterationResults()) {
				scores.add(iteration.getPrimaryResult().getScore());
			}
		}
		return new Samples(scores);
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
