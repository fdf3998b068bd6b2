package io.github.uidgen.snowflake;

import java.time.Instant;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import io.github.uidgen.UidClock;
import io.github.uidgen.UidException;
import io.github.uidgen.UidLayout;
import io.github.uidgen.UidUnavailableException;
import io.github.uidgen.worker.WorkerIdAssigner;
import io.github.uidgen.worker.WorkerLeaseLostException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes one worker's high-water mark to its assigner's store, and remembers how the writes went: when the last one
 * succeeded, which calls are outstanding and since when, how many failed, and why the last one did. The
 * {@link HighWaterMarkKeeper} decides when to write, how long to wait for a call, and what the outcome means for
 * issue; this class only talks to the store, so that health and error messages can say what the store did.
 *
 * <p>Each renewal runs on a thread of its own (daemon threads, reused while idle, at most {@link #MAX_OUTSTANDING} at
 * once), so that a call the store's client holds (Lettuce waits 60 s by default for a command sent to a Redis Cluster
 * master that died) holds no renewal after it: the keeper waits for a call only so long, and renews again beside it.
 * A call left behind ends by the client's own timeout; whatever it brings back is handed to the keeper, which lets
 * nothing older overwrite what is newer.
 */
final class MarkRecorder {

	private static final Logger logger = LoggerFactory.getLogger(HighWaterMarkKeeper.class);

	/** Renewal calls that may be outstanding at once; one more is not sent until one of them has come back. */
	static final int MAX_OUTSTANDING = 64;

	private final WorkerIdAssigner assigner;

	private final long workerId;

	private final UidLayout layout;

	private final UidClock clock;

	private final ThreadPoolExecutor callers;

	private final Set<Call> outstanding = ConcurrentHashMap.newKeySet();

	/**
	 * Why the last renewal failed, or the lease lost; {@code null} after a successful one. Changed only by atomic
	 * updates that never replace a lost lease: a failure counted on a renewal's thread while the keeper's records the
	 * loss must not hide it, or the lost session, not counted as revoked, releases at its close a worker ID the
	 * generator may have claimed again meanwhile.
	 */
	private final AtomicReference<UidException> failure = new AtomicReference<>();

	/** Wall-clock time of the last successful renewal, for messages. */
	private volatile long lastRecordedMillis;

	/** Renewals that failed, or did not answer in time, each counted once. */
	private final AtomicLong failedRenewals = new AtomicLong();

	MarkRecorder(WorkerIdAssigner assigner, long workerId, UidLayout layout, UidClock clock) {
		this.assigner = assigner;
		this.workerId = workerId;
		this.layout = layout;
		this.clock = clock;
		AtomicInteger threads = new AtomicInteger();
		this.callers = new ThreadPoolExecutor(0, MAX_OUTSTANDING, 10, TimeUnit.SECONDS, new SynchronousQueue<>(),
				(task) -> {
					// Not named "...-worker-N" as the generator's own threads are: these may outlive it by a call.
					Thread thread = new Thread(task, "uid-mark-renewal-" + workerId + "-" + threads.incrementAndGet());
					thread.setDaemon(true);
					return thread;
				});
	}

	/**
	 * Sends a renewal recording a mark on a thread of its own; what comes of it is handed to the settler on that
	 * thread, however late.
	 * @param mark the highest unit the worker may issue in
	 * @param sentMillis the clock just before the call is sent: the earliest the store can have renewed the lease
	 * @param settler takes the outcome
	 * @return the call, to wait for
	 * @throws RejectedExecutionException when {@link #MAX_OUTSTANDING} calls are outstanding, or the recorder stopped
	 */
	Call send(long mark, long sentMillis, Settler settler) {
		Call call = new Call(mark, sentMillis, settler);
		this.outstanding.add(call);
		try {
			this.callers.execute(call);
		}
		catch (RejectedExecutionException ex) {
			this.outstanding.remove(call);
			throw ex;
		}
		return call;
	}

	/** Notes a renewal that reached the store, for messages. */
	void recorded() {
		this.lastRecordedMillis = this.clock.currentTimeMillis();
	}

