package io.github.uidgen.buffer;

/**
 * Decides what happens when an ID is put into a full ring.
 *
 * <p>The cached generator's filler keeps the rejected ID and puts it first at the next refill, so a rejection
 * loses nothing; the handler only observes it (count it, log it).
 */
@FunctionalInterface
public interface RejectedPutHandler {

	/** Does nothing: the filler keeps the ID for the next refill. */
	RejectedPutHandler KEEP_FOR_NEXT_FILL = (ring, uid) -> {
	};

	/**
	 * Called when {@code uid} did not fit because the ring is full.
	 * @param ring the full ring
	 * @param uid the first ID that did not fit
	 */
	void rejectPutBuffer(RingBuffer ring, long uid);

}
