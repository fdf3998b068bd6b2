package io.github.uidgen.autoconfigure;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.function.Consumer;
import java.util.function.Supplier;

import io.github.uidgen.UidException;
import io.github.uidgen.UidGenerator;
import io.github.uidgen.UidGeneratorStatus;
import io.github.uidgen.UidLayout;
import io.github.uidgen.UidUnavailableException;
import io.github.uidgen.snowflake.AbstractUidGenerator;
import io.github.uidgen.worker.WorkerStoreUnavailableException;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * The auto-configured Snowflake generator, started in the background: its worker ID is claimed, with whatever waits
 * the store asks for (a Redis claim's probation, the clock passing a mark), on a thread of its own while the rest of
 * the application context starts, instead of on the thread that refreshes it. The web server starts meanwhile;
 * {@link UidGeneratorStartWait} waits for the claim as the last step of the context's start, so a start that cannot
 * claim fails as before, with the claim's exception, and the application is ready (readiness,
 * {@code ApplicationReadyEvent}) only with a generator that issues.
 *
 * <p>A store that does not answer the claim (down for a moment, or slow to take the first connection while a whole
 * fleet starts) is tried again, with a growing pause, for up to {@code uid.worker.store-wait-at-start}; each try is
 * logged, and a start that waited in vain fails saying how long and how many tries, over the last try's exception.
 * Nothing is lost by trying again: a claim the store made but whose answer never came is never issued on,
 * and its lease runs out by itself.
 *
 * <p>A call that comes before the claim has finished (a bean that takes an ID while the context starts, a request
 * that reaches the web server before the application is ready) waits for it. Afterwards each call is one read of a
 * field and the generator's own {@link UidGenerator#getUID()}.
 */
public final class StartingUidGenerator implements UidGenerator, AutoCloseable {

	private static final Log logger = LogFactory.getLog(StartingUidGenerator.class);

	/** The pause before the second try of a store that did not answer; it doubles up to {@link #MAX_PAUSE_MILLIS}. */
	private static final long FIRST_PAUSE_MILLIS = 250;

	private static final long MAX_PAUSE_MILLIS = 2000;

	private final String kind;

	private final UidLayout layout;

	private final String assigner;

	/** How long the start keeps trying a store that does not answer. */
	private final Duration storeWait;

	private final long startedAtMillis = System.currentTimeMillis();

	private final CompletableFuture<AbstractUidGenerator> starting = new CompletableFuture<>();

	private final Thread thread;

	/** The generator once started; read first by every call. */
	private volatile AbstractUidGenerator generator;

	/** What runs once the generator has started, before anyone waiting for it goes on; guarded by itself. */
	private final List<Consumer<? super AbstractUidGenerator>> whenStarted = new ArrayList<>();

	/**
	 * Starts claiming a worker ID in the background.
	 * @param kind {@code default} or {@code cached}, for the status meanwhile
	 * @param layout the layout the generator will have
	 * @param assigner the name of the worker-ID assigner, for messages
	 * @param storeWait how long to keep trying a store that does not answer
	 * @param build builds the generator, which claims its worker ID
	 */
	StartingUidGenerator(String kind, UidLayout layout, String assigner, Duration storeWait,
			Supplier<AbstractUidGenerator> build) {
		this.kind = kind;
		this.layout = layout;
		this.assigner = assigner;
		this.storeWait = storeWait;
		this.thread = new Thread(() -> start(build), "uid-start");
		this.thread.setDaemon(true);
		this.thread.start();
	}

	private void start(Supplier<AbstractUidGenerator> build) {
		AbstractUidGenerator built;
		try {
			built = buildWhileTheStoreDoesNotAnswer(build);
		}
		catch (Throwable ex) {
			this.starting.completeExceptionally(ex);
			return;
		}
		List<Consumer<? super AbstractUidGenerator>> actions;
		synchronized (this.whenStarted) {
			this.generator = built;
			actions = List.copyOf(this.whenStarted);
			this.whenStarted.clear();
		}
		actions.forEach((action) -> run(action, built));
		if (!this.starting.complete(built)) {
			// Closed meanwhile: give the worker ID back.
			built.close();
			return;
		}
		logger.info("uid " + this.kind + " generator issues as worker " + built.status().worker().id() + " ("
				+ this.assigner + "), " + (System.currentTimeMillis() - this.startedAtMillis)
				+ " ms after its start began, beside the rest of the application's start");
	}

