package io.github.uidgen.segment;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The double buffer of one key: the segment numbers are taken from now, and the successor its
 * {@link SegmentClaimer} links to it in the background. {@link #take()} is the generator's hot path: one volatile
 * read and one atomic fetch-and-add on the current segment's counter (which never fails and never retries, unlike a
 * compare-and-set), then a comparison with the segment's end; no lock, no allocation, no logging.
 *
 * <p>Kept apart from the claims so that the object the takes read is written only when the buffer moves on to the
 * next segment, never by the bookkeeping of a claim.
 */
final class SegmentBuffer {

	private static final VarHandle CURRENT;

	private static final VarHandle RETIRED;

	private static final VarHandle CLOSING;

	static {
		try {
			MethodHandles.Lookup lookup = MethodHandles.lookup();
			CURRENT = lookup.findVarHandle(SegmentBuffer.class, "current", Segment.class);
			RETIRED = lookup.findVarHandle(SegmentBuffer.class, "retiredNumbers", long.class);
			CLOSING = lookup.findVarHandle(SegmentBuffer.class, "closing", boolean.class);
		}
		catch (ReflectiveOperationException ex) {
			throw new ExceptionInInitializerError(ex);
		}
	}

	private final SegmentClaimer claimer;

	private volatile Segment current = Segment.empty();

	/**
	 * How many numbers the segments already left behind held. A field advanced through a VarHandle rather than an
	 * {@code AtomicLong}, as {@link #closing} is, because every key has one: two objects fewer per key.
	 */
	private volatile long retiredNumbers;

	private volatile boolean closing;

	private volatile boolean closed;

	SegmentBuffer(SegmentClaimer claimer) {
		this.claimer = claimer;
	}

	/**
	 * Starts handing out the first segment (or, for a start in the background, {@link Segment#starting()}); called
	 * once, before any take.
	 */
	void start(Segment first) {
		this.current = first;
	}

	/**
	 * Takes the next number, asking the claimer for the next segment at the current one's prefetch point.
	 * @return the number
	 * @throws SegmentUnavailableException when every claimed number is used up and no new segment can be had
	 */
	long take() {
		Segment segment = this.current;
		long uid = segment.take();
		if (uid <= segment.last) {
			if (uid == segment.prefetchAt) {
				this.claimer.request();
			}
			return uid;
		}
		return takeFromNextSegment(segment);
	}

	/**
	 * The slow path: moves to the successor of a used-up segment, waiting for it when it is not claimed yet.
	 * {@code current} only ever moves to the successor of the segment it points at, so a thread never goes back to
	 * an older segment; a take on a segment another thread has already left finds it used up.
	 */
	private long takeFromNextSegment(Segment usedUp) {
		Segment seen = usedUp;
		long deadline = 0;
		boolean waiting = false;
		for (;;) {
			if (this.closed) {
				throw SegmentUnavailableException.closed(this.claimer.key());
			}
			Segment segment = this.current;
			if (segment != seen) {
				long uid = segment.take();
				if (uid <= segment.last) {
					if (uid == segment.prefetchAt) {
						this.claimer.request();
					}
					return uid;
				}
				seen = segment;
				continue;
			}
			Segment successor = segment.successor;
			if (successor != null) {
				if (CURRENT.compareAndSet(this, segment, successor)) {
					RETIRED.getAndAdd(this, segment.size());
				}
				continue;
			}
			if (!waiting) {
				waiting = true;
				deadline = this.claimer.waitDeadline();
			}
			this.claimer.awaitSuccessor(segment, deadline);
		}
	}

	/**
	 * Moves from a segment to its successor, unless a take (or close) has moved already; for the claimer, which
	 * moves a background start's empty segment on to the first segment as soon as it is claimed.
	 */
	void moveOn(Segment from, Segment successor) {
		if (CURRENT.compareAndSet(this, from, successor)) {
			RETIRED.getAndAdd(this, from.size());
		}
	}

	/** The segment numbers are taken from now; the empty segment once closed. */
	Segment current() {
		return this.current;
	}

	boolean isClosed() {
		return this.closed;
	}

	/**
	 * Returns how many claimed numbers are left: the rest of the current segment and its successor, if claimed.
	 * @return the count, 0 once closed
	 */
	long remaining() {
		Segment segment = this.current;
		Segment successor = segment.successor;
		return segment.remaining() + ((successor != null) ? successor.remaining() : 0);
	}

	/**
	 * Returns how many numbers were handed out; exact when idle, close to it under load.
	 * @return the count
	 */
	long issued() {
		return this.retiredNumbers + this.current.taken();
	}

	/**
	 * Returns the range numbers are taken from now.
	 * @return the range, or {@code null} while a start in the background waits for its first segment, and once closed
	 */
	SegmentRange currentRange() {
		Segment segment = this.current;
		return (segment.size() > 0) ? new SegmentRange(segment.first, segment.last) : null;
	}

	/**
	 * Stops handing out numbers: the numbers left are dropped (a gap). Only the first call closes.
	 * @return whether this call closed the buffer
	 */
	boolean close() {
		if (!CLOSING.compareAndSet(this, false, true)) {
			return false;
		}
		this.closed = true;
		Segment last = (Segment) CURRENT.getAndSet(this, Segment.empty());
		RETIRED.getAndAdd(this, last.taken());
		return true;
	}

}
