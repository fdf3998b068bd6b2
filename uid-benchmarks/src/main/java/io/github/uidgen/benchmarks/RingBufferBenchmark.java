package io.github.uidgen.benchmarks;

import java.util.concurrent.TimeUnit;

import io.github.uidgen.buffer.FailFastTakeHandler;
import io.github.uidgen.buffer.RejectedPutHandler;
import io.github.uidgen.buffer.RingBuffer;
import io.github.uidgen.buffer.ThreadRuns;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * {@link RingBuffer#take()} on its own, with no filler thread: the benchmark thread refills half the ring with one
 * {@link RingBuffer#putRange(long, int)} every half-ring of takes. Shows the bare cost of a take of one ID (what a
 * thread does when its run could not be claimed) and, with {@code -prof gc}, that neither take nor put allocates.
 * The ring is the cached generator's at default settings: 32,768 IDs in runs of {@value ThreadRuns#MAX_RUN} a slot.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class RingBufferBenchmark {

	/** The ring size of the cached generator at default settings: 4,096 << 3. */
	private static final int CAPACITY = 1 << 15;

	private static final int HALF = CAPACITY / 2;

	private RingBuffer ring;

	private long nextUid;

	private int takenSinceFill;

	@Setup(Level.Trial)
	public void fill() {
		this.ring = new RingBuffer(CAPACITY, ThreadRuns.MAX_RUN, 50, RejectedPutHandler.KEEP_FOR_NEXT_FILL,
				new FailFastTakeHandler());
		this.nextUid += this.ring.putRange(this.nextUid, CAPACITY);
	}

	@Benchmark
	public long takeWithInlineRefill() {
		if (++this.takenSinceFill == HALF) {
			this.takenSinceFill = 0;
			this.nextUid += this.ring.putRange(this.nextUid, HALF);
		}
		return this.ring.take();
	}

}
