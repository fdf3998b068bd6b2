package io.github.uidgen.segment;

import io.github.uidgen.UidException;

/**
 * Thrown by {@link SegmentUidGenerator#layout()}: segment IDs are plain numbers and follow no time/worker/sequence
 * layout. Code that reads layouts should check for a segment generator first.
 */
public class NoLayoutException extends UidException {

	private static final long serialVersionUID = 1L;

	public NoLayoutException(String key) {
		super("The segment generator of key '" + key + "' has no ID layout: its IDs are plain numbers from a "
				+ "counter, with no time, worker ID or sequence bits. Check for a SegmentUidGenerator before asking "
				+ "for a layout.");
	}

}
