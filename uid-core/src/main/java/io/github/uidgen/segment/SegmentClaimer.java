package io.github.uidgen.segment;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The prefetch of one key, as a task of its {@link SegmentPrefetcher}: asked for when a take reaches the prefetch
 * point of the buffer's segment, it claims the successor in the background, retries a failed claim while the key is
 * in use (or its start in the background waits out a store out of reach), and lets callers that found the buffer used
 * up wait for the claim, at most the wait timeout. Only background threads call the store (after the first claim), so
 * no caller blocks longer than that.
 *
 * <p>Its state lets one claim run at a time and keeps the task queued at most once: {@code IDLE} (nothing asked),
 * {@code QUEUED} (asked for, or running), {@code RETRY_WAIT} (a claim failed; the prefetcher runs it again when the
 * retry is due).
 */
final class SegmentClaimer extends PrefetchTask {

	/** Logs under the generator's name, the category users already set levels for. */
	private static final Logger logger = LoggerFactory.getLogger(SegmentUidGenerator.class);

	static final int IDLE = 0;

	static final int QUEUED = 1;

	static final int RETRY_WAIT = 2;

	/** How long a caller waits for a claim that has not started before it asks for one more thread. */
	private static final long ASSIST_AFTER_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

	private static final long CLOSE_WAIT_NANOS = TimeUnit.SECONDS.toNanos(5);

	private static final VarHandle STATE;

	static {
		try {
			STATE = MethodHandles.lookup().findVarHandle(SegmentClaimer.class, "state", int.class);
		}
		catch (ReflectiveOperationException ex) {
			throw new ExceptionInInitializerError(ex);
		}
	}

	private final KeyClaims claims;

	private final SegmentPrefetcher prefetcher;

	private final SegmentBuffer buffer;

	private final int prefetchThreshold;

	private final Duration waitTimeout;

	private final long waitTimeoutNanos;

	private final long idleAfterNanos;

	/**
	 * Guards linking a new segment and recording a failed claim, so that callers waiting for a segment can sleep on
	 * {@link #claimed}; never held during a store call, never taken on the hot path.
	 */
	private final ReentrantLock lock = new ReentrantLock();

	/** Signalled after every claim attempt, successful or not, and on close. */
	private final Condition claimed = this.lock.newCondition();

	volatile int state;

	/** Claim attempts finished, successful or not; lets a waiting caller tell a failure newer than its wait. */
	private volatile long attemptsFinished;

	/** When the claim under way started, by {@link System#nanoTime()}; 0 while none is. */
	private volatile long claimStartedNanos;

	/**
	 * The empty segment of a start in the background ({@link #claimFirstInBackground()}) while its successor, the
	 * first segment, is not claimed; {@code null} otherwise. Written under the lock.
	 */
	private volatile Segment startSegment;

	/** What the first claim of a start in the background threw; the start has failed for good. */
	private volatile SegmentStoreException startFailure;

	/** How long a start in the background keeps trying a store out of reach, from its first try that failed. */
	private final long storeWaitAtStartNanos;

	/**
	 * The tries of the first segment that failed while the start waits out a store out of reach, and when it stops
	 * waiting, by {@link System#nanoTime()}; written by the claims, which run one at a time, read under the lock.
	 */
	private int startTriesFailed;

	private long startWaitEndsNanos;

	/** When a start in the background began, by {@link System#nanoTime()} and by the wall clock. */
	private long startNanos;

	private long startMillis;

	// What the background claims last saw of the takes, to tell a key still in use from one no longer used.

	private Segment seenSegment;

	private long seenNext;

	private long lastUsedNanos;

	SegmentClaimer(KeyClaims claims, SegmentPrefetcher prefetcher, int prefetchThreshold, Duration waitTimeout,
			Duration idleAfter, Duration storeWaitAtStart) {
		this.claims = claims;
		this.storeWaitAtStartNanos = storeWaitAtStart.toNanos();
		this.prefetcher = prefetcher;
		this.prefetchThreshold = prefetchThreshold;
		this.waitTimeout = waitTimeout;
		this.waitTimeoutNanos = waitTimeout.toNanos();
		this.idleAfterNanos = idleAfter.toNanos();
		this.buffer = new SegmentBuffer(this);
	}

	/** The key whose segments this task claims. */
	String key() {
		return this.claims.key();
	}

	/** The buffer this task claims segments for. */
	SegmentBuffer buffer() {
		return this.buffer;
	}

