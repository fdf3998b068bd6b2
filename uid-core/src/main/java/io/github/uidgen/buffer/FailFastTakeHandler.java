package io.github.uidgen.buffer;

import io.github.uidgen.UidException;
import io.github.uidgen.UidUnavailableException;

/**
 * Throws at once when the ring is empty, after asking for a refill: the reference library's behaviour, for
 * callers that prefer an exception to any wait.
 */
public final class FailFastTakeHandler implements RejectedTakeHandler {

	@Override
	public long rejectTakeBuffer(RingBuffer ring) {
		ring.requestFill();
		UidException failure = ring.fillerFailure();
		if (failure != null) {
			throw failure;
		}
		throw new UidUnavailableException("The ring buffer is empty (" + ring + ")");
	}

}
