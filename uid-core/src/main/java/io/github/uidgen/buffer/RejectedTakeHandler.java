package io.github.uidgen.buffer;

import io.github.uidgen.UidException;

/**
 * Decides what happens when a taker finds the ring empty: return an ID after all (by waiting for the refill), or
 * throw.
 */
@FunctionalInterface
public interface RejectedTakeHandler {

	/**
	 * Called when a take found the ring empty.
	 * @param ring the empty ring
	 * @return an ID taken from the ring
	 * @throws UidException when no ID can be had
	 */
	long rejectTakeBuffer(RingBuffer ring);

}
