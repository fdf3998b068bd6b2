package io.github.uidgen.buffer;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import io.github.uidgen.UidException;

/**
 * Takes IDs from a {@link RingBuffer} a run at a time: a thread claims a short run of consecutive IDs with one
 * compare-and-set on the ring's take cursor and hands out the rest of the run from memory only it writes. Most
 * takes then touch no shared state and cost a field increment and a comparison, so takers on different cores stop
 * fighting over one cursor.
 *
 * <p>Platform threads own runs in a small table indexed by thread ID, each slot owned by one thread for as long as
 * it lives (a {@code ThreadLocal} would cost more than the take it saves); a slot whose owner has ended is taken
 * over, and its run dropped. Virtual threads (Java 21 and later), and threads whose slot another live thread owns,
 * take from a second table of shared runs, each held by one thread for the length of one take (a compare-and-set
 * per ID, on a line no other core is likely to want), so many short-lived threads share runs instead of each
 * claiming its own. A thread waits for a shared run another thread is taking from rather than take from the ring
 * meanwhile: the ring's next ID lies above what the run still holds, and a thread's IDs must keep increasing.
 *
 * <p>A run is only as good as the ring it came from. When the ring's IDs are withdrawn
 * ({@link RingBuffer#discardAll()}, {@link RingBuffer#seal()}, a replacement of stale IDs), every run is stopped,
 * and a claim that raced with the withdrawal sees the ring's run generation moved on and stops its own run:
 * withdrawn, stale and sealed IDs stay withdrawn. The filler also stops runs that still hold IDs it has retired
 * from the ring for their age ({@link #dropBelow(long)}). What a stopped run still held is skipped: gaps, never
 * repeats. Each thread's IDs keep increasing, as its runs are claimed in ring order.
 *
 * <p>Runs start small and double each time one is used up, up to {@value #MAX_RUN}; a run dropped unused starts
 * over at one, so a thread that asks rarely holds and wastes little.
 */
public final class ThreadRuns {

	/** The longest run a thread claims at once. */
	public static final int MAX_RUN = 256;

	/** Slots in each table of runs: threads whose IDs differ by a multiple of this share a slot. */
	static final int SLOTS = 64;

	/** How often a thread spins, then yields, for a shared run another thread is taking from, before it parks. */
	private static final int SPINS = 100;

	private static final int YIELDS = 100;

	private static final long PARK_NANOS = 10_000;

	/** What a claim returns when the ring had nothing to claim, or its IDs were withdrawn meanwhile. */
	private static final long NOTHING = -1L;

	private static final Class<?> VIRTUAL_THREAD = virtualThreadClass();

	private final RingBuffer ring;

	private final int maxRun;

	/** Runs owned by one platform thread each, for its lifetime. */
	private final Run[] owned = new Run[SLOTS];

	/** Runs held by one thread at a time, for one take. */
	private final Run[] shared = new Run[SLOTS];

	/** The ring's run generation, moved on by every withdrawal; read by claims only. */
	private final PaddedCursor generation;

	/** IDs claimed into runs and dropped before they were handed out. */
	private final AtomicLong dropped = new AtomicLong();

	/** The highest count reported so far: a count read while threads take never goes back. */
	private final AtomicLong reportedTaken = new AtomicLong();

	/**
	 * Creates runs over a ring; a ring serves one set of runs.
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
			// An owned run's first claim already doubles (a thread that asks once usually asks again); a shared
			// run's first claim is of one ID, as the next taker may well be another short-lived thread.
			this.owned[i] = new Run(1);
			this.shared[i] = new Run(0);
		}
		ring.attach(this);
	}

	/**
	 * Takes the next ID of the calling thread's run, claiming a new run when it is used up or no longer good; on an
	 * empty ring, the ring's {@link RejectedTakeHandler} decides.
	 * @return an ID
	 * @throws UidException when the take handler gives up
	 */
	public long take() {
		long threadId = Thread.currentThread().getId();
		Run run = this.owned[(int) threadId & (SLOTS - 1)];
		if (run.ownerId == threadId) {
			long next = run.next;
			if (next < run.stop) {
				run.next = next + 1;
				return next;
			}
			return claimOrTakeFromRing(run);
		}
		return takeOver(run);
	}

