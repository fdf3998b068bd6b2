package io.github.uidgen;

import java.time.Instant;

/**
 * The parts of one ID: the start of its time unit, the data center and worker that issued it and its sequence.
 *
 * @param uid the ID itself
 * @param timestamp the start of the time unit the ID was issued in
 * @param datacenterId the data-center ID it carries, or {@code null} when the layout has no data-center bits
 * @param workerId the worker ID it carries (within its data center, when the layout has data-center bits)
 * @param sequence its sequence within that worker and time unit
 */
public record DecodedUid(long uid, Instant timestamp, Long datacenterId, long workerId, long sequence) {

	/**
	 * Describes an ID of a layout without data-center bits.
	 * @param uid the ID itself
	 * @param timestamp the start of the time unit the ID was issued in
	 * @param workerId the worker ID it carries
	 * @param sequence its sequence within that worker and time unit
	 */
	public DecodedUid(long uid, Instant timestamp, long workerId, long sequence) {
		this(uid, timestamp, null, workerId, sequence);
	}

	/**
	 * Renders this ID the way the reference library's {@code parseUID} did (every value a string), with the
	 * timestamp in ISO-8601 instead of a zone-dependent local format, and a {@code datacenterId} before the
	 * {@code workerId} when the layout has data-center bits.
	 * @return JSON text
	 */
	public String toReferenceJson() {
		return "{\"UID\":\"" + this.uid + "\",\"timestamp\":\"" + this.timestamp + "\","
				+ ((this.datacenterId != null) ? "\"datacenterId\":\"" + this.datacenterId + "\"," : "")
				+ "\"workerId\":\"" + this.workerId + "\",\"sequence\":\"" + this.sequence + "\"}";
	}

}
