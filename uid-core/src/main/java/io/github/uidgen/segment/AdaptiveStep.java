package io.github.uidgen.segment;

import java.time.Duration;

/**
 * The step policy of one key: how many numbers its next claim asks for. When a segment is used up faster than the
 * target interval (measured between claims) the step doubles, up to the max step; when one lasts more than twice as
 * long it halves, down to the configured step. Fewer round trips under load, denser numbers when quiet.
 *
 * <p>Kept apart from the claims so that the policy can change without touching how segments are claimed or handed
 * out. Used by one claim at a time; never on the hot path.
 */
final class AdaptiveStep {

	private static final long NO_CLAIM = Long.MIN_VALUE;

	private final long minStep;

	private final long maxStep;

	private final long targetMillis;

	/** Volatile because the status reads it from any thread. */
	private volatile long step;

	private long lastClaimMillis = NO_CLAIM;

	AdaptiveStep(long minStep, long maxStep, Duration targetInterval) {
		this.minStep = minStep;
		this.maxStep = maxStep;
		this.targetMillis = targetInterval.toMillis();
		this.step = minStep;
	}

	/**
	 * Returns the size the claim made at {@code nowMillis} asks for: the configured step for the first claim.
	 * @param nowMillis the time of the claim
	 * @return the size
	 */
	long next(long nowMillis) {
		long next = this.step;
		if (this.lastClaimMillis != NO_CLAIM) {
			long lasted = nowMillis - this.lastClaimMillis;
			if (lasted >= 0 && lasted < this.targetMillis) {
				next = Math.min(next * 2, this.maxStep);
			}
			else if (lasted >= 2 * this.targetMillis) {
				next = Math.max(next / 2, this.minStep);
			}
		}
		return next;
	}

	/**
	 * Records a claim that succeeded. A store may hand out more than asked for (Leaf's table honours its step column
	 * as the smallest step), and the larger size is the step from then on.
	 * @param asked the size asked for
	 * @param got the size handed out
	 * @param nowMillis the time of the claim
	 */
	void claimed(long asked, long got, long nowMillis) {
		this.step = Math.max(asked, got);
		this.lastClaimMillis = nowMillis;
	}

	/**
	 * Returns the size of the latest claim.
	 * @return the step
	 */
	long current() {
		return this.step;
	}

}