	/**
	 * Sends nothing more, and waits, within a bound, for the calls outstanding to come back (a killed process sends
	 * nothing after it died, so a crash test waits for what is on its way before it lets the lease run out).
	 * @param nanos the bound
	 */
	void stop(long nanos) {
		this.callers.shutdown();
		try {
			this.callers.awaitTermination(Math.max(0, nanos), TimeUnit.NANOSECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/**
	 * Releases the worker ID with its final mark; a failure is logged, as the lease then runs out by itself.
	 * @param finalUnit the highest unit the worker issued in
	 * @return whether the store took the release
	 */
	boolean release(long finalUnit) {
		try {
			this.assigner.release(this.workerId, this.layout.startMillis(finalUnit));
			return true;
		}
		catch (RuntimeException ex) {
			logger.warn("uid worker {} could not release its worker ID: {}", this.workerId, ex.toString());
			return false;
		}
	}

	/**
	 * Counts a failed renewal, logs the first of a series, and keeps it as the failure; a lost lease stays the
	 * failure for good.
	 */
	void recordFailure(Throwable ex) {
		this.failedRenewals.incrementAndGet();
		UidException failure = (ex instanceof UidException uidException) ? uidException
				: new UidUnavailableException("Recording the high-water mark failed: " + ex, ex);
		UidException previous = replaceUnlessLost(failure);
		if (previous == null) {
			if (ex instanceof Error) {
				logger.error("uid worker {} could not record its high-water mark, retrying", this.workerId, ex);
			}
			else {
				logger.warn("uid worker {} could not record its high-water mark, retrying: {}", this.workerId,
						ex.toString());
			}
		}
	}

	/** Keeps the lost lease as the failure, for good. */
	void leaseLost(WorkerLeaseLostException ex) {
		this.failure.set(ex);
	}

	/** Forgets the last failure after a renewal that counts; a lost lease stays. */
	void clearFailure() {
		replaceUnlessLost(null);
	}

	/** Makes the failure the given one, at once, unless it is a lost lease; returns what it was. */
	private UidException replaceUnlessLost(UidException next) {
		return this.failure.getAndUpdate((current) -> (current instanceof WorkerLeaseLostException) ? current : next);
	}

	/**
	 * Returns why the last renewal failed, or that the lease was lost.
	 * @return the failure, or {@code null} after a successful renewal
	 */
	UidException failure() {
		return this.failure.get();
	}

	/**
	 * Whether a store call sent after a given time has been outstanding for longer than another: calls sent before the
	 * last renewal came back from the store do not say that it is silent now (it answered since; they wait in the
	 * client, a pool's queue, a connection to a node that died).
	 * @param nanos how long
	 * @param sentAfterNanos {@link System#nanoTime()} the call was sent after
	 */
	boolean isCallOutstandingLongerThan(long nanos, long sentAfterNanos) {
		long now = System.nanoTime();
		for (Call call : this.outstanding) {
			if (call.startedNanos - sentAfterNanos > 0 && now - call.startedNanos > nanos) {
				return true;
			}
		}
		return false;
	}

	/** How long the oldest call outstanding has been, or -1 when none is. */
	private long oldestOutstandingNanos() {
		long now = System.nanoTime();
		long oldest = -1;
		for (Call call : this.outstanding) {
			oldest = Math.max(oldest, now - call.startedNanos);
		}
		return oldest;
	}

	/**
	 * Returns how many renewals failed, each counted once: one that threw, or one that did not answer within the time
	 * the keeper waits for it (and is not counted again when it comes back late).
	 * @return the count
	 */
	long failedRenewals() {
		return this.failedRenewals.get();
	}

	/** The assigner's name, for messages. */
	String assignerName() {
		return this.assigner.name();
	}

	/** Says since when the mark has not been recorded, and what the store is doing about it, for messages. */
	String status() {
		long now = this.clock.currentTimeMillis();
		StringBuilder status = new StringBuilder("mark last recorded at ")
			.append(Instant.ofEpochMilli(this.lastRecordedMillis))
			.append(" (")
			.append(now - this.lastRecordedMillis)
			.append(" ms ago)");
		long oldest = oldestOutstandingNanos();
		if (oldest >= 0) {
			int others = this.outstanding.size() - 1;
			status.append(", a call to the ")
				.append(this.assigner.name())
				.append(" assigner's store has been outstanding for ")
				.append(TimeUnit.NANOSECONDS.toMillis(oldest))
				.append(" ms");
			if (others > 0) {
				status.append(" (and ").append(others).append(" more since)");
			}
		}
		UidException current = this.failure.get();
		if (current != null) {
			status.append(", last failure: ").append(current.getMessage());
		}
		return status.toString();
	}

	/** Takes what came of a renewal, on the thread that made the call. */
	interface Settler {

		/**
		 * @param call the call
		 * @param outcome what it threw, or {@code null} when the store took the mark
		 */
		void settle(Call call, Throwable outcome);

	}

	/** One renewal, made on a thread of its own. */
	final class Call implements Runnable {

		final long mark;

		final long sentMillis;

		final long startedNanos = System.nanoTime();

		private final Settler settler;

		private final CountDownLatch done = new CountDownLatch(1);

		/** Set by the keeper, under its lock, when it stopped waiting for the call before it was settled. */
		boolean abandoned;

		/** Set by the settler, under the keeper's lock. */
		boolean settled;

		private Call(long mark, long sentMillis, Settler settler) {
			this.mark = mark;
			this.sentMillis = sentMillis;
			this.settler = settler;
		}

		@Override
		public void run() {
			Throwable outcome = null;
			try {
				MarkRecorder.this.assigner.renew(MarkRecorder.this.workerId, MarkRecorder.this.layout.startMillis(this.mark));
			}
			catch (Throwable ex) {
				outcome = ex;
			}
			try {
				this.settler.settle(this, outcome);
			}
			catch (Throwable ex) {
				logger.error("uid worker {} could not take the outcome of a renewal", MarkRecorder.this.workerId, ex);
			}
			finally {
				MarkRecorder.this.outstanding.remove(this);
				this.done.countDown();
			}
		}

		/**
		 * Waits for the call to have been settled.
		 * @param nanos how long at most
		 * @return whether it was
		 */
		boolean await(long nanos) {
			try {
				return this.done.await(nanos, TimeUnit.NANOSECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return this.done.getCount() == 0;
			}
		}

	}

}
