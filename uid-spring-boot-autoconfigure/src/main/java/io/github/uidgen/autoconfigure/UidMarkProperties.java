package io.github.uidgen.autoconfigure;

import java.time.Duration;

/**
 * How the worker's high-water mark (the latest time it may have issued IDs for) is kept ahead of issue, under
 * {@code uid.mark.*}.
 */
public class UidMarkProperties {

	/**
	 * How far past the time in use each recorded high-water mark reaches. Longer means fewer writes to the
	 * worker-ID store; shorter means less waiting after a crash and restart on the same worker ID.
	 */
	private Duration reservation = Duration.ofSeconds(3);

	/**
	 * How long ID issue may wait for the high-water mark to be recorded before it fails.
	 */
	private Duration timeout = Duration.ofSeconds(5);

	/**
	 * How long start-up may wait for the clock to pass the worker's high-water mark before it refuses to
	 * start.
	 */
	private Duration maxStartupWait = Duration.ofSeconds(10);

	public Duration getReservation() {
		return this.reservation;
	}

	public void setReservation(Duration reservation) {
		this.reservation = reservation;
	}

	public Duration getTimeout() {
		return this.timeout;
	}

	public void setTimeout(Duration timeout) {
		this.timeout = timeout;
	}

	public Duration getMaxStartupWait() {
		return this.maxStartupWait;
	}

	public void setMaxStartupWait(Duration maxStartupWait) {
		this.maxStartupWait = maxStartupWait;
	}

}
