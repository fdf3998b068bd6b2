package io.github.uidgen.segment;

/**
 * Thrown by a {@link SegmentStore} that cannot reach its store: the database or Redis is down, restarting, cut off,
 * or did not answer in time. Nothing is wrong with the store's table or keys, so the claim is worth trying again: the
 * background claims retry it, and a start in the background waits it out for
 * {@link SegmentUidGenerator.Builder#storeWaitAtStart(java.time.Duration) storeWaitAtStart}. A store of one's own
 * throws it for the same reasons, and {@link SegmentStoreException} for a store that answers and refuses.
 */
public class SegmentStoreUnavailableException extends SegmentStoreException {

	private static final long serialVersionUID = 1L;

	public SegmentStoreUnavailableException(String message, Throwable cause) {
		super(message, cause);
	}

}
