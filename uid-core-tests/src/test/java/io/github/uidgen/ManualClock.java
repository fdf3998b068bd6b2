package io.github.uidgen;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A clock tests set and step by hand; it can also be told to throw on its next readings.
 */
public final class ManualClock implements UidClock {

	private final AtomicLong millis;

	private final AtomicInteger failuresLeft = new AtomicInteger();

	public ManualClock(long millis) {
		this.millis = new AtomicLong(millis);
	}

	public static ManualClock atSystemTime() {
		return new ManualClock(System.currentTimeMillis());
	}

	@Override
	public long currentTimeMillis() {
		if (this.failuresLeft.get() > 0 && this.failuresLeft.getAndDecrement() > 0) {
			throw new IllegalStateException("clock failure injected by the test");
		}
		return this.millis.get();
	}

	public void set(long millis) {
		this.millis.set(millis);
	}

	public void advance(long deltaMillis) {
		this.millis.addAndGet(deltaMillis);
	}

	public long get() {
		return this.millis.get();
	}

	/** Makes the next {@code count} readings throw. */
	public void failNext(int count) {
		this.failuresLeft.set(count);
	}

}
