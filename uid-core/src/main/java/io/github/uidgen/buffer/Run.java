package io.github.uidgen.buffer;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/** Cache-line padding before a run's fields; see {@link Run}. */
abstract class RunLeftPadding {

	long p01, p02, p03, p04, p05, p06, p07;

}

/** A run's fields, between two runs of padding. */
abstract class RunFields extends RunLeftPadding {

	/** The one thread that may use the other fields; set by compare-and-set only. */
	volatile Thread owner;

	long next;

	long end;

	long generation;

	/** How many IDs the next claim asks for. */
	int length = 1;

}

/**
 * One slot of {@link ThreadRuns}: a run of consecutive IDs claimed from the ring at once, {@code next} up to
 * (excluding) {@code end}, good while the ring's run generation is still {@code generation}. Only its owner thread
 * touches the run. Padded on both sides, so that two threads' runs never share a cache line.
 */
final class Run extends RunFields {

	long p11, p12, p13, p14, p15, p16, p17;

	private static final VarHandle OWNER;

	private static final VarHandle NEXT;

	static {
		try {
			OWNER = MethodHandles.lookup().findVarHandle(RunFields.class, "owner", Thread.class);
			NEXT = MethodHandles.lookup().findVarHandle(RunFields.class, "next", long.class);
		}
		catch (ReflectiveOperationException ex) {
			throw new ExceptionInInitializerError(ex);
		}
	}

	boolean tryOwn(Thread expected, Thread thread) {
		return OWNER.compareAndSet(this, expected, thread);
	}

	/**
	 * Sets the run to IDs about to be claimed, before the claim, so that a count read meanwhile finds them waiting
	 * here rather than missing from both the ring and the run.
	 */
	void prepare(long first, long count) {
		this.end = first + count;
		NEXT.setRelease(this, first);
	}

	/**
	 * How many IDs wait in this run, read from another thread: at least as many as actually wait while the owner
	 * moves to a new run (the IDs of a later run only ever lie above those of an earlier one).
	 */
	long waiting() {
		long next = (long) NEXT.getAcquire(this);
		return Math.max(0, this.end - next);
	}

}
