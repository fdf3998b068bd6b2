package io.github.uidgen;

/**
 * Hands out unique, roughly time-ordered 64-bit IDs.
 *
 * <p>{@link #getUID()} and {@link #parseUID(long)} keep the signatures of Baidu's UidGenerator so code
 * written against it migrates unchanged; {@link #decode(long)} is the typed way to read an ID back.
 */
public interface UidGenerator {

	/**
	 * Returns the next unique ID; never negative.
	 * @return a unique ID
	 * @throws UidException when no ID can be issued safely (clock far behind, layout exhausted, lease lost)
	 */
	long getUID();

	/**
	 * Returns the layout the IDs of this generator follow.
	 * @return the layout
	 */
	UidLayout layout();

	/**
	 * Splits an ID into its time, worker ID and sequence.
	 * @param uid an ID of this generator's layout
	 * @return the decoded parts
	 * @throws InvalidUidException when the ID is negative or its time lies beyond the layout
	 */
	default DecodedUid decode(long uid) {
		return layout().decode(uid);
	}

	/**
	 * Describes an ID as JSON in the reference library's shape: {@code UID}, {@code timestamp},
	 * {@code workerId} and {@code sequence}, all strings; the timestamp is ISO-8601 in UTC.
	 * @param uid an ID of this generator's layout
	 * @return the JSON text
	 * @throws InvalidUidException when the ID cannot be decoded
	 */
	default String parseUID(long uid) {
		return decode(uid).toReferenceJson();
	}

	/**
	 * Describes this generator for endpoints, health checks and meters. The default says what any generator can:
	 * its class, its layout, and whether the layout has run out; uid's generators say more (worker, mark, counters,
	 * ring buffer, why they cannot issue), and an application's own generator may too by overriding this.
	 * @return the status now
	 */
	default UidGeneratorStatus status() {
		return UidGeneratorStatus.of(this, UidClock.SYSTEM);
	}

}
