package io.github.uidgen.worker;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

import io.github.uidgen.UidLayout;

/**
 * The layout a worker store records for the IDs composed with its worker IDs, as one line of text: worker ID 44 is a
 * different part of an ID with other bits (data center 1, worker 44 with 2 data-center bits is worker 300 without
 * them), so every instance on one store must compose IDs with one layout. The first generator on a store writes the
 * record; later ones compare theirs with it.
 */
public final class RecordedLayout {

	private static final String VERSION = "uid-layout/1";

	private RecordedLayout() {
	}

	/**
	 * Returns the record of a layout: epoch, time unit, and the time, worker, data-center and sequence bits.
	 * @param layout the layout
	 * @return for example {@code uid-layout/1 epoch=2025-01-01T00:00:00Z time-unit=milliseconds time-bits=41
	 * worker-bits=10 datacenter-bits=0 seq-bits=12}
	 */
	public static String of(UidLayout layout) {
		return VERSION + " epoch=" + layout.getEpochInstant() + " time-unit="
				+ layout.getTimeUnit().name().toLowerCase(Locale.ROOT) + " time-bits=" + layout.getTimeBits()
				+ " worker-bits=" + layout.getWorkerBits() + " datacenter-bits=" + layout.getDatacenterBits()
				+ " seq-bits=" + layout.getSeqBits();
	}

	/**
	 * Refuses a layout that differs from the one a store recorded.
	 * @param recorded the record as read from the store
	 * @param layout this instance's layout
	 * @param store the store, as the message names it
	 * @param record where the record lies in the store, for the message
	 * @throws LayoutMismatchException when the layouts differ
	 */
	public static void check(String recorded, UidLayout layout, String store, String record) {
		String own = of(layout);
		if (!own.equals(recorded)) {
			throw new LayoutMismatchException(store, record, recorded, own, differences(recorded, own));
		}
	}

	/** The settings whose values differ, with both values. */
	private static String differences(String recorded, String own) {
		Map<String, String> stored = fields(recorded);
		Map<String, String> ours = fields(own);
		return ours.entrySet()
			.stream()
			.filter((field) -> !Objects.equals(stored.get(field.getKey()), field.getValue()))
			.map((field) -> field.getKey() + " (recorded " + stored.getOrDefault(field.getKey(), "none") + ", here "
					+ field.getValue() + ")")
			.collect(Collectors.joining(", "));
	}

	private static Map<String, String> fields(String record) {
		Map<String, String> fields = new LinkedHashMap<>();
		for (String part : String.valueOf(record).split(" ")) {
			int equals = part.indexOf('=');
			if (equals > 0) {
				fields.put(part.substring(0, equals), part.substring(equals + 1));
			}
		}
		return fields;
	}

}
