package io.github.uidgen;

import java.util.Arrays;

/**
 * Counts duplicates among IDs: every ID is kept and checked, by sorting a copy and comparing neighbours.
 */
public final class UidSets {

	private UidSets() {
	}

	/**
	 * Returns how many IDs repeat an ID that came before them in sorted order.
	 * @param ids all IDs, in any order
	 * @return 0 when all are distinct
	 */
	public static long countDuplicates(long[]... ids) {
		int total = 0;
		for (long[] part : ids) {
			total += part.length;
		}
		long[] all = new long[total];
		int at = 0;
		for (long[] part : ids) {
			System.arraycopy(part, 0, all, at, part.length);
			at += part.length;
		}
		Arrays.parallelSort(all);
		long duplicates = 0;
		for (int i = 1; i < all.length; i++) {
			if (all[i] == all[i - 1]) {
				duplicates++;
			}
		}
		return duplicates;
	}

	/**
	 * Returns the index of the first ID not larger than the one before it, or -1 when strictly increasing.
	 * @param ids IDs in issue order
	 * @return the index or -1
	 */
	public static int firstNonIncreasing(long[] ids) {
		for (int i = 1; i < ids.length; i++) {
			if (ids[i] <= ids[i - 1]) {
				return i;
			}
		}
		return -1;
	}

}
