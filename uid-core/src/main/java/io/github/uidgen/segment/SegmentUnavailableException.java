package io.github.uidgen.segment;

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

}
