package io.github.uidgen.segment;

import java.time.Duration;

/**
 * The step policy: how many numbers a key's next claim asks for. When a segment is used up faster than the target
 * interval (measured between claims) the step doubles, up to the max step; when one lasts more than twice as long it
 * halves, down to the configured step. Fewer round trips under load, denser numbers when quiet.
 *
 * <p>Kept apart from the claims so that the policy can change without touching how segments are claimed or handed
 * out; immutable, so that the keys of a {@link SegmentUidGenerators} share one (each key keeps its own step and the
 * time of its last claim). Never on the hot path.
 */
final class AdaptiveStep {

	/** The time of the last claim while there was none. */
	static final long NO_CLAIM = Long.MIN_VALUE;

	private final long minStep;

	private final long maxStep;

	private final long targetMillis;

	AdaptiveStep(long minStep, long maxStep, Duration targetInterval) {
		this.minStep = minStep;
		this.maxStep = maxStep;
		this.targetMillis = targetInterval.toMillis();
	}

	/**
	 * Returns the step of a key's first claim.
	 * @return the configured step
	 */
	long first() {
		return this.minStep;
	}

	/**
	 * Returns the size the claim made at {@code nowMillis} asks for.
	 * @param step the key's step now
	 * @param lastClaimMillis when the key's last claim was made, or {@link #NO_CLAIM}
	 * @param nowMillis the time of the claim
	 * @return the size
	 */
	long next(long step, long lastClaimMillis, long nowMillis) {
		if (lastClaimMillis == NO_CLAIM) {
			return step;
		}
		long lasted = nowMillis - lastClaimMillis;
		if (lasted >= 0 && lasted < this.targetMillis) {
			return Math.min(step * 2, this.maxStep);
		}
		if (lasted >= 2 * this.targetMillis) {
			return Math.max(step / 2, this.minStep);
		}
		return step;
	}

}
