package io.github.uidgen.snowflake;

import java.util.concurrent.atomic.AtomicLong;

/**
 * What a test clock sees of the cached generator's filler thread: how long the filler went between two readings of
 * the clock. The generator promises IDs no older than its schedule interval and a second while the filler runs; the
 * filler reads the clock on every pass, so a filler held up (by a stall a test makes, or by a machine that gives it
 * no CPU) shows as a long gap between two readings, and a test allows that much more age instead of failing on a slow
 * machine.
 */
final class FillerReads {

	private final AtomicLong lastRead = new AtomicLong(System.currentTimeMillis());

	private final AtomicLong longestGap = new AtomicLong();

	/** Whether the calling thread is a cached generator's filler. */
	static boolean onFiller() {
		return Thread.currentThread().getName().startsWith("uid-ring-filler");
	}

	/**
	 * Notes a reading of the clock by the filler.
	 * @param systemMillis the system clock at the reading
	 */
	void read(long systemMillis) {
		long gap = systemMillis - this.lastRead.getAndSet(systemMillis);
		this.longestGap.accumulateAndGet(gap, Math::max);
	}

	/**
	 * How far behind its schedule the filler may be now: twice the longest gap so far (the pass that last retired
	 * stale IDs may be the one before the last reading) and the gap since the last reading.
	 * @return milliseconds, by the system clock
	 */
	long lateness() {
		return 2 * this.longestGap.get() + Math.max(0, System.currentTimeMillis() - this.lastRead.get());
	}

}