	/** Claims the first segment on the calling thread, so that building a generator fails when the store does. */
	void claimFirst() {
		this.buffer.start(new Segment(this.claims.claim(), this.prefetchThreshold));
	}

	/**
	 * Starts on an empty segment and asks the prefetcher to claim its successor, the first segment, in the
	 * background; {@link #awaitFirst()} waits for it. Takes meanwhile wait for it as for any successor (at most the
	 * wait timeout), and the claim is the key's first for the step policy, as {@link #claimFirst()} is.
	 */
	void claimFirstInBackground() {
		Segment starting = Segment.starting();
		this.startNanos = System.nanoTime();
		this.startMillis = System.currentTimeMillis();
		this.startSegment = starting;
		this.buffer.start(starting);
		request();
	}

	/**
	 * Waits until the first segment of a start in the background is claimed; returns at once for a generator whose
	 * first segment was claimed on the calling thread. Only the start's tries decide: once they failed (the first,
	 * or the last within the store wait at start while the store is out of reach), this throws that failure, even
	 * when a retry has succeeded since.
	 * @throws SegmentStoreException what the first claim threw, as the store (or {@link KeyClaims}) threw it, or a
	 * {@link SegmentStoreUnavailableException} that wraps the last try's once the store wait at start is over
	 * @throws SegmentUnavailableException when the generator was closed first, or the waiting thread interrupted
	 */
	void awaitFirst() {
		this.lock.lock();
		try {
			for (;;) {
				SegmentStoreException failure = this.startFailure;
				if (failure != null) {
					throw failure;
				}
				if (this.startSegment == null) {
					return;
				}
				if (this.buffer.isClosed()) {
					throw new SegmentUnavailableException("The segment generator of key '" + this.claims.key()
							+ "' was closed before its first segment was claimed");
				}
				this.claimed.await();
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new SegmentUnavailableException("Interrupted while waiting for the first segment of key '"
					+ this.claims.key() + "'", ex);
		}
		finally {
			this.lock.unlock();
		}
	}

	/** {@return whether a start in the background still waits for its first segment} */
	boolean starting() {
		return this.startSegment != null && this.startFailure == null;
	}

	/**
	 * Asks for a background claim of the next segment, unless one is queued, running or waiting for its retry
	 * already. On the hot path: one volatile read, and at most one compare-and-set and one lock-free push per segment;
	 * no allocation, no lock.
	 */
	void request() {
		if (this.state == IDLE && STATE.compareAndSet(this, IDLE, QUEUED)) {
			this.prefetcher.request(this);
		}
	}

	/** When a caller that starts waiting now gives up. */
	long waitDeadline() {
		return System.nanoTime() + this.waitTimeoutNanos;
	}

	/**
	 * Waits until the segment has a successor, asking for a background claim of it. Fails at once when the store is
	 * known to fail (a claim failed and the next retry is not due, or a claim has hung for longer than the wait
	 * timeout), after the first claim that fails while waiting, and at the deadline.
	 */
	void awaitSuccessor(Segment segment, long deadline) {
		this.lock.lock();
		try {
			long attemptsBefore = this.attemptsFinished;
			while (segment.successor == null && this.buffer.current() == segment && !this.buffer.isClosed()) {
				if (this.claims.rewound() != null) {
					throw exhausted(this.claims.rewound());
				}
				long now = System.nanoTime();
				SegmentStoreException failure = this.claims.failure();
				// While a start waits out a store out of reach, its callers wait with it, within their own deadline.
				if (failure != null && !starting()
						&& (this.attemptsFinished != attemptsBefore || now - this.claims.retryAtNanos() < 0)) {
					throw exhausted(failure);
				}
				long started = this.claimStartedNanos;
				if (started != 0 && now - started > this.waitTimeoutNanos) {
					throw timedOut(now - started);
				}
				long left = deadline - now;
				if (left <= 0) {
					throw timedOut(0);
				}
				request();
				if (started == 0 && this.state != IDLE && !this.claims.retryPending(now)
						&& waitedFor(deadline) > ASSIST_AFTER_NANOS) {
					// Asked for (or its retry due), not started: every thread is in another key's claim.
					this.prefetcher.assist();
				}
				this.claimed.awaitNanos(Math.min(left, ASSIST_AFTER_NANOS));
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new SegmentUnavailableException("Interrupted while waiting for a new segment of key '"
					+ this.claims.key() + "'", ex);
		}
		finally {
			this.lock.unlock();
		}
	}

	private long waitedFor(long deadline) {
		return this.waitTimeoutNanos - (deadline - System.nanoTime());
	}

	/**
	 * Runs on a prefetch thread, for a request or a due retry: claims the next segment while one is wanted (the
	 * current segment is used up to its prefetch point and has no successor). A failed claim is retried by time
	 * while the key is in use; a key no longer used (no take for {@code idleAfter}) stops retrying, and its next
	 * caller that needs a segment asks again.
	 */
	@Override
	void run() {
		boolean retry = this.state == RETRY_WAIT;
		this.state = QUEUED;
		if (retry && !starting() && !stillInUse()) {
			this.state = IDLE;
			wakeWaiters();
			return;
		}
		for (;;) {
			Segment segment = this.buffer.current();
			if (!claimWanted(segment)) {
				this.state = IDLE;
				// A take at the prefetch point while this claim ran found the claimer busy: look once more.
				if (claimWanted(this.buffer.current()) && STATE.compareAndSet(this, IDLE, QUEUED)) {
					continue;
				}
				return;
			}
			if (this.claims.retryPending(System.nanoTime())) {
				this.state = RETRY_WAIT;
				this.prefetcher.retryAt(this, this.claims.retryAtNanos());
				return;
			}
			claimSuccessor(segment);
			if (this.claims.retryWanted()) {
				stillInUse();
				this.state = RETRY_WAIT;
				this.prefetcher.retryAt(this, this.claims.retryAtNanos());
				return;
			}
		}
	}

	/** Wakes callers waiting for a segment, so that they look again (and ask again, once a retry was dropped). */
	private void wakeWaiters() {
		this.lock.lock();
		try {
			this.claimed.signalAll();
		}
		finally {
			this.lock.unlock();
		}
	}

	private boolean claimWanted(Segment segment) {
		return !this.buffer.isClosed() && segment.successor == null && segment.pastPrefetch()
				&& this.claims.rewound() == null;
	}

	/**
	 * Returns whether numbers were asked of this key within {@code idleAfter}: every take moves the current
	 * segment's counter (even one that finds it used up), so a counter that has not moved since the last look means
	 * no call since.
	 */
	private boolean stillInUse() {
		Segment segment = this.buffer.current();
		long next = segment.peek();
		long now = System.nanoTime();
		if (segment != this.seenSegment || next != this.seenNext) {
			this.seenSegment = segment;
			this.seenNext = next;
			this.lastUsedNanos = now;
		}
		return now - this.lastUsedNanos < this.idleAfterNanos;
	}

	/** Claims the segment after {@code tail} outside the lock, then links it or records the failure under it. */
	private void claimSuccessor(Segment tail) {
		this.claimStartedNanos = nonZero(System.nanoTime());
		Segment successor = null;
		SegmentStoreException failure = null;
		long startRetryPause = -1;
		try {
			successor = new Segment(this.claims.claim(), this.prefetchThreshold);
		}
		catch (SegmentStoreException ex) {
			failure = ex;
		}
		catch (RuntimeException | Error ex) {
			// A failed claim like any other, recorded and retried: left to the prefetcher, it would leave this key
			// with a claim that seems to run for ever, and no claim again.
			failure = this.claims.claimFailed(ex);
		}
		boolean first = tail == this.startSegment;
		this.lock.lock();
		try {
			if (successor != null) {
				tail.successor = successor;
				if (first && !this.buffer.isClosed()) {
					// Moved on at once, so the status shows the first segment before any take. A claim that returns
					// after close is dropped, and the start stays one that was closed before its first segment.
					this.buffer.moveOn(tail, successor);
					this.startSegment = null;
				}
			}
			else {
				// A start reports its tries' failures itself: no warning about retrying.
				this.claims.recordFailure(failure, tail.remaining(), !first);
				if (first && this.startFailure == null) {
					startRetryPause = startRetryPause(failure);
					if (startRetryPause < 0) {
						this.startFailure = (failure instanceof SegmentStoreUnavailableException
								&& this.startTriesFailed > 0) ? storeWaitOver(failure) : failure;
					}
				}
			}
			this.claimStartedNanos = 0;
			this.attemptsFinished++;
			this.claimed.signalAll();
		}
		finally {
			this.lock.unlock();
		}
		if (first && successor != null && this.startSegment == null && this.startFailure == null) {
			logger.info("uid segment generator for key '{}' has its first segment ({} from the {} store{}) {} ms after "
					+ "its start began, beside the rest of the application's start", this.claims.key(), successor,
					this.claims.storeName(), (this.startTriesFailed > 0)
							? ", which answered try " + (this.startTriesFailed + 1) : "",
					System.currentTimeMillis() - this.startMillis);
		}
		if (startRetryPause >= 0) {
			logger.warn("uid segment generator for key '{}' could not claim its first segment from the {} store (try "
					+ "{}): {} Trying again in {} ms; the start fails if the store does not answer within {} ms of the "
					+ "first try (storeWaitAtStart, uid.segment.store-wait-at-start in Spring Boot).",
					this.claims.key(), this.claims.storeName(), this.startTriesFailed, failure.getMessage(),
					startRetryPause, TimeUnit.NANOSECONDS.toMillis(this.storeWaitAtStartNanos));
		}
	}

	/**
	 * Decides whether a start in the background tries its first segment again after a try that failed: only when the
	 * store was out of reach, and within the store wait at start of the first try that failed; the retry then comes
	 * no later than the wait's end. Runs under the lock, after the failure is recorded.
	 * @return the pause before the next try in milliseconds, or -1 when the start fails with this failure
	 */
	private long startRetryPause(SegmentStoreException failure) {
		if (!(failure instanceof SegmentStoreUnavailableException) || this.storeWaitAtStartNanos == 0) {
			return -1;
		}
		long now = System.nanoTime();
		if (this.startTriesFailed == 0) {
			this.startWaitEndsNanos = now + this.storeWaitAtStartNanos;
		}
		long left = this.startWaitEndsNanos - now;
		if (left <= 0) {
			return -1;
		}
		this.startTriesFailed++;
		this.claims.retryNoLaterThan(this.startWaitEndsNanos);
		return TimeUnit.NANOSECONDS.toMillis(Math.min(this.claims.retryDelayNanos(), left));
	}

	/** The failure of a start whose store did not answer within the store wait at start. */
	private SegmentStoreUnavailableException storeWaitOver(SegmentStoreException last) {
		return new SegmentStoreUnavailableException("The " + this.claims.storeName() + " segment store did not hand "
				+ "out the first segment of key '" + this.claims.key() + "' within "
				+ TimeUnit.NANOSECONDS.toMillis(this.storeWaitAtStartNanos) + " ms of the first try (storeWaitAtStart, "
				+ "uid.segment.store-wait-at-start in Spring Boot), " + (this.startTriesFailed + 1) + " tries: "
				+ last.getMessage(), last);
	}

	private static long nonZero(long nanos) {
		return (nanos != 0) ? nanos : 1;
	}

	/**
	 * Returns why a caller that finds the buffer used up fails now, if it does: the store fails, or a claim has not
	 * returned for longer than the wait timeout.
	 * @return the failure, or {@code null}
	 */
	SegmentUnavailableException failure() {
		SegmentStoreException failure = this.claims.failure();
		if (starting()) {
			return new SegmentUnavailableException("The segment generator of key '" + this.claims.key()
					+ "' is starting: claiming its first segment from the " + this.claims.storeName() + " store since "
					+ Instant.ofEpochMilli(this.startMillis) + " ("
					+ TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - this.startNanos) + " ms)"
					+ ((failure != null) ? "; the store has not answered yet: " + failure.getMessage() : ""), failure);
		}
		if (failure != null) {
			return exhausted(failure);
		}
		long started = this.claimStartedNanos;
		long running = (started != 0) ? System.nanoTime() - started : 0;
		return (running > this.waitTimeoutNanos) ? timedOut(running) : null;
	}

	private SegmentUnavailableException exhausted(SegmentStoreException failure) {
		return SegmentUnavailableException.exhausted(this.claims.key(), this.claims.storeName(), failure);
	}

	private SegmentUnavailableException timedOut(long claimRunningNanos) {
		return SegmentUnavailableException.timedOut(this.claims.key(), this.claims.storeName(), this.waitTimeout,
				claimRunningNanos);
	}

	/**
	 * Wakes the waiting callers of a closed buffer; when asked to, waits (at most 5 seconds) for a claim under way
	 * to return.
	 */
	void close(boolean awaitClaim) {
		long deadline = System.nanoTime() + CLOSE_WAIT_NANOS;
		this.lock.lock();
		try {
			this.claimed.signalAll();
			while (awaitClaim && this.claimStartedNanos != 0) {
				long left = deadline - System.nanoTime();
				if (left <= 0) {
					break;
				}
				this.claimed.awaitNanos(left);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		finally {
			this.lock.unlock();
		}
	}

	@Override
	public String toString() {
		return "claims of segment key '" + this.claims.key() + "'";
	}

}
