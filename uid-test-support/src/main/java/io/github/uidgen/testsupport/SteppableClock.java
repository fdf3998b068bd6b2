package io.github.uidgen.testsupport;

import java.time.Duration;

import io.github.uidgen.UidClock;

/**
 * The system clock shifted by an offset that tests step back and forth, as NTP or an operator would.
 */
public final class SteppableClock implements UidClock {

	private volatile long offsetMillis;

	/**
	 * Creates a clock already shifted.
	 * @param offset the shift, negative for behind
	 */
	public SteppableClock(Duration offset) {
		this.offsetMillis = offset.toMillis();
	}

	/**
	 * Shifts the clock further.
	 * @param step the step, negative for back
	 */
	public void step(Duration step) {
		this.offsetMillis += step.toMillis();
	}

	@Override
	public long currentTimeMillis() {
		return System.currentTimeMillis() + this.offsetMillis;
	}

}
