package io.github.uidgen.benchmarks;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

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
		List<Double> getUid = new ArrayList<>();
		List<Double> nextId = new ArrayList<>();
		for (int round = 0; round < rounds; round++) {
			for (String method : List.of("getUid", "nextId")) {
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
				double score = results.iterator().next().getPrimaryResult().getScore();
				(method.equals("getUid") ? getUid : nextId).add(score);
			}
		}
		out.printf("## MyBatis-Plus: UidIdentifierGenerator.nextId against UidGenerator.getUID()%n%n");
		out.printf("1 thread, the wide cached generator of uid-cached; %d rounds (each one JMH fork of both in turn) "
				+ "× %d measured iterations of 1 s after %d warm-up iterations; median of the rounds, "
				+ "[lowest, highest].%n%n", rounds, iterations, warmup);
		new MarkdownTable("call", "calls/s", "range", "nextId / getUID").leftAligned(0)
			.row("`UidGenerator.getUID()`", MarkdownTable.millions(median(getUid)), range(getUid), "")
			.row("`UidIdentifierGenerator.nextId(entity)`", MarkdownTable.millions(median(nextId)), range(nextId),
					MarkdownTable.ratio(median(nextId), median(getUid)))
			.print(out);
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