	/** The calling thread does not own its slot: takes the slot if it is free or its owner has ended. */
	private long takeOver(Run run) {
		if (this.maxRun == 1) {
			return takeFromRing();
		}
		Thread thread = Thread.currentThread();
		if (thread.getClass() != VIRTUAL_THREAD) {
			Thread owner = run.owner;
			// An owner that has ended made its last writes visible to whoever sees it ended; what it left in its run
			// is dropped by the claim.
			if ((owner == null || !owner.isAlive()) && run.tryOwn(owner, thread)) {
				run.ownerId = thread.getId();
				run.stop = Run.DROPPED;
				run.length = 1;
				return claimOrTakeFromRing(run);
			}
		}
		return takeShared(thread);
	}

	private long claimOrTakeFromRing(Run run) {
		long uid = claim(run);
		return (uid != NOTHING) ? uid : takeFromRing();
	}

	private long takeFromRing() {
		return this.ring.take();
	}

	private long takeShared(Thread thread) {
		Run run = this.shared[(int) thread.getId() & (SLOTS - 1)];
		// Another thread is taking from it this very moment: wait for it (a take is a few nanoseconds) rather than
		// take from the ring, whose next ID lies above what the run still holds, which this thread may get next.
		for (int round = 0; !run.tryOwn(null, thread); round++) {
			if (round < SPINS) {
				Thread.onSpinWait();
			}
			else if (round < SPINS + YIELDS) {
				Thread.yield();
			}
			else {
				LockSupport.parkNanos(PARK_NANOS);
			}
		}
		long uid;
		try {
			long next = run.next;
			if (next < run.stop) {
				run.next = next + 1;
				return next;
			}
			uid = claim(run);
			if (uid == NOTHING) {
				// Still holding the run, so that no other thread claims the run from lower in the ring meanwhile:
				// this thread's next ID from it lies above this one.
				uid = this.ring.take();
			}
		}
		finally {
			run.release();
		}
		return uid;
	}

	/**
	 * Claims a new run for a run the calling thread holds and hands out its first ID.
	 * @return the ID, or {@link #NOTHING} when there was nothing to claim or the claim raced with a withdrawal
	 */
	private long claim(Run run) {
		long left = run.end - run.next;
		if (left > 0) {
			// Counted as dropped before the run lets go of them, so a count read meanwhile never counts them twice.
			this.dropped.addAndGet(left);
			run.length = 1;
		}
		else if (run.length < this.maxRun) {
			run.length = Math.max(1, run.length << 1);
		}
		// Read before the claim: a withdrawal after this read moves the generation past it.
		long generation = this.generation.get();
		if (!this.ring.tryTakeRun(run, run.length)) {
			run.end = run.next;
			run.stop = Run.DROPPED;
			return NOTHING;
		}
		run.stop = run.end;
		// A withdrawal that moved the generation before the run was good may have stopped the runs before this
		// one's stop was written: the claimed IDs may be withdrawn ones, so stop it again. One that moves it later
		// stops this run itself.
		if (this.generation.get() != generation) {
			run.stop = Run.DROPPED;
			return NOTHING;
		}
		return run.next++;
	}

	/** Stops every run: the ring's IDs were withdrawn. */
	void dropAll() {
		for (int i = 0; i < SLOTS; i++) {
			this.owned[i].stop = Run.DROPPED;
			this.shared[i].stop = Run.DROPPED;
		}
	}

	/**
	 * Stops every run that may still hand out an ID below {@code uid}.
	 * @param uid the lowest ID a run may still hand out
	 */
	void dropBelow(long uid) {
		for (int i = 0; i < SLOTS; i++) {
			dropIfBelow(this.owned[i], uid);
			dropIfBelow(this.shared[i], uid);
		}
	}

	private static void dropIfBelow(Run run, long uid) {
		// A run its owner replaces meanwhile may be stopped too: a gap, never a stale ID.
		if (run.holdsBelow(uid)) {
			run.stop = Run.DROPPED;
		}
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
		for (int i = 0; i < SLOTS; i++) {
			waiting += this.owned[i].waiting() + this.shared[i].waiting();
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
