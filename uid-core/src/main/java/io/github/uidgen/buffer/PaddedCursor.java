package io.github.uidgen.buffer;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/** Cache-line padding before the cursor value; see {@link PaddedCursor}. */
abstract class CursorLeftPadding {

	long p01, p02, p03, p04, p05, p06, p07;

}

/** The cursor value itself, between two runs of padding. */
abstract class CursorValue extends CursorLeftPadding {

	volatile long value;

}

/**
 * A position in the ring, padded on both sides so the taker's and the filler's cursors never share a cache line
 * (a shared line would make every take invalidate the filler's cache and the other way round).
 */
final class PaddedCursor extends CursorValue {

	long p11, p12, p13, p14, p15, p16, p17;

	private static final VarHandle VALUE;

	static {
		try {
			VALUE = MethodHandles.lookup().findVarHandle(CursorValue.class, "value", long.class);
		}
		catch (ReflectiveOperationException ex) {
			throw new ExceptionInInitializerError(ex);
		}
	}

	long get() {
		return this.value;
	}

	long getAcquire() {
		return (long) VALUE.getAcquire(this);
	}

	void setRelease(long newValue) {
		VALUE.setRelease(this, newValue);
	}

	boolean compareAndSet(long expected, long newValue) {
		return VALUE.compareAndSet(this, expected, newValue);
	}

	long getAndIncrement() {
		return (long) VALUE.getAndAdd(this, 1L);
	}

}
