package io.github.uidgen.samples.e2e;

import java.time.Duration;
import java.time.Instant;
import java.util.function.Supplier;

/**
 * Bounded waiting for the end-to-end tests: every wait has a deadline, and an interrupt ends it.
 */
final class Waits {

	private static final Duration POLL = Duration.ofMillis(100);

	private Waits() {
	}

	/**
	 * Sleeps, failing the test when interrupted.
	 * @param duration how long
	 */
	static void sleep(Duration duration) {
		if (duration.isNegative() || duration.isZero()) {
			return;
		}
		try {
			Thread.sleep(duration.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new AssertionError("Interrupted", ex);
		}
	}

	/**
	 * Sleeps until an instant (not at all when it has passed).
	 * @param instant when to wake up
	 */
	static void until(Instant instant) {
		sleep(Duration.between(Instant.now(), instant));
	}

	/**
	 * Polls until a probe finds what it looks for, or the deadline passes.
	 * @param <T> what the probe finds
	 * @param deadline the latest time to poll
	 * @param probe returns what it found, or {@code null} to poll again
	 * @return what it found, or {@code null} when the deadline passed first
	 */
	static <T> T poll(Instant deadline, Supplier<T> probe) {
		while (true) {
			T found = probe.get();
			if (found != null) {
				return found;
			}
			if (!Instant.now().isBefore(deadline)) {
				return null;
			}
			sleep(POLL);
		}
	}

}