	/**
	 * Builds the generator, trying again while the store does not answer, until {@link #storeWait} after the first
	 * try went unanswered; then fails with what the last try threw, under a failure that says how long the start
	 * waited and how many tries it made; when interrupted (the context's start failed elsewhere), with what the last
	 * try threw alone.
	 */
	private AbstractUidGenerator buildWhileTheStoreDoesNotAnswer(Supplier<AbstractUidGenerator> build) {
		long giveUpAt = 0;
		long pauseMillis = FIRST_PAUSE_MILLIS;
		for (int attempt = 1;; attempt++) {
			try {
				return build.get();
			}
			catch (WorkerStoreUnavailableException ex) {
				long now = System.currentTimeMillis();
				if (attempt == 1) {
					giveUpAt = now + this.storeWait.toMillis();
				}
				long left = giveUpAt - now;
				if (Thread.currentThread().isInterrupted() || this.storeWait.isZero()) {
					throw ex;
				}
				if (left <= 0) {
					throw new WorkerStoreUnavailableException("uid could not claim a worker ID from the "
							+ this.assigner + " store within " + this.storeWait.toMillis() + " ms of the first try "
							+ "(uid.worker.store-wait-at-start), " + attempt + " tries: " + ex.getMessage(), ex);
				}
				long pause = Math.min(pauseMillis, left);
				logger.warn("uid could not claim a worker ID from the " + this.assigner + " store (try " + attempt
						+ "): " + ex.getMessage() + " Trying again in " + pause + " ms; the start fails if the store "
						+ "does not answer within " + this.storeWait.toMillis() + " ms of the first try "
						+ "(uid.worker.store-wait-at-start).");
				try {
					Thread.sleep(pause);
				}
				catch (InterruptedException interrupted) {
					Thread.currentThread().interrupt();
					throw ex;
				}
				pauseMillis = Math.min(pauseMillis * 2, MAX_PAUSE_MILLIS);
			}
		}
	}

	/**
	 * Runs an action on the generator once it has started: at once if it has, else on the thread that started it,
	 * before {@link #awaitStarted()} returns to anyone; never if the start fails. The meters bind this way, so that
	 * binding them does not hold up the context's start.
	 * @param action what to run
	 */
	public void whenStarted(Consumer<? super AbstractUidGenerator> action) {
		AbstractUidGenerator started;
		synchronized (this.whenStarted) {
			started = this.generator;
			if (started == null) {
				if (!this.starting.isDone()) {
					this.whenStarted.add(action);
				}
				return;
			}
		}
		action.accept(started);
	}

	private static void run(Consumer<? super AbstractUidGenerator> action, AbstractUidGenerator started) {
		try {
			action.accept(started);
		}
		catch (RuntimeException ex) {
			logger.warn("An action on the started uid generator failed", ex);
		}
	}

	@Override
	public long getUID() {
		AbstractUidGenerator started = this.generator;
		return (started != null) ? started.getUID() : awaitStarted().getUID();
	}

	/**
	 * Waits until the generator has started.
	 * @return the started generator
	 * @throws RuntimeException what starting it threw, as it was thrown (so a failure analysis reads it)
	 */
	public AbstractUidGenerator awaitStarted() {
		// Not the generator field: it is set before the actions on the started generator run, as they read it; the
		// start completes after them.
		try {
			return this.starting.get();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new UidUnavailableException("Interrupted while the uid generator was starting");
		}
		catch (CancellationException ex) {
			throw closed();
		}
		catch (ExecutionException ex) {
			Throwable cause = ex.getCause();
			if (cause instanceof RuntimeException runtime) {
				throw runtime;
			}
			if (cause instanceof Error error) {
				throw error;
			}
			throw new UidUnavailableException("The uid generator could not start: " + cause, cause);
		}
	}

	@Override
	public UidLayout layout() {
		return this.layout;
	}

	/**
	 * Describes the generator once started; meanwhile its kind and layout, and why it does not issue yet.
	 */
	@Override
	public UidGeneratorStatus status() {
		AbstractUidGenerator started = this.generator;
		if (started != null) {
			return started.status();
		}
		UidException failure;
		if (this.starting.isCompletedExceptionally()) {
			try {
				awaitStarted();
				failure = closed();
			}
			catch (UidException ex) {
				failure = ex;
			}
			catch (RuntimeException ex) {
				failure = new UidUnavailableException("The uid generator could not start: " + ex.getMessage(), ex);
			}
		}
		else {
			failure = new UidUnavailableException("The uid " + this.kind + " generator is starting: claiming a worker "
					+ "ID from the " + this.assigner + " store since " + Instant.ofEpochMilli(this.startedAtMillis)
					+ " (" + Duration.ofMillis(System.currentTimeMillis() - this.startedAtMillis).toMillis() + " ms)");
		}
		return new UidGeneratorStatus(this.kind, this.layout,
				new UidGeneratorStatus.Worker(-1, this.assigner, null, 0, false), 0, 0, Duration.ZERO, null, null,
				failure);
	}

	/**
	 * Stops the start if it is under way (a claim made meanwhile is given back), or closes the started generator.
	 */
	@Override
	public void close() {
		if (this.starting.cancel(false)) {
			this.thread.interrupt();
			return;
		}
		AbstractUidGenerator started;
		try {
			started = this.starting.getNow(null);
		}
		catch (CompletionException ex) {
			// It never started: nothing to give back.
			return;
		}
		if (started != null) {
			started.close();
		}
	}

	private UidUnavailableException closed() {
		return new UidUnavailableException("The uid generator was closed while it started");
	}

	@Override
	public String toString() {
		AbstractUidGenerator started = this.generator;
		return (started != null) ? started.toString() : "StartingUidGenerator[" + this.kind + ", claiming from "
				+ this.assigner + "]";
	}

}
