package io.github.uidgen.buffer;

import java.util.concurrent.atomic.AtomicLong;

import io.github.uidgen.UidException;

/**
 * A fixed ring of IDs with one filler and any number of takers.
 *
 * <p>Two ever-growing cursors, counted in IDs, describe it: {@code head}, the next position to put (everything below
 * it is published), and {@code tail}, the next position to take. A taker reads the ID at {@code tail} and then
 * claims it by advancing {@code tail} with compare-and-set, so two takers can never both get one ID, and a slot is
 * only overwritten once {@code tail} has moved past it, which makes a stale read lose its compare-and-set. Taking
 * allocates nothing and takes no lock.
 *
 * <p>Each slot holds a run of {@code idsPerSlot} consecutive IDs as its first ID (one long, 8 bytes), so the filler
 * writes one slot per run and a thread that claims a whole run into its {@link ThreadRuns} reads one slot. With one
 * ID per slot it is a plain ring of IDs. IDs go in strictly increasing order.
 *
 * <p>The slots hold twice the capacity, so that stale IDs can be {@linkplain #startReplacement() replaced} by fresh
 * ones without the ring ever looking empty to a taker: the fresh ones go in behind the stale ones first, then the
 * stale ones are dropped.
 *
 * <p>When a take leaves fewer than {@code paddingFactor} percent of the capacity filled, the ring asks its
 * {@link RingFiller} for an asynchronous refill. Full and empty rings are handed to the
 * {@link RejectedPutHandler} and {@link RejectedTakeHandler}.
 */
public final class RingBuffer {

	/** What {@link #tryTake()} returns for an empty ring; IDs are never negative. */
	public static final long EMPTY = -1L;

	/** The put cursor of a sealed ring: below every take cursor, so takes find it empty and puts publish nothing. */
	private static final long SEALED = Long.MIN_VALUE;

	private static final RingFiller NO_FILLER = new RingFiller() {

		@Override
		public void requestFill() {
		}

		@Override
		public UidException failure() {
			return null;
		}

		@Override
		public String describe() {
			return "no filler";
		}

	};

	/** Used by {@link #startReplacement()}'s counterpart while no replacement is under way. */
	private static final long NOT_REPLACING = Long.MIN_VALUE;

	/** The first ID of each run of {@code idsPerSlot}, for twice the capacity. */
	private final long[] slots;

	private final int slotMask;

	/** log2 of the IDs per slot: a position's slot is {@code position >>> slotShift}. */
	private final int slotShift;

	private final int idsPerSlot;

	private final int capacity;

	private final int paddingThreshold;

	private final PaddedCursor tail = new PaddedCursor();

	private final PaddedCursor head = new PaddedCursor();

	/** Moves on whenever IDs already claimed into a thread's run must no longer be handed out. */
	private final PaddedCursor runGeneration = new PaddedCursor();

	private final RejectedPutHandler putHandler;

	private final RejectedTakeHandler takeHandler;

	private final AtomicLong putRejections = new AtomicLong();

	private final AtomicLong takeRejections = new AtomicLong();

	private final AtomicLong discarded = new AtomicLong();

	private volatile RingFiller filler = NO_FILLER;

	/** The last ID put, touched by the filler thread only: IDs must go in in increasing order, which runs rely on. */
	private long lastPut = -1;

	/** Where the IDs being replaced end, {@link #NOT_REPLACING} otherwise; touched by the filler thread only. */
	private long replacingBelow = NOT_REPLACING;

	/** The runs threads take from this ring, made to drop what they hold when the ring is withdrawn. */
	private volatile ThreadRuns runs;

	/**
	 * Creates an empty ring of one ID per slot.
	 * @param capacity number of IDs, a power of two of at least 2
	 * @param paddingFactor fill percentage (1 to 99) under which a take asks for a refill
	 * @param putHandler what to do when a put finds the ring full
	 * @param takeHandler what to do when a take finds the ring empty
	 */
	public RingBuffer(int capacity, int paddingFactor, RejectedPutHandler putHandler,
			RejectedTakeHandler takeHandler) {
		this(capacity, 1, paddingFactor, putHandler, takeHandler);
	}

