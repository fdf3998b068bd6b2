package io.github.uidgen;

import java.time.Duration;
import java.time.Instant;

/**
 * Thrown at start when the clock is further behind the worker's high-water mark than the generator may wait:
 * issuing now could repeat IDs this worker issued before.
 */
public class ClockBehindHighWaterMarkException extends UidException {

	private static final long serialVersionUID = 1L;

	private final long workerId;

	private final Instant highWaterMark;

	private final Instant clock;

	private final Duration maxWait;

	public ClockBehindHighWaterMarkException(long workerId, Instant highWaterMark, Instant clock, Duration maxWait) {
		super("Worker " + workerId + " may already have issued IDs up to " + highWaterMark + " but the clock reads "
				+ clock + ", " + Duration.between(clock, highWaterMark).toMillis() + " ms behind; that is more than the "
				+ maxWait.toMillis() + " ms the generator waits at start. Fix the clock, or wait until it passes the "
				+ "mark, or raise the start-up wait.");
		this.workerId = workerId;
		this.highWaterMark = highWaterMark;
		this.clock = clock;
		this.maxWait = maxWait;
	}

	public long getWorkerId() {
		return this.workerId;
	}

	/**
	 * Returns the latest time this worker may have issued IDs for.
	 * @return the high-water mark
	 */
	public Instant getHighWaterMark() {
		return this.highWaterMark;
	}

	/**
	 * Returns the clock reading at start.
	 * @return the clock
	 */
	public Instant getClock() {
		return this.clock;
	}

	/**
	 * Returns how long the generator was allowed to wait.
	 * @return the start-up wait
	 */
	public Duration getMaxWait() {
		return this.maxWait;
	}

}
