package io.github.uidgen;

import java.time.Instant;

/**
 * The parts of one ID: the start of its time unit, the worker that issued it and its sequence.
 *
 * @param uid the ID itself
 * @param timestamp the start of the time unit the ID was issued in
 * @param workerId the worker ID it carries
 * @param sequence its sequence within that worker and time unit
 */
public record DecodedUid(long uid, Instant timestamp, long workerId, long sequence) {

	/**
	 * Renders this ID the way the reference library's {@code parseUID} did (every value a string), with the
	 * timestamp in ISO-8601 instead of a zone-dependent local format.
	 * @return JSON text
	 */
	public String toReferenceJson() {
		return "{\"UID\":\"" + this.uid + "\",\"timestamp\":\"" + this.timestamp + "\",\"workerId\":\"" + this.workerId
				+ "\",\"sequence\":\"" + this.sequence + "\"}";
	}

}
