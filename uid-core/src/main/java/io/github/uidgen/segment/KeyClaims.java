package io.github.uidgen.segment;

import java.util.concurrent.TimeUnit;

import io.github.uidgen.UidClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The claims of one key and what they came to: asks the store for each range, refuses one that would break the key's
 * order (below an earlier one, or outside 0 to {@link SegmentUidGenerator#MAX_ID}), and keeps the segments claimed,
 * the failure while the store fails and the retry back-off, which the waiting callers and the status read.
 *
 * <p>Claims run one at a time (the generator's first, then its background claims), so the plain fields need no lock;
 * what other threads read is volatile.
 */
final class KeyClaims {

	/** Logs under the generator's name, the category users already set levels for. */
	private static final Logger logger = LoggerFactory.getLogger(SegmentUidGenerator.class);

	private static final long RETRY_MIN_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

	private static final long RETRY_MAX_NANOS = TimeUnit.SECONDS.toNanos(2);

	private final String key;

	private final SegmentStore store;

	private final String storeName;

	private final UidClock clock;

	private final AdaptiveStep stepPolicy;

	/** The size of the latest claim; volatile because the status reads it from any thread. */
	private volatile long step;

	private long lastClaimMillis = AdaptiveStep.NO_CLAIM;

	private long highestClaimed = -1;

	private long retryDelayNanos;

	private volatile long segmentsFetched;

	private volatile long failureCount;

	private volatile SegmentStoreException failure;

	/** Set for good once the store hands out a range below an earlier one: it lost claims, so no claim is trusted. */
	private volatile SegmentStoreRewoundException rewound;

	private volatile long retryAtNanos;

	KeyClaims(String key, SegmentStore store, UidClock clock, AdaptiveStep stepPolicy) {
		this.key = key;
		this.store = store;
		this.storeName = store.name();
		this.clock = clock;
		this.stepPolicy = stepPolicy;
		this.step = stepPolicy.first();
	}

	/**
	 * Claims a range of the size the step policy asks for, and checks it.
	 * @return the range
	 * @throws SegmentStoreException when the store fails or hands out a range that cannot be used
	 */
	SegmentRange claim() {
		long nowMillis = this.clock.currentTimeMillis();
		long size = this.stepPolicy.next(this.step, this.lastClaimMillis, nowMillis);
		SegmentRange range;
		try {
			range = this.store.claim(this.key, size);
		}
		catch (SegmentStoreException ex) {
			throw ex;
		}
		catch (RuntimeException ex) {
			throw claimFailed(ex);
		}
		if (range == null) {
			throw new SegmentStoreException("The " + this.storeName + " segment store handed out no range for key '"
					+ this.key + "'");
		}
		if (range.first() <= this.highestClaimed) {
			throw new SegmentStoreRewoundException(this.key, this.storeName, this.highestClaimed, range);
		}
		if (range.first() < 0 || range.last() > SegmentUidGenerator.MAX_ID) {
			throw new SegmentStoreException("The " + this.storeName + " segment store handed out " + range
					+ " for key '" + this.key + "', outside the numbers a segment generator issues (0 to "
					+ SegmentUidGenerator.MAX_ID + "); the key's counter has run out or was set by hand to a value out "
					+ "of range.");
		}
		this.highestClaimed = range.last();
		// A store may hand out more than asked for (Leaf's table honours its step column as the smallest step).
		this.step = Math.max(size, range.size());
		this.lastClaimMillis = nowMillis;
		this.segmentsFetched++;
		if (this.failure != null) {
			this.failure = null;
			this.retryDelayNanos = 0;
			logger.info("uid segment store {} hands out segments of key '{}' again", this.storeName, this.key);
		}
		if (logger.isDebugEnabled()) {
			logger.debug("uid segment {} of key '{}' claimed from {} (step {})", range, this.key, this.storeName, size);
		}
		return range;
	}

	/**
	 * Wraps what a store threw that is not a {@link SegmentStoreException}, so that it is recorded and retried like one.
	 * @param ex what the store threw
	 * @return the failure
	 */
	SegmentStoreException claimFailed(Throwable ex) {
		return new SegmentStoreException("The " + this.storeName + " segment store failed to hand out a segment of key '"
				+ this.key + "': " + ex, ex);
	}

	/**
	 * Records a failed claim: a rewound store stops the claims for good; any other failure is retried after a delay
	 * that doubles from 100 ms to 2 s while the failures go on.
	 * @param failure why the claim failed
	 * @param numbersLeft the numbers still in memory, for the log
	 * @param warn whether to log the first failure of a series (not for the first claim of a start, which fails)
	 */
	void recordFailure(SegmentStoreException failure, long numbersLeft, boolean warn) {
		boolean first = this.failure == null;
		this.failureCount++;
		this.failure = failure;
		if (failure instanceof SegmentStoreRewoundException backwards) {
			this.rewound = backwards;
			logger.error("uid segment generator of key '{}' stops claiming: {}", this.key, failure.getMessage());
			return;
		}
		this.retryDelayNanos = first ? RETRY_MIN_NANOS : Math.min(this.retryDelayNanos * 2, RETRY_MAX_NANOS);
		this.retryAtNanos = System.nanoTime() + this.retryDelayNanos;
		if (first && warn) {
			logger.warn("uid segment store {} could not hand out a segment of key '{}' ({} numbers left in memory); "
					+ "retrying: {}", this.storeName, this.key, numbersLeft, failure.getMessage());
		}
	}

	/**
	 * Brings the retry of the failed claim forward to {@code latestNanos} if it is due later; the back-off goes on
	 * from where it was.
	 * @param latestNanos the latest the retry may come, by {@link System#nanoTime()}
	 */
	void retryNoLaterThan(long latestNanos) {
		if (this.retryAtNanos - latestNanos > 0) {
			this.retryAtNanos = latestNanos;
		}
	}

	/** Whether the latest claim failed and its retry is not due yet at {@code nowNanos}. */
	boolean retryPending(long nowNanos) {
		return this.failure != null && nowNanos - this.retryAtNanos < 0;
	}

	/** Whether the latest claim failed in a way worth retrying (the store did not lose claims). */
	boolean retryWanted() {
		return this.failure != null && this.rewound == null;
	}

	/** How long after the latest failed claim its retry comes: the back-off, doubling from 100 ms to 2 s. */
	long retryDelayNanos() {
		return this.retryDelayNanos;
	}

	/** When the retry of a failed claim is due, by {@link System#nanoTime()}. */
	long retryAtNanos() {
		return this.retryAtNanos;
	}

	/** Why the latest claim failed, while none has succeeded since; {@code null} while the store answers. */
	SegmentStoreException failure() {
		return this.failure;
	}

	/** The failure that stopped the claims for good, or {@code null}. */
	SegmentStoreRewoundException rewound() {
		return this.rewound;
	}

	long segmentsFetched() {
		return this.segmentsFetched;
	}

	long failureCount() {
		return this.failureCount;
	}

	long step() {
		return this.step;
	}

	String key() {
		return this.key;
	}

	String storeName() {
		return this.storeName;
	}

}
