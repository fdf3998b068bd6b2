package io.github.uidgen.migration;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;

import io.github.uidgen.InvalidLayoutException;
import io.github.uidgen.LayoutField;
import io.github.uidgen.UidLayout;
import io.github.uidgen.UidTimeUnit;

/**
 * Chooses or checks a uid layout whose IDs all sort after the IDs a table already holds, so that a team switching
 * from another generator (Baidu's UidGenerator, a Snowflake) keeps "newer row, larger ID".
 *
 * <p>An ID is {@code time << (workerBits + seqBits) | worker << seqBits | sequence}, so the smallest ID a layout can
 * issue at a given moment is its time there, shifted. Every ID issued from the switch on is larger than the
 * largest stored one when the time at the switch, shifted, already is: this class picks the latest epoch (a UTC
 * date, as {@code uid.epoch} takes it) for which that holds. The IDs left for the new layout are those between the
 * stored ones and 2^63, so the fewer bits worker and sequence take, the longer it lasts; and the higher the stored
 * IDs sit in the range, the further back the epoch lies (IDs of Baidu's default layout from 2024 put it centuries
 * back, which is correct: the epoch only sets where the count starts).
 */
public final class ContinuingLayout {

	private ContinuingLayout() {
	}

	/**
	 * Returns the layout of the given unit and bits with the latest epoch whose IDs, from {@code switchTime} on,
	 * are all greater than {@code largestStoredId}.
	 * @param largestStoredId the largest ID already stored ({@code SELECT MAX(id) ...})
	 * @param unit the time unit of the new layout
	 * @param timeBits its time bits
	 * @param workerBits its worker bits
	 * @param seqBits its sequence bits
	 * @param switchTime the earliest moment the new layout issues an ID
	 * @return the layout
	 * @throws InvalidLayoutException when no epoch makes the layout issue greater IDs for at least a day
	 */
	public static UidLayout after(long largestStoredId, UidTimeUnit unit, int timeBits, int workerBits, int seqBits,
			Instant switchTime) {
		if (largestStoredId < 0) {
			throw new IllegalArgumentException("The largest stored ID must not be negative, but is " + largestStoredId);
		}
		int shift = workerBits + seqBits;
		long neededUnits = (largestStoredId >>> shift) + 1;
		long unitMillis = unit.toMillis();
		long maxTime = ~(-1L << timeBits);
		if (shift >= 63 || neededUnits > maxTime) {
			throw noRoom(largestStoredId, unit, timeBits, workerBits, seqBits);
		}
		// Far in the past when the stored IDs sit high in the range: that only moves where the count starts.
		long latestEpochMillis = switchTime.toEpochMilli() - neededUnits * unitMillis;
		LocalDate epoch = Instant.ofEpochMilli(latestEpochMillis).atZone(ZoneOffset.UTC).toLocalDate();
		UidLayout layout;
		try {
			layout = new UidLayout(unit, epoch, timeBits, workerBits, seqBits, switchTime.toEpochMilli());
		}
		catch (InvalidLayoutException ex) {
			throw noRoom(largestStoredId, unit, timeBits, workerBits, seqBits);
		}
		if (layout.getExpiry().isBefore(switchTime.plusSeconds(86_400))) {
			throw noRoom(largestStoredId, unit, timeBits, workerBits, seqBits);
		}
		return layout;
	}

	/**
	 * Checks that a layout issues only IDs greater than {@code largestStoredId} from {@code switchTime} on.
	 * @param layout the layout
	 * @param largestStoredId the largest ID already stored
	 * @param switchTime the earliest moment the layout issues an ID
	 * @throws InvalidLayoutException when an ID at {@code switchTime} could be smaller than or equal to it
	 */
	public static void check(UidLayout layout, long largestStoredId, Instant switchTime) {
		long smallest = smallestIdAt(layout, switchTime);
		if (smallest <= largestStoredId) {
			UidLayout suggested = after(largestStoredId, layout.getTimeUnit(), layout.getTimeBits(),
					layout.getWorkerBits(), layout.getSeqBits(), switchTime);
			throw new InvalidLayoutException(List.of(LayoutField.EPOCH), layout.getEpoch().toString(),
					"At " + switchTime + " this layout issues IDs from " + smallest
							+ ", not above the largest stored ID " + largestStoredId,
					"set the epoch to " + suggested.getEpoch() + " or earlier");
		}
	}

	/**
	 * Returns the smallest ID a layout can issue at a moment: worker 0, sequence 0.
	 * @param layout the layout
	 * @param time the moment
	 * @return the smallest ID
	 */
	public static long smallestIdAt(UidLayout layout, Instant time) {
		return layout.compose(layout.toUnit(time.toEpochMilli()), 0, 0);
	}

	private static InvalidLayoutException noRoom(long largestStoredId, UidTimeUnit unit, int timeBits,
			int workerBits, int seqBits) {
		return new InvalidLayoutException(List.of(LayoutField.TIME_BITS, LayoutField.WORKER_BITS, LayoutField.SEQ_BITS),
				unit.name().toLowerCase() + ", " + timeBits + " + " + workerBits + " + " + seqBits,
				"No epoch lets this layout issue IDs above " + largestStoredId + " for more than a day",
				"give the time more bits and worker and sequence fewer (time + worker + sequence = 63), or use "
						+ "seconds");
	}

}
