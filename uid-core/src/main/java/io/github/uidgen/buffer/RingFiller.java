package io.github.uidgen.buffer;

import io.github.uidgen.UidException;

/**
 * The side that puts IDs into a {@link RingBuffer}: the ring asks it for a refill when the fill drops under the
 * padding threshold, and a take policy asks it why the ring is empty.
 */
public interface RingFiller {

	/**
	 * Asks for an asynchronous refill; cheap when one is already asked for, and never blocking.
	 */
	void requestFill();

	/**
	 * Returns why no more IDs will come, if that is so (layout exhausted, lease lost, generator closed).
	 * @return the failure, or {@code null} while IDs still come
	 */
	UidException failure();

	/**
	 * Describes the filler's state for an error message when a taker gave up waiting.
	 * @return a short description
	 */
	String describe();

}