	/**
	 * Creates an empty ring whose slots each hold a run of consecutive IDs.
	 * @param capacity number of IDs, a power of two of at least 2
	 * @param idsPerSlot consecutive IDs per slot, a power of two up to the capacity; every put is of whole slots
	 * @param paddingFactor fill percentage (1 to 99) under which a take asks for a refill
	 * @param putHandler what to do when a put finds the ring full
	 * @param takeHandler what to do when a take finds the ring empty
	 */
	public RingBuffer(int capacity, int idsPerSlot, int paddingFactor, RejectedPutHandler putHandler,
			RejectedTakeHandler takeHandler) {
		if (capacity < 2 || Integer.bitCount(capacity) != 1 || capacity > (1 << 29)) {
			throw new IllegalArgumentException("The ring capacity must be a power of two from 2 to 2^29, was "
					+ capacity);
		}
		if (idsPerSlot < 1 || Integer.bitCount(idsPerSlot) != 1 || idsPerSlot > capacity) {
			throw new IllegalArgumentException("The IDs per slot must be a power of two up to the capacity (" + capacity
					+ "), was " + idsPerSlot);
		}
		if (paddingFactor < 1 || paddingFactor > 99) {
			throw new IllegalArgumentException("The padding factor must be a percentage from 1 to 99, was "
					+ paddingFactor);
		}
		if (putHandler == null || takeHandler == null) {
			throw new IllegalArgumentException("Both a put handler and a take handler are required");
		}
		this.capacity = capacity;
		this.idsPerSlot = idsPerSlot;
		this.slotShift = Integer.numberOfTrailingZeros(idsPerSlot);
		this.slots = new long[2 * (capacity / idsPerSlot)];
		this.slotMask = this.slots.length - 1;
		this.paddingThreshold = (int) ((long) capacity * paddingFactor / 100);
		this.putHandler = putHandler;
		this.takeHandler = takeHandler;
	}

	/**
	 * Connects the filler this ring asks for refills.
	 * @param filler the filler
	 */
	public void setFiller(RingFiller filler) {
		this.filler = (filler != null) ? filler : NO_FILLER;
	}

	/** Connects the runs threads take from this ring; one set of runs per ring. */
	void attach(ThreadRuns threadRuns) {
		if (this.runs != null) {
			throw new IllegalStateException("This ring already serves runs");
		}
		this.runs = threadRuns;
	}

	/** The ID at a position that lies between the take and the put cursor. */
	private long idAt(long position) {
		return this.slots[(int) (position >>> this.slotShift) & this.slotMask] + (position & (this.idsPerSlot - 1));
	}

	/**
	 * Takes the oldest ID; on an empty ring, the {@link RejectedTakeHandler} decides.
	 * @return an ID
	 * @throws UidException when the take handler gives up
	 */
	public long take() {
		for (;;) {
			long taken = this.tail.get();
			long published = this.head.getAcquire();
			if (taken >= published) {
				this.takeRejections.incrementAndGet();
				return this.takeHandler.rejectTakeBuffer(this);
			}
			long uid = idAt(taken);
			if (this.tail.compareAndSet(taken, taken + 1)) {
				if (published - taken <= this.paddingThreshold) {
					this.filler.requestFill();
				}
				return uid;
			}
		}
	}

	/**
	 * Claims up to {@code maxCount} of the oldest IDs at once, as far as they are consecutive numbers, into a
	 * thread's run; never waits. The run holds exactly the IDs the ring held at those positions.
	 * @param run the run to set
	 * @param maxCount how many IDs at most
	 * @return whether at least one ID was claimed
	 */
	boolean tryTakeRun(Run run, int maxCount) {
		for (;;) {
			long taken = this.tail.get();
			long published = this.head.getAcquire();
			if (taken >= published) {
				return false;
			}
			long first = idAt(taken);
			int count = (int) Math.min(maxCount, published - taken);
			// IDs go in strictly increasing (putRange refuses anything else), so the positions from here hold
			// consecutive numbers exactly when the last of them holds first + count - 1: two reads, not one per ID,
			// which matters as every slot read is a cache line the filler wrote on another core. Within one slot's run
			// both reads are of the same slot.
			while (count > 1 && idAt(taken + count - 1) != first + count - 1) {
				count >>>= 1;
			}
			// Slots at or past the take cursor are never overwritten, so the reads above hold if the claim succeeds.
			run.prepare(first, count);
			if (this.tail.compareAndSet(taken, taken + count)) {
				if (published - taken - count <= this.paddingThreshold) {
					this.filler.requestFill();
				}
				return true;
			}
		}
	}

	/** The generation that IDs in threads' runs must carry to be handed out. */
	PaddedCursor runGenerationCursor() {
		return this.runGeneration;
	}

	/**
	 * Makes every thread drop the IDs left in its run: what a withdrawal of the ring's IDs does, so that IDs claimed
	 * into runs before it stay withdrawn too.
	 */
	public void expireRuns() {
		this.runGeneration.getAndIncrement();
		ThreadRuns threadRuns = this.runs;
		if (threadRuns != null) {
			threadRuns.dropAll();
		}
	}

