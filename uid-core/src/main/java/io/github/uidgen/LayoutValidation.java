package io.github.uidgen;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;

/**
 * The checks a {@link UidLayout} must pass, each refusing with an {@link InvalidLayoutException} that names the
 * fields, the value and what to change. Kept apart from the layout's bit arithmetic, which runs on every ID, while
 * these run once, when a layout is built or a generator started.
 */
final class LayoutValidation {

	private static final int MAX_BITS = 63;

	private LayoutValidation() {
	}

	/** Refuses a missing time unit or epoch, a field without bits, and fields that do not fit a positive long. */
	static void requireFields(UidTimeUnit timeUnit, Instant epoch, int timeBits, int workerBits, int seqBits) {
		if (timeUnit == null) {
			throw new InvalidLayoutException(List.of(LayoutField.TIME_UNIT), "null", "No time unit is set",
					"set it to seconds or milliseconds");
		}
		if (epoch == null) {
			throw new InvalidLayoutException(List.of(LayoutField.EPOCH), "null", "No epoch is set",
					"set a date in the past, such as " + UidLayout.DEFAULT_EPOCH);
		}
		requirePositive(LayoutField.TIME_BITS, "time", timeBits);
		requirePositive(LayoutField.WORKER_BITS, "worker", workerBits);
		requirePositive(LayoutField.SEQ_BITS, "sequence", seqBits);
		int total = timeBits + workerBits + seqBits;
		if (total > MAX_BITS) {
			throw new InvalidLayoutException(List.of(LayoutField.TIME_BITS, LayoutField.WORKER_BITS, LayoutField.SEQ_BITS),
					timeBits + " + " + workerBits + " + " + seqBits + " = " + total,
					"Time, worker and sequence bits do not fit the 63 bits of a positive long",
					"make them add up to 63 or less, for example " + UidLayout.DEFAULT_TIME_BITS + " + "
							+ UidLayout.DEFAULT_WORKER_BITS + " + " + UidLayout.DEFAULT_SEQ_BITS);
		}
	}

	private static void requirePositive(LayoutField field, String name, int bits) {
		if (bits < 1) {
			throw new InvalidLayoutException(List.of(field), String.valueOf(bits),
					"The " + name + " field needs at least one bit", "set a positive number of " + name + " bits");
		}
	}

	/** Refuses a layout whose epoch lies in the future, or whose range has run out, as of the given time. */
	static void requireUsableAt(UidLayout layout, long nowMillis) {
		if (layout.getEpochInstant().toEpochMilli() > nowMillis) {
			throw new InvalidLayoutException(List.of(LayoutField.EPOCH), epochText(layout),
					"The epoch lies in the future",
					"set a date no later than today (UTC), such as " + UidLayout.DEFAULT_EPOCH);
		}
		if (!layout.getExpiry().isAfter(Instant.ofEpochMilli(nowMillis))) {
			throw new InvalidLayoutException(List.of(LayoutField.TIME_BITS, LayoutField.EPOCH),
					layout.getTimeBits() + " time bits of " + layout.getTimeUnit().name().toLowerCase() + " from "
							+ epochText(layout),
					"The layout ran out on " + layout.getExpiry() + " and would issue negative or repeated IDs",
					"give it more time bits or a later epoch");
		}
	}

	/** Refuses data-center bits that are negative or would leave the worker ID no bit. */
	static void requireDatacenterBits(int workerBits, int datacenterBits) {
		if (datacenterBits < 0) {
			throw new InvalidLayoutException(List.of(LayoutField.DATACENTER_BITS), String.valueOf(datacenterBits),
					"The data-center part cannot have fewer than 0 bits",
					"set 0 for a single data center, or 1 to " + (workerBits - 1) + " to take that many of the "
							+ workerBits + " worker bits for data centers");
		}
		if (datacenterBits >= workerBits) {
			throw new InvalidLayoutException(List.of(LayoutField.DATACENTER_BITS, LayoutField.WORKER_BITS),
					datacenterBits + " data-center bits of " + workerBits + " worker bits",
					"The data-center bits are taken from the worker bits and would leave none for worker IDs",
					"use fewer data-center bits than worker bits (for example 2 of " + Math.max(workerBits, 3)
							+ "), or give the layout more worker bits, taking them from the sequence or time bits");
		}
	}

	/** Refuses a data-center ID the layout's data-center bits cannot hold; see {@link UidLayout#checkDatacenterId}. */
	static void requireDatacenterId(UidLayout layout, long datacenterId) {
		long maxDatacenterId = layout.getMaxDatacenterId();
		if (datacenterId >= 0 && datacenterId <= maxDatacenterId) {
			return;
		}
		int datacenterBits = layout.getDatacenterBits();
		String value = "data-center ID " + datacenterId + " with " + datacenterBits + " data-center bits";
		if (datacenterId < 0) {
			throw new InvalidLayoutException(List.of(LayoutField.DATACENTER_ID), value,
					"A data-center ID cannot be negative", "use a data-center ID from 0 to " + maxDatacenterId);
		}
		if (datacenterBits == 0) {
			throw new InvalidLayoutException(List.of(LayoutField.DATACENTER_ID, LayoutField.DATACENTER_BITS), value,
					"The layout has no data-center bits to hold a data-center ID",
					"give the layout at least " + bitsFor(datacenterId) + " data-center bits, taken from its "
							+ layout.getWorkerBits() + " worker bits, or use data-center ID 0");
		}
		throw new InvalidLayoutException(List.of(LayoutField.DATACENTER_ID, LayoutField.DATACENTER_BITS), value,
				"The data-center ID does not fit the layout's data-center bits, which hold 0 to " + maxDatacenterId,
				"use a data-center ID from 0 to " + maxDatacenterId + ", or give the layout at least "
						+ bitsFor(datacenterId) + " data-center bits");
	}

	/** The epoch as users wrote it, for messages: a date when it is midnight UTC, the instant otherwise. */
	static String epochText(UidLayout layout) {
		Instant instant = layout.getEpochInstant();
		LocalDate date = layout.getEpoch();
		return instant.equals(date.atStartOfDay(ZoneOffset.UTC).toInstant()) ? date.toString() : instant.toString();
	}

	/** The bits a number needs, at least one. */
	private static int bitsFor(long value) {
		return Math.max(1, 64 - Long.numberOfLeadingZeros(value));
	}

}
