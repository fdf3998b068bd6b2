package io.github.uidgen.buffer;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/** Cache-line padding before a run's fields; see {@link Run}. */
abstract class RunLeftPadding {

	long p01, p02, p03, p04, p05, p06, p07;

}

/** A run's fields, between two runs of padding. */
abstract class RunFields extends RunLeftPadding {

	/**
	 * The one thread that may use the other fields: for a run owned by a thread, that thread for as long as it
	 * lives; for a shared run, the thread taking from it right now, {@code null} between takes. Set by
	 * compare-and-set only.
	 */
	volatile Thread owner;

	/**
	 * The {@linkplain Thread#getId() ID} of the thread that owns the run for its lifetime, written by that thread
	 * once it has won {@code owner}: thread IDs are never reused, so a thread that finds its own ID here owns the run
	 * without reading {@code owner}.
	 */
	long ownerId = Run.NO_OWNER;

	/** The next ID to hand out; written by the owner only. */
	long next;

	/** Where the run ends (excluding), for counting what it still holds; written by the owner only. */
	long end;

	/**
	 * Where taking stops: {@code end} while the run is good, {@link Run#DROPPED} once it must not hand out more. The
	 * owner sets it to {@code end} when it claims a run; whoever withdraws IDs sets it to {@link Run#DROPPED}.
	 */
	volatile long stop = Run.DROPPED;

	/** How many IDs the next claim asks for. */
	int length;

}

/**
 * One slot of {@link ThreadRuns}: a run of consecutive IDs claimed from the ring at once, {@code next} up to
 * (excluding) {@code stop}. Only its owner thread takes from it; other threads may only drop it, by setting
 * {@code stop}, which the owner then sees on its next take. Padded on both sides, so that two threads' runs never
 * share a cache line.
 */
final class Run extends RunFields {

	/** The stop of a run that hands out nothing more: below every ID. */
	static final long DROPPED = Long.MIN_VALUE;

	/** The owner ID of a run no thread owns for its lifetime: no thread has it. */
	static final long NO_OWNER = Long.MIN_VALUE;

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

	Run(int firstLength) {
		this.length = firstLength;
	}

	boolean tryOwn(Thread expected, Thread thread) {
		return OWNER.compareAndSet(this, expected, thread);
	}

	/** Lets go of a shared run after a take, publishing what the take wrote to the next thread that takes it. */
	void release() {
		OWNER.setRelease(this, null);
	}

	/**
	 * Sets the run to IDs about to be claimed, before the claim, so that a count read meanwhile finds them waiting
	 * here rather than missing from both the ring and the run. Takes stay stopped until the claim succeeds.
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
		long first = (long) NEXT.getAcquire(this);
		return Math.max(0, this.end - first);
	}

	/**
	 * Whether this run may still hand out an ID below {@code uid}, read from another thread.
	 */
	boolean holdsBelow(long uid) {
		long first = (long) NEXT.getAcquire(this);
		return first < uid && first < this.stop;
	}

}
