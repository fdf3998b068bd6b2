package io.github.uidgen.benchmarks;

import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * One generator shared by all benchmark threads, asked for IDs back to back: throughput by default, latency
 * percentiles when run in {@link Mode#SampleTime}.
 *
 * <p>A call that throws is retried until it returns an ID, so an operation is always one ID obtained; the
 * throws are counted separately as the {@code threw} counter.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class GetUidBenchmark {

	@Param({ "UID_CACHED" })
	public Contender contender;

	private IdSource source;

	@Setup(Level.Trial)
	public void start() {
		this.source = this.contender.open();
	}

	@TearDown(Level.Trial)
	public void stop() {
		this.source.close();
	}

	@Benchmark
	public long getUid(Throws throwsCounter) {
		for (;;) {
			try {
				return this.source.nextId();
			}
			catch (RuntimeException ex) {
				throwsCounter.threw++;
			}
		}
	}

	/**
	 * Counts, per thread, the calls that threw instead of returning an ID.
	 */
	@State(Scope.Thread)
	@AuxCounters(AuxCounters.Type.EVENTS)
	public static class Throws {

		public long threw;

	}

}