	/**
	 * Makes every thread whose run holds an ID below {@code uid} drop that run (the filler does this on each
	 * maintenance, with the oldest ID it still lets out, so runs age no more than the ring's own IDs do).
	 * @param uid the lowest ID a run may still hand out
	 */
	public void expireRunsBelow(long uid) {
		ThreadRuns threadRuns = this.runs;
		if (threadRuns != null) {
			threadRuns.dropBelow(uid);
		}
	}

	/**
	 * Takes the oldest ID if there is one, never waiting.
	 * @return an ID, or {@link #EMPTY}
	 */
	public long tryTake() {
		for (;;) {
			long taken = this.tail.get();
			long published = this.head.getAcquire();
			if (taken >= published) {
				return EMPTY;
			}
			long uid = idAt(taken);
			if (this.tail.compareAndSet(taken, taken + 1)) {
				return uid;
			}
		}
	}

	/**
	 * Returns the oldest ID without taking it; a racing take may hand it out meanwhile.
	 * @return an ID, or {@link #EMPTY}
	 */
	public long peek() {
		long taken = this.tail.get();
		long published = this.head.getAcquire();
		return (taken < published) ? idAt(taken) : EMPTY;
	}

	/**
	 * Puts one ID, in a ring of one ID per slot; only the filler thread may call this.
	 * @param uid the ID
	 * @return whether it fit; when not, the {@link RejectedPutHandler} was told
	 */
	public boolean put(long uid) {
		return putRange(uid, 1) == 1;
	}

	/**
	 * Puts consecutive IDs {@code firstUid, firstUid + 1, ...} and publishes them at once; only the filler thread
	 * may call this, and each put must start above the last ID put before. Publishing once per range keeps the
	 * takers' view of {@code head} in their caches.
	 * @param firstUid the first ID
	 * @param count how many, a multiple of the IDs per slot
	 * @return how many fit, a multiple of the IDs per slot; when fewer than {@code count}, the
	 * {@link RejectedPutHandler} was told
	 */
	public int putRange(long firstUid, int count) {
		if (firstUid <= this.lastPut) {
			throw new IllegalArgumentException("IDs go into the ring in increasing order, but " + firstUid
					+ " came after " + this.lastPut);
		}
		if ((count & (this.idsPerSlot - 1)) != 0) {
			throw new IllegalArgumentException("IDs go into the ring in whole slots of " + this.idsPerSlot + ", but "
					+ count + " came");
		}
		long published = this.head.get();
		if (published == SEALED) {
			return 0;
		}
		// While IDs are being replaced, room is counted as if they were gone already: they still fit in the
		// slots' second half.
		long free = this.capacity - (published - Math.max(this.tail.get(), this.replacingBelow));
		int fitting = (int) (Math.min(count, free) & -this.idsPerSlot);
		// Two plain runs (up to the end of the array, then from its start) instead of masking every index: the
		// compiler unrolls them without bounds checks, which makes a fill two to three times faster. The filler
		// shares the CPU with the takers, so its speed bounds theirs.
		int slotCount = fitting >>> this.slotShift;
		int start = (int) (published >>> this.slotShift) & this.slotMask;
		int beforeWrap = Math.min(slotCount, this.slots.length - start);
		long uid = firstUid;
		for (int i = start, end = start + beforeWrap; i < end; i++) {
			this.slots[i] = uid;
			uid += this.idsPerSlot;
		}
		for (int i = 0, end = slotCount - beforeWrap; i < end; i++) {
			this.slots[i] = uid;
			uid += this.idsPerSlot;
		}
		// Only the filler moves the put cursor forward, so this fails only when the ring was sealed meanwhile.
		if (fitting > 0 && !this.head.compareAndSet(published, published + fitting)) {
			return 0;
		}
		if (fitting > 0) {
			this.lastPut = firstUid + fitting - 1;
		}
		if (fitting < count) {
			this.putRejections.incrementAndGet();
			this.putHandler.rejectPutBuffer(this, firstUid + fitting);
		}
		return fitting;
	}

	/**
	 * Starts replacing every ID the ring holds now, all stale: until {@link #completeReplacement()}, puts find room
	 * as if they were gone, while takers still get them. Only the filler thread may call this.
	 */
	public void startReplacement() {
		long published = this.head.get();
		this.replacingBelow = (published == SEALED) ? NOT_REPLACING : published;
	}

