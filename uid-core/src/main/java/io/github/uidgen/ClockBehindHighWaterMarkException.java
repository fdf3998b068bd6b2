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
		super("Worker " + workerId + " may already have issued IDs up to " + highWaterMark + ", "
				+ Duration.between(clock, highWaterMark).toMillis() + " ms (" + readable(Duration.between(clock,
						highWaterMark)) + ") ahead of this host's clock, which reads " + clock + "; that is more than the "
				+ maxWait.toMillis() + " ms the generator waits at start. Either this host's clock is behind, or a host "
				+ "whose clock runs fast issued IDs as worker " + workerId + " (the lease assigners hand out such a "
				+ "worker ID only when no other is free). Fix the clock that is wrong, or wait until the clock passes "
				+ "the mark, or raise the start-up wait.");
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

	private static String readable(Duration gap) {
		long seconds = gap.toSeconds();
		if (seconds < 60) {
			return seconds + " s";
		}
		if (seconds < 3600) {
			return (seconds / 60) + " min " + (seconds % 60) + " s";
		}
		return (seconds / 3600) + " h " + (seconds % 3600 / 60) + " min";
	}

}
