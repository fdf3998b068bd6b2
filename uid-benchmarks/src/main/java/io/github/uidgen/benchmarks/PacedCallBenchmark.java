package io.github.uidgen.benchmarks;

import java.util.concurrent.TimeUnit;

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
import org.openjdk.jmh.infra.Blackhole;

/**
 * The cost of one uncontended call to a generator whose layout caps it at 4,096 IDs per millisecond.
 *
 * <p>A tight loop would only measure the cap (1 ms / 4,096 = 244 ns per ID, whatever the call costs), so every
 * call here is paced by a fixed amount of busy work that keeps the rate under the cap; the call's own cost is the
 * paced figure minus the {@link #baseline()} figure of the busy work alone.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class PacedCallBenchmark {

	/** Busy work of roughly 400 ns on the project machine, safely above the 244 ns per ID of the cap. */
	public static final long PACE_TOKENS = 200;

	@Benchmark
	public void baseline() {
		Blackhole.consumeCPU(PACE_TOKENS);
	}

	@Benchmark
	public long paced(Generator generator) {
		Blackhole.consumeCPU(PACE_TOKENS);
		return generator.source.nextId();
	}

	/**
	 * The generator under test.
	 */
	@State(Scope.Benchmark)
	public static class Generator {

		@Param({ "UID_DEFAULT" })
		public Contender contender;

		IdSource source;

		@Setup(Level.Trial)
		public void start() {
			this.source = this.contender.open();
		}

		@TearDown(Level.Trial)
		public void stop() {
			this.source.close();
		}

	}

}