	/**
	 * Drops the IDs {@link #startReplacement()} marked that takers have not taken yet, and makes threads drop what is
	 * left of their runs; takers go straight on to what was put since. Only the filler thread may call this.
	 * @return how many were dropped
	 */
	public long completeReplacement() {
		long below = this.replacingBelow;
		this.replacingBelow = NOT_REPLACING;
		long dropped = 0;
		for (;;) {
			long taken = this.tail.get();
			if (below == NOT_REPLACING || taken >= below) {
				break;
			}
			this.discarded.addAndGet(below - taken);
			if (this.tail.compareAndSet(taken, below)) {
				dropped = below - taken;
				break;
			}
			this.discarded.addAndGet(taken - below);
		}
		expireRuns();
		return dropped;
	}

	/**
	 * Takes every ID in the ring at once and throws them away, and makes threads drop what is left of their runs
	 * (used to retire stale IDs and to stop issue).
	 * @return how many were discarded
	 */
	public long discardAll() {
		long discarded = discardRing();
		// After the discard: a run claimed before it carries the old generation, one claimed after holds fresh IDs.
		expireRuns();
		return discarded;
	}

	private long discardRing() {
		for (;;) {
			long taken = this.tail.get();
			long published = this.head.getAcquire();
			if (taken >= published) {
				return 0;
			}
			// Counted before the take cursor moves and taken back if it does not: the taken count, the cursor less the
			// discarded, may read low for a moment but never high.
			this.discarded.addAndGet(published - taken);
			if (this.tail.compareAndSet(taken, published)) {
				return published - taken;
			}
			this.discarded.addAndGet(taken - published);
		}
	}

	/**
	 * Discards every ID in the ring and lets no more in, for good: what a generator that lost its lease or closed
	 * does, so that not even a fill already under way can hand out another ID. Takes find the ring empty from now on.
	 */
	public void seal() {
		discardRing();
		for (;;) {
			long published = this.head.get();
			if (published == SEALED || this.head.compareAndSet(published, SEALED)) {
				break;
			}
		}
		// Only now: a run claimed between the discard and the seal must be dropped as well.
		expireRuns();
	}

	/**
	 * Returns whether the ring was sealed.
	 * @return whether {@link #seal()} was called
	 */
	public boolean isSealed() {
		return this.head.get() == SEALED;
	}

	/**
	 * Asks the filler for a refill.
	 */
	public void requestFill() {
		this.filler.requestFill();
	}

	/**
	 * Returns why the filler will put no more IDs, if that is so.
	 * @return the failure, or {@code null}
	 */
	public UidException fillerFailure() {
		return this.filler.failure();
	}

	/**
	 * Returns how many IDs wait in the ring.
	 * @return 0 to {@link #capacity()}
	 */
	public int size() {
		long taken = this.tail.get();
		long published = this.head.get();
		return (int) Math.max(0, Math.min(this.capacity, published - taken));
	}

	/**
	 * Returns how many slots are free.
	 * @return 0 to {@link #capacity()}
	 */
	public int free() {
		return this.capacity - size();
	}

	/**
	 * Returns how many IDs the ring holds when full.
	 * @return a power of two
	 */
	public int capacity() {
		return this.capacity;
	}

	/**
	 * Returns how many consecutive IDs each slot holds.
	 * @return a power of two
	 */
	public int idsPerSlot() {
		return this.idsPerSlot;
	}

	/**
	 * Returns the fill under which a take asks for a refill.
	 * @return a number of slots
	 */
	public int paddingThreshold() {
		return this.paddingThreshold;
	}

	/**
	 * Returns how many IDs have been taken so far, not counting discarded ones.
	 * @return the count
	 */
	public long takenCount() {
		return this.tail.get() - this.discarded.get();
	}

	/**
	 * Returns how many IDs {@link #discardAll()} threw away.
	 * @return the count
	 */
	public long discardedCount() {
		return this.discarded.get();
	}

	/**
	 * Returns how many IDs have been put so far.
	 * @return the put cursor
	 */
	public long publishedCount() {
		return this.head.get();
	}

	/**
	 * Returns how many puts found the ring full.
	 * @return the count
	 */
	public long putRejections() {
		return this.putRejections.get();
	}

	/**
	 * Returns how many takes found the ring empty.
	 * @return the count
	 */
	public long takeRejections() {
		return this.takeRejections.get();
	}

	@Override
	public String toString() {
		return "RingBuffer[capacity=" + capacity() + ", size=" + size() + ", filler: " + this.filler.describe() + "]";
	}

}
