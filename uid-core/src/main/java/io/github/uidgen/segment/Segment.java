package io.github.uidgen.segment;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/** The bounds of a segment, read on every take and never written after construction. */
abstract class SegmentBounds {

	/** The first number of the segment. */
	final long first;

	/** The last number of the segment. */
	final long last;

	/** The number whose take asks for the next segment in the background. */
	final long prefetchAt;

	SegmentBounds(long first, long last, long prefetchAt) {
		this.first = first;
		this.last = last;
		this.prefetchAt = prefetchAt;
	}

}

/** Cache-line padding between the bounds and the counter. */
abstract class SegmentLeftPadding extends SegmentBounds {

	long p01, p02, p03, p04, p05, p06, p07;

	SegmentLeftPadding(long first, long last, long prefetchAt) {
		super(first, last, prefetchAt);
	}

}

/** The next number to hand out, advanced by every take. */
abstract class SegmentCounter extends SegmentLeftPadding {

	volatile long next;

	SegmentCounter(long first, long last, long prefetchAt) {
		super(first, last, prefetchAt);
		this.next = first;
	}

}

/**
 * One claimed range of numbers, handed out by an atomic fetch-and-add on its counter: every take gets a number of
 * its own, and a take that gets one past {@link #last} knows the segment is used up. The counter sits on a cache
 * line of its own, so the takers' writes never evict the bounds (or anything else) from other cores.
 *
 * <p>Segments form a chain: {@link #successor} is set once, by the one fetch that claims the next range, and the
 * {@link SegmentBuffer} moves from a used-up segment to its successor and never back. The counter keeps growing past
 * {@code last} by one for every take that finds the segment used up; the generator never hands out numbers near
 * {@link Long#MAX_VALUE}, so it cannot wrap.
 */
final class Segment extends SegmentCounter {

	long p11, p12, p13, p14, p15, p16, p17;

	/** The segment claimed after this one, or {@code null} while none is. */
	volatile Segment successor;

	private static final VarHandle NEXT;

	static {
		try {
			NEXT = MethodHandles.lookup().findVarHandle(SegmentCounter.class, "next", long.class);
		}
		catch (ReflectiveOperationException ex) {
			throw new ExceptionInInitializerError(ex);
		}
	}

	/**
	 * Creates a segment that asks for its successor once {@code prefetchPercent} of it is used.
	 * @param range the numbers
	 * @param prefetchPercent 0 to 99
	 */
	Segment(SegmentRange range, int prefetchPercent) {
		super(range.first(), range.last(), prefetchAt(range, prefetchPercent));
	}

	/** The number at {@code percent} of the range, computed without overflow for any range size. */
	private static long prefetchAt(SegmentRange range, int percent) {
		long size = range.size();
		return range.first() + (size / 100) * percent + (size % 100) * percent / 100;
	}

	/** Creates an empty segment: every take finds it used up. */
	private Segment(long prefetchAt) {
		super(1, 0, prefetchAt);
	}

	/**
	 * Returns an empty segment, whose every take is past its end.
	 * @return a new empty segment
	 */
	static Segment empty() {
		return new Segment(1);
	}

	/**
	 * Returns the empty segment a generator started in the background hands out from until its first segment is
	 * claimed: past its prefetch point from the start, so the prefetcher claims its successor (the first segment);
	 * every take finds it used up and waits for that successor, as a take that finds the buffers used up does.
	 * @return a new empty segment whose successor is wanted
	 */
	static Segment starting() {
		return new Segment(0);
	}

	/**
	 * Takes the next number; a number past {@link #last} means the segment is used up.
	 * @return the number
	 */
	long take() {
		return (long) NEXT.getAndAdd(this, 1L);
	}

	/**
	 * Returns the next number a take would get, without taking it.
	 * @return the number
	 */
	long peek() {
		return this.next;
	}

	/**
	 * Returns how many numbers the segment holds.
	 * @return the size, 0 for the empty segment
	 */
	long size() {
		return this.last - this.first + 1;
	}

	/**
	 * Returns how many numbers are left.
	 * @return 0 to {@link #size()}
	 */
	long remaining() {
		return Math.max(0, Math.min(size(), this.last - this.next + 1));
	}

	/**
	 * Returns how many numbers were handed out.
	 * @return 0 to {@link #size()}
	 */
	long taken() {
		return size() - remaining();
	}

	/**
	 * Returns whether the take that asks for the successor has happened.
	 * @return whether the segment is used up to its prefetch point
	 */
	boolean pastPrefetch() {
		return this.next > this.prefetchAt;
	}

	@Override
	public String toString() {
		return this.first + ".." + this.last;
	}

}
