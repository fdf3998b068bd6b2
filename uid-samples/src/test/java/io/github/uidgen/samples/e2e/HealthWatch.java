package io.github.uidgen.samples.e2e;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

import io.github.uidgen.samples.e2e.SampleClient.HealthAnswer;

/**
 * Reads one health endpoint of an instance several times a second, on a thread of its own and for at most a bounded
 * time, and keeps when it said what: so a test can tell afterwards how soon the instance reported a fault, and its
 * recovery, relative to what its clients saw.
 */
final class HealthWatch implements AutoCloseable {

	private static final Duration INTERVAL = Duration.ofMillis(200);

	private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(2);

	private final SampleProcess sample;

	private final String path;

	private final long deadlineNanos;

	private final List<Reading> readings = new ArrayList<>();

	private final Thread thread;

	private volatile boolean stopped;

	private HealthWatch(SampleProcess sample, String path, Duration bound) {
		this.sample = sample;
		this.path = path;
		this.deadlineNanos = System.nanoTime() + bound.toNanos();
		this.thread = new Thread(this::run, "health-" + sample.name());
		this.thread.setDaemon(true);
	}

	/**
	 * Starts watching a health endpoint.
	 * @param sample the instance
	 * @param path for example {@code /actuator/health/uid}
	 * @param bound the longest it watches
	 * @return the running watch
	 */
	static HealthWatch start(SampleProcess sample, String path, Duration bound) {
		HealthWatch watch = new HealthWatch(sample, path, bound);
		watch.thread.start();
		return watch;
	}

	private void run() {
		while (!this.stopped && System.nanoTime() - this.deadlineNanos < 0) {
			HealthAnswer answer;
			try {
				answer = this.sample.client().health(this.path, REQUEST_TIMEOUT);
			}
			catch (IOException | RuntimeException ex) {
				if (this.stopped) {
					return;
				}
				answer = new HealthAnswer(-1, "NO ANSWER", ex.toString());
			}
			synchronized (this.readings) {
				this.readings.add(new Reading(Instant.now(), answer));
			}
			try {
				Thread.sleep(INTERVAL.toMillis());
			}
			catch (InterruptedException ex) {
				return;
			}
		}
	}

	/**
	 * Returns the first reading after an instant that matches a condition.
	 * @param after the instant
	 * @param condition for example {@link HealthAnswer#isDown()}
	 * @return the reading, if any
	 */
	Optional<Reading> firstAfter(Instant after, Predicate<HealthAnswer> condition) {
		synchronized (this.readings) {
			return this.readings.stream()
				.filter((reading) -> reading.at().isAfter(after) && condition.test(reading.answer()))
				.findFirst();
		}
	}

	/**
	 * Waits until a reading after an instant matches a condition.
	 * @param after the instant
	 * @param condition what to wait for
	 * @param deadline the latest time to wait until
	 * @return the reading, or empty when the deadline passed first
	 */
	Optional<Reading> await(Instant after, Predicate<HealthAnswer> condition, Instant deadline) {
		return Optional.ofNullable(Waits.poll(deadline, () -> firstAfter(after, condition).orElse(null)));
	}

	/**
	 * Describes what the endpoint said and when, one line per change, for messages.
	 * @return the changes
	 */
	String changes() {
		StringBuilder changes = new StringBuilder(this.sample.name()).append(' ').append(this.path).append(':');
		String last = null;
		synchronized (this.readings) {
			for (Reading reading : this.readings) {
				if (!reading.answer().status().equals(last)) {
					last = reading.answer().status();
					changes.append("\n  ").append(reading.at()).append(' ').append(last);
					if (!reading.answer().isUp()) {
						String body = reading.answer().body();
						changes.append(' ').append(body, 0, Math.min(body.length(), 400));
					}
				}
			}
		}
		return changes.toString();
	}

	/** Stops watching. */
	@Override
	public void close() {
		this.stopped = true;
		this.thread.interrupt();
		try {
			this.thread.join(5_000);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/**
	 * What the endpoint said, and when.
	 *
	 * @param at when the answer came
	 * @param answer the answer
	 */
	record Reading(Instant at, HealthAnswer answer) {
	}

}
