package io.github.uidgen.buffer;

import java.util.concurrent.atomic.AtomicLong;

import io.github.uidgen.UidException;

/**
 * Takes IDs from a {@link RingBuffer} a run at a time: a thread claims a short run of consecutive IDs with one
 * compare-and-set on the ring's take cursor and hands out the rest of the run from memory only it writes. Most
 * takes then touch no shared state, so takers on different cores stop fighting over one cursor.
 *
 * <p>Runs live in a small table indexed by thread ID, each slot owned by one thread at a time: a thread whose slot
 * another live thread owns takes from the ring directly, as every thread did before. (A {@code ThreadLocal} would
 * cost more than the take it saves.) A slot whose owner has ended is taken over, and its run dropped.
 *
 * <p>A run is only as good as the ring it came from: {@link RingBuffer#discardAll()}, {@link RingBuffer#seal()}
 * and {@link RingBuffer#expireRuns()} move the ring's run generation on, and a run of an older generation is
 * dropped, never handed out from, so withdrawn, stale and sealed IDs stay withdrawn. The IDs a dropped run still
 * held are skipped: gaps, never repeats. Each thread's IDs keep increasing, as its runs are claimed in ring order.
 *
 * <p>Runs start at one ID and double each time one is used up, up to {@value #MAX_RUN}; a run dropped unused
 * starts the thread over at one, so a thread that asks rarely holds and wastes little. Virtual threads (Java 21
 * and later) take from the ring directly: each would claim a run for a single call.
 */
public final class ThreadRuns {

	/** The longest run a thread claims at once. */
	public static final int MAX_RUN = 64;

	/** Slots in the table of runs: threads whose IDs differ by a multiple of this share a slot. */
	static final int SLOTS = 64;

	private static final Class<?> VIRTUAL_THREAD = virtualThreadClass();

	private final RingBuffer ring;

	private final int maxRun;

	private final Run[] runs = new Run[SLOTS];

	/** The ring's run generation, held here so that a take reads nothing of the ring itself. */
	private final PaddedCursor generation;

	private final AtomicLong unused = new AtomicLong();

	/**
	 * Creates runs over a ring.
	 * @param ring the ring to claim runs from
	 * @param maxRun the longest run, 1 to {@value #MAX_RUN}; 1 takes every ID from the ring on its own
	 */
	public ThreadRuns(RingBuffer ring, int maxRun) {
		if (maxRun < 1 || maxRun > MAX_RUN) {
			throw new IllegalArgumentException("A run must be 1 to " + MAX_RUN + " IDs long, was " + maxRun);
		}
		this.ring = ring;
		this.maxRun = maxRun;
		this.generation = ring.runGenerationCursor();
		for (int i = 0; i < SLOTS; i++) {
			this.runs[i] = new Run();
		}
	}

	/**
	 * Takes the next ID of the calling thread's run, claiming a new run when it is used up or no longer good; on an
	 * empty ring, the ring's {@link RejectedTakeHandler} decides.
	 * @return an ID
	 * @throws UidException when the take handler gives up
	 */
	public long take() {
		Thread thread = Thread.currentThread();
		Run run = this.runs[(int) thread.getId() & (SLOTS - 1)];
		if (run.owner == thread) {
			long next = run.next;
			if (next < run.end && run.generation == this.generation.get()) {
				run.next = next + 1;
				return next;
			}
			return claim(run);
		}
		return takeOver(run, thread);
	}

	/** The calling thread does not own its slot: takes the slot if it is free or its owner has ended. */
	private long takeOver(Run run, Thread thread) {
		if (this.maxRun == 1 || thread.getClass() == VIRTUAL_THREAD) {
			return this.ring.take();
		}
		Thread owner = run.owner;
		// An owner that has ended made its last writes visible to whoever sees it ended.
		if ((owner == null || !owner.isAlive()) && run.tryOwn(owner, thread)) {
			run.end = run.next;
			run.length = 1;
			return claim(run);
		}
		return this.ring.take();
	}

	private long claim(Run run) {
		long left = run.end - run.next;
		if (left > 0) {
			this.unused.addAndGet(left);
			run.length = 1;
		}
		else if (run.length < this.maxRun) {
			run.length <<= 1;
		}
		run.end = run.next;
		// Read before the claim: a withdrawal after this read moves the generation past the run's.
		long generation = this.generation.get();
		if (!this.ring.tryTakeRun(run, run.length)) {
			return this.ring.take();
		}
		run.generation = generation;
		return run.next++;
	}

	/**
	 * Returns how many IDs taken from the ring were handed out or still wait in a thread's run.
	 * @return the ring's taken count less the IDs of dropped runs
	 */
	public long takenCount() {
		return this.ring.takenCount() - this.unused.get();
	}

	private static Class<?> virtualThreadClass() {
		try {
			return Class.forName("java.lang.VirtualThread");
		}
		catch (ClassNotFoundException ex) {
			return null;
		}
	}

}
