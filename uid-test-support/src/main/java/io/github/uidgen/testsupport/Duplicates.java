package io.github.uidgen.testsupport;

import java.util.Arrays;

/**
 * Counts repeated IDs exactly: every ID is kept, sorted and compared with its neighbour.
 */
public final class Duplicates {

	private Duplicates() {
	}

	/**
	 * Counts the IDs that repeat an earlier one, across all runs.
	 * @param runs the IDs of each run
	 * @return the number of duplicates, 0 when all are distinct
	 */
	public static long count(long[]... runs) {
		long[] all = concat(runs);
		Arrays.sort(all);
		long duplicates = 0;
		for (int i = 1; i < all.length; i++) {
			if (all[i] == all[i - 1]) {
				duplicates++;
			}
		}
		return duplicates;
	}

	/**
	 * Joins arrays.
	 * @param runs the arrays
	 * @return one array with every element
	 */
	public static long[] concat(long[]... runs) {
		int total = 0;
		for (long[] run : runs) {
			total += run.length;
		}
		long[] all = new long[total];
		int at = 0;
		for (long[] run : runs) {
			System.arraycopy(run, 0, all, at, run.length);
			at += run.length;
		}
		return all;
	}

}
