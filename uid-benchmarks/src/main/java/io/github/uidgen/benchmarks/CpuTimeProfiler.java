package io.github.uidgen.benchmarks;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.List;

import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

/**
 * CPU time per operation of JMH's worker threads ({@code -prof io.github.uidgen.benchmarks.CpuTimeProfiler}): on a
 * machine shared with other builds a benchmark thread waits for a core most of the time, so operations a second
 * measure the load; operations per second of the workers' own CPU time do not (only a little, through caches the
 * other processes share), and bound from below what a quiet core does. The hardware counters of
 * {@code -prof perfnorm} are not available on this virtual machine.
 */
public final class CpuTimeProfiler implements InternalProfiler {

	private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

	private long workersCpuBefore;

	@Override
	public String getDescription() {
		return "CPU time of the JMH worker threads per operation";
	}

	@Override
	public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
		this.workersCpuBefore = workersCpu();
	}

	@Override
	public List<Result> afterIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams,
			IterationResult result) {
		long ops = result.getMetadata().getMeasuredOps();
		long cpu = workersCpu() - this.workersCpuBefore;
		if (ops <= 0 || cpu <= 0) {
			return List.of();
		}
		return List.of(new ScalarResult("cpu.ns/op", (double) cpu / ops, "ns/op", AggregationPolicy.AVG),
				new ScalarResult("ops/cpu-s", ops * 1e9 / cpu, "ops/s", AggregationPolicy.AVG));
	}

	/**
	 * CPU time of the live worker threads. JMH keeps its workers from one iteration to the next, and warm-up and
	 * synchronisation of iterations run on them too, which counts against the benchmark: the figure errs slow.
	 */
	private static long workersCpu() {
		long total = 0;
		for (ThreadInfo thread : THREADS.getThreadInfo(THREADS.getAllThreadIds())) {
			if (thread != null && thread.getThreadName().contains("jmh-worker")) {
				long cpu = THREADS.getThreadCpuTime(thread.getThreadId());
				total += Math.max(0, cpu);
			}
		}
		return total;
	}

}
