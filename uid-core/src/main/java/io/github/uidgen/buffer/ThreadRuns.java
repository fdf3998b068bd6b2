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

	/** IDs claimed into runs and dropped before they were handed out. */
	private final AtomicLong dropped = new AtomicLong();

	/** The highest count reported so far: a count read while threads take never goes back. */
	private final AtomicLong reportedTaken = new AtomicLong();

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
		// An owner that has ended made its last writes visible to whoever sees it ended; what it left in its run is
		// dropped by the claim.
		if ((owner == null || !owner.isAlive()) && run.tryOwn(owner, thread)) {
			run.length = 1;
			return claim(run);
		}
		return this.ring.take();
	}

	private long claim(Run run) {
		long left = run.end - run.next;
		if (left > 0) {
			// Counted as dropped before the run lets go of them, so a count read meanwhile never counts them twice.
			this.dropped.addAndGet(left);
			run.length = 1;
		}
		else if (run.length < this.maxRun) {
			run.length <<= 1;
		}
		// Read before the claim: a withdrawal after this read moves the generation past the run's.
		long generation = this.generation.get();
		if (!this.ring.tryTakeRun(run, run.length)) {
			run.end = run.next;
			return this.ring.take();
		}
		run.generation = generation;
		return run.next++;
	}

	/**
	 * Returns how many IDs were handed out, from runs or from the ring directly: exact while no thread takes, and
	 * never more than were handed out (nor less than an earlier answer) while they do.
	 * @return the ring's taken count less the IDs still waiting in runs and the IDs of dropped runs
	 */
	public long takenCount() {
		// In this order, against the order in which claims move IDs (into a run before the ring's count, out of a
		// run after the dropped count): a claim under way makes the count low, never high.
		long taken = this.ring.takenCount();
		long waiting = 0;
		for (Run run : this.runs) {
			waiting += run.waiting();
		}
		long count = taken - waiting - this.dropped.get();
		return this.reportedTaken.accumulateAndGet(count, Math::max);
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
