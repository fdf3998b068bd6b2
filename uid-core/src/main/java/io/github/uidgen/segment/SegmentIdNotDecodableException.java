package io.github.uidgen.segment;

import io.github.uidgen.InvalidUidException;

/**
 * Thrown when a segment ID is asked to be decoded: it is a plain number of its key's sequence, with no time, worker
 * ID or sequence bits in it, so there is nothing to decode.
 */
public class SegmentIdNotDecodableException extends InvalidUidException {

	private static final long serialVersionUID = 1L;

	public SegmentIdNotDecodableException(long uid, String key) {
		super("uid " + uid + " is a segment ID: a plain number of the sequence of key '" + key
				+ "', with no time, worker ID or sequence in it, so it cannot be decoded. Its only meaning is its "
				+ "order: a larger number of the same key was issued later by the same thread, or by another "
				+ "instance from a later segment.");
	}

}
