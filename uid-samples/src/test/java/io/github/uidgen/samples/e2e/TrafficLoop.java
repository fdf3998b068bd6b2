package io.github.uidgen.samples.e2e;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * One client asking an instance for batches of IDs, one request after the other, on a thread of its own and for at
 * most a bounded time, as a service calling the ID service would: it keeps every ID it receives and, for every
 * request, when it was answered and how (the ID count, or the status and problem detail of a refusal).
 *
 * <p>It carries on through refusals and while the instance does not answer (paused, or its store down), so a test
 * can fault the instance's surroundings while it serves and read afterwards what the client saw, and when.
 */
final class TrafficLoop implements AutoCloseable {

	/** Longer than any pause a test puts an instance through, so a request in flight then is answered after it. */
	private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(90);

	private static final Duration AFTER_FAILURE = Duration.ofMillis(100);

	private static final JsonMapper json = JsonMapper.builder().build();

	private final SampleProcess sample;

	private final int batchSize;

	private final Duration pause;

	private final long deadlineNanos;

	private final IssuedIds ids = new IssuedIds();

	private final List<Answer> answers = new ArrayList<>();

	private final Thread thread;

	private volatile boolean stopped;

	private TrafficLoop(SampleProcess sample, int batchSize, Duration pause, Duration bound) {
		this.sample = sample;
		this.batchSize = batchSize;
		this.pause = pause;
		this.deadlineNanos = System.nanoTime() + bound.toNanos();
		this.thread = new Thread(this::run, "traffic-" + sample.name());
		this.thread.setDaemon(true);
	}

	/**
	 * Starts asking an instance for IDs.
	 * @param sample the instance
	 * @param batchSize IDs per request
	 * @param pause the pause after each answer
	 * @param bound the longest the loop runs, whatever happens
	 * @return the running loop
	 */
	static TrafficLoop start(SampleProcess sample, int batchSize, Duration pause, Duration bound) {
		TrafficLoop loop = new TrafficLoop(sample, batchSize, pause, bound);
		loop.thread.start();
		return loop;
	}

	private void run() {
		String path = "/uid/batch?size=" + this.batchSize;
		while (!this.stopped && System.nanoTime() - this.deadlineNanos < 0) {
			Instant sent = Instant.now();
			Answer answer;
			try {
				HttpResponse<String> response = this.sample.client().get(path, REQUEST_TIMEOUT);
				if (response.statusCode() == 200) {
					long[] batch = parse(response.body());
					this.ids.addAll(batch);
					answer = new Answer(sent, Instant.now(), 200, batch.length, null);
				}
				else {
					answer = new Answer(sent, Instant.now(), response.statusCode(), 0, SampleClient.detail(response));
				}
			}
			catch (IOException | RuntimeException ex) {
				if (this.stopped) {
					return;
				}
				answer = new Answer(sent, Instant.now(), -1, 0, ex.toString());
			}
			synchronized (this.answers) {
				this.answers.add(answer);
			}
			sleep(answer.ok() ? this.pause : AFTER_FAILURE);
		}
	}

	private static long[] parse(String body) {
		JsonNode array = json.readTree(body);
		long[] batch = new long[array.size()];
		for (int i = 0; i < batch.length; i++) {
			batch[i] = Long.parseLong(array.get(i).asString());
		}
		return batch;
	}

	private void sleep(Duration duration) {
		if (duration.isZero() || this.stopped) {
			return;
		}
		try {
			Thread.sleep(duration.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			this.stopped = true;
		}
	}

	/**
	 * Waits until the loop has received a number of full batches.
	 * @param batches how many
	 * @param timeout how long to wait
	 * @return this loop
	 */
	TrafficLoop awaitServed(int batches, Duration timeout) {
		long deadline = System.nanoTime() + timeout.toNanos();
		while (answers(Answer::ok).size() < batches) {
			if (System.nanoTime() - deadline > 0) {
				throw new AssertionError(this.sample.name() + " did not serve " + batches + " batches within "
						+ timeout + "; answers: " + lastAnswers(5) + "\n" + this.sample.logTail());
			}
			Waits.sleep(Duration.ofMillis(50));
		}
		return this;
	}

	/**
	 * Stops the loop and waits for its thread; a request still in flight is abandoned.
	 * @return the IDs received
	 */
	IssuedIds stop() {
		this.stopped = true;
		try {
			this.thread.join(2_000);
			if (this.thread.isAlive()) {
				this.thread.interrupt();
				this.thread.join(10_000);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		return this.ids;
	}

	@Override
	public void close() {
		stop();
	}

	String name() {
		return this.sample.name();
	}

	/**
	 * Returns every ID received so far.
	 * @return the IDs
	 */
	IssuedIds ids() {
		return this.ids;
	}

	/**
	 * Returns the answers so far that match a condition, in the order they came.
	 * @param condition which answers
	 * @return the answers
	 */
	List<Answer> answers(Predicate<Answer> condition) {
		synchronized (this.answers) {
			return this.answers.stream().filter(condition).toList();
		}
	}

	/**
	 * Returns the first refusal (or failed request) answered after an instant.
	 * @param after the instant
	 * @return the refusal, if any
	 */
	Optional<Answer> firstFailureAfter(Instant after) {
		return answers((answer) -> !answer.ok() && answer.received().isAfter(after)).stream().findFirst();
	}

	/**
	 * Returns the last few answers, for messages.
	 * @param count how many
	 * @return the answers
	 */
	List<Answer> lastAnswers(int count) {
		synchronized (this.answers) {
			return List.copyOf(this.answers.subList(Math.max(0, this.answers.size() - count), this.answers.size()));
		}
	}

	/**
	 * One answer the loop received.
	 *
	 * @param sent when the request was sent
	 * @param received when the answer came (or the request failed)
	 * @param status the HTTP status, -1 when there was no answer
	 * @param ids how many IDs came
	 * @param detail the problem detail of a refusal, or the failure
	 */
	record Answer(Instant sent, Instant received, int status, int ids, String detail) {

		boolean ok() {
			return this.status == 200;
		}

		@Override
		public String toString() {
			return "[" + this.sent + " -> " + this.received + ": " + this.status
					+ (ok() ? ", " + this.ids + " IDs" : ", " + this.detail) + "]";
		}

	}

}
