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

import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * The JMH row of the MyBatis-Plus generator: {@code nextId} against {@code getUID()} on one thread, the two
 * benchmarks taking turns fork by fork so load from elsewhere lowers both alike.
 */
final class MybatisPlusCost {

	private MybatisPlusCost() {
	}

	static void run(Path logDir, int rounds, int warmup, int iterations, PrintStream out)
			throws IOException, RunnerException {
		Files.createDirectories(logDir);
		Map<String, List<Double>> scores = new LinkedHashMap<>();
		for (String method : METHODS.keySet()) {
			scores.put(method, new ArrayList<>());
		}
		for (int round = 0; round < rounds; round++) {
			for (String method : METHODS.keySet()) {
				Collection<RunResult> results = new Runner(new OptionsBuilder()
					.include("\\.MybatisPlusIdBenchmark\\." + method + "$")
					.forks(1)
					.threads(1)
					.warmupIterations(warmup)
					.warmupTime(TimeValue.seconds(1))
					.measurementIterations(iterations)
					.measurementTime(TimeValue.seconds(1))
					.jvmArgsAppend("-Xms1g", "-Xmx1g")
					.output(logDir.resolve("mybatis-plus-" + method + "-" + round + ".log").toString())
					.build()).run();
				scores.get(method).add(results.iterator().next().getPrimaryResult().getScore());
			}
		}
		out.printf("## MyBatis-Plus: UidIdentifierGenerator.nextId against UidGenerator.getUID()%n%n");
		out.printf("1 thread, the wide cached generator of uid-cached; %d rounds (each one JMH fork of every call in "
				+ "turn) × %d measured iterations of 1 s after %d warm-up iterations; median of the rounds, "
				+ "[lowest, highest].%n%n", rounds, iterations, warmup);
		double plain = median(scores.get("getUid"));
		double boxed = median(scores.get("boxedGetUid"));
		MarkdownTable table = new MarkdownTable("call", "calls/s", "range", "/ getUID()", "/ Long.valueOf(getUID())")
			.leftAligned(0);
		scores.forEach((method, values) -> table.row(METHODS.get(method), MarkdownTable.millions(median(values)),
				range(values), MarkdownTable.ratio(median(values), plain), MarkdownTable.ratio(median(values), boxed)));
		table.print(out);
	}

	private static final Map<String, String> METHODS = new LinkedHashMap<>();

	static {
		METHODS.put("getUid", "`UidGenerator.getUID()`");
		METHODS.put("boxedGetUid", "`Long.valueOf(getUID())`: the `Number` MyBatis-Plus asks for");
		METHODS.put("nextId", "`UidIdentifierGenerator.nextId(entity)`");
		METHODS.put("mybatisPlusOwn", "MyBatis-Plus's own `DefaultIdentifierGenerator.nextId(entity)`");
	}

	static double median(List<Double> values) {
		List<Double> sorted = values.stream().sorted().toList();
		int middle = sorted.size() / 2;
		return (sorted.size() % 2 == 1) ? sorted.get(middle) : (sorted.get(middle - 1) + sorted.get(middle)) / 2;
	}

	private static String range(List<Double> values) {
		return "[" + MarkdownTable.millions(values.stream().mapToDouble(Double::doubleValue).min().orElse(0)) + ", "
				+ MarkdownTable.millions(values.stream().mapToDouble(Double::doubleValue).max().orElse(0)) + "]";
	}

}
