package io.github.uidgen.autoconfigure;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;

import io.github.uidgen.UidClock;

/**
 * A clock that stands still until a test moves it.
 */
public final class ManualClock implements UidClock {

	private final AtomicLong millis;

	public ManualClock(Instant start) {
		this.millis = new AtomicLong(start.toEpochMilli());
	}

	@Override
	public long currentTimeMillis() {
		return this.millis.get();
	}

	public void advance(Duration duration) {
		this.millis.addAndGet(duration.toMillis());
	}

	public void set(Instant instant) {
		this.millis.set(instant.toEpochMilli());
	}

}
