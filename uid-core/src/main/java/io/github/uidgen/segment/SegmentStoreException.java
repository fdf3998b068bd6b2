package io.github.uidgen.segment;

import io.github.uidgen.UidException;

/**
 * Thrown by a {@link SegmentStore} that cannot claim a segment: the store is unreachable, its table or key cannot
 * be used, or it handed out a range the generator refuses.
 */
public class SegmentStoreException extends UidException {

	private static final long serialVersionUID = 1L;

	public SegmentStoreException(String message) {
		super(message);
	}

	public SegmentStoreException(String message, Throwable cause) {
		super(message, cause);
	}

}
