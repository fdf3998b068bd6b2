package io.github.uidgen.segment;

import java.time.Duration;

import io.github.uidgen.UidUnavailableException;

/**
 * Thrown by {@link SegmentUidGenerator#getUID()} when every number already claimed has been handed out and no new
 * segment can be had: the store failed (the cause says how), did not answer in time, or the generator is closed.
 * Nothing is repeated or skipped backwards; issue resumes by itself once the store answers again.
 */
public class SegmentUnavailableException extends UidUnavailableException {

	private static final long serialVersionUID = 1L;

	public SegmentUnavailableException(String message) {
		super(message);
	}

	public SegmentUnavailableException(String message, Throwable cause) {
		super(message, cause);
	}

	/** The generator of the key is closed. */
	static SegmentUnavailableException closed(String key) {
		return new SegmentUnavailableException("The segment generator of key '" + key + "' is closed");
	}

	/** Every claimed number is used up and the store failed, or lost claims (then no claim is made again). */
	static SegmentUnavailableException exhausted(String key, String storeName, SegmentStoreException failure) {
		if (failure instanceof SegmentStoreRewoundException) {
			return new SegmentUnavailableException("Every number of key '" + key + "' claimed so far is used up, "
					+ "and no new segment is claimed: " + failure.getMessage(), failure);
		}
		return new SegmentUnavailableException("Every number of key '" + key + "' claimed so far is used up, "
				+ "and the " + storeName + " segment store cannot hand out a new segment: " + failure.getMessage()
				+ " Issue resumes by itself once the store answers again.", failure);
	}

	/**
	 * Every claimed number is used up and the store has not answered in time: a claim under way for
	 * {@code claimRunningNanos}, or (when 0) none came within the wait timeout.
	 */
	static SegmentUnavailableException timedOut(String key, String storeName, Duration waitTimeout,
			long claimRunningNanos) {
		String how = (claimRunningNanos > 0)
				? "the claim under way has not returned for " + Duration.ofNanos(claimRunningNanos).toMillis() + " ms"
				: "no new segment came within " + waitTimeout + " (the wait timeout)";
		return new SegmentUnavailableException("Every number of key '" + key + "' claimed so far is used up, and "
				+ how + ": the " + storeName + " segment store is slow or does not answer. Issue resumes by "
				+ "itself once it does.");
	}

}
