package io.github.uidgen;

import java.time.Duration;

/**
 * Thrown when the clock went back further than the generator may absorb.
 */
public class ClockMovedBackwardsException extends UidException {

	private static final long serialVersionUID = 1L;

	private final Duration backwards;

	private final Duration tolerance;

	public ClockMovedBackwardsException(Duration backwards, Duration tolerance) {
		super("The clock moved backwards by " + backwards.toMillis() + " ms, more than the " + tolerance.toMillis()
				+ " ms the generator absorbs; refusing to issue IDs until it catches up");
		this.backwards = backwards;
		this.tolerance = tolerance;
	}

	/**
	 * Returns how far the clock went back.
	 * @return the step back
	 */
	public Duration getBackwards() {
		return this.backwards;
	}

	/**
	 * Returns how far back the generator absorbs.
	 * @return the tolerance
	 */
	public Duration getTolerance() {
		return this.tolerance;
	}

}
