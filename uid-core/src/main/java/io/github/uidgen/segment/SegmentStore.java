package io.github.uidgen.segment;

import java.util.Optional;

/**
 * Where segments come from: one counter per key, advanced atomically, shared by every instance that issues numbers
 * of that key.
 *
 * <p>Implementations must guarantee what the generator's uniqueness rests on: every range handed out for a key, to
 * any instance, lies entirely above every range handed out for that key before, and a claim is durable once
 * {@link #claim(String, long) claim} returns (committed on its own, never as part of a caller's transaction that
 * might still roll back).
 */
public interface SegmentStore {

	/**
	 * Advances the counter of a key by {@code size} and returns the numbers it moved past. A key the store has never
	 * seen starts at 0, so its first range begins at 1 (a store may instead refuse keys it was not given, as the
	 * store on Leaf's table does). A store with a smallest step of its own may hand out more than {@code size}.
	 * @param key the key, already validated by the generator
	 * @param size how many numbers to claim, at least 1
	 * @return the claimed range
	 * @throws SegmentStoreUnavailableException when the store cannot be reached or does not answer in time, so that
	 * the claim is worth trying again (a start waits that out, see {@link SegmentStoreUnavailableException})
	 * @throws SegmentStoreException when the store answers but cannot be used
	 */
	SegmentRange claim(String key, long size);

	/**
	 * Reads every key the store holds, with its counter, for operators ({@code /actuator/uid/fleet}). Reads only:
	 * takes no lock a claim waits for, and is never called on the path that hands out numbers.
	 * <p>The default reads nothing: a store of one's own need not offer it.
	 * @param maxKeys how many keys to list at most (in key order); the count covers all of them
	 * @return the keys, or empty when the store does not offer a reading
	 * @throws SegmentStoreException when the store cannot be read
	 */
	default Optional<StoredKeys> readKeys(int maxKeys) {
		return Optional.empty();
	}

	/**
	 * Returns a short name of the store for messages, the endpoint and metrics.
	 * @return for example {@code db} or {@code redis}
	 */
	default String name() {
		return getClass().getSimpleName();
	}

}
