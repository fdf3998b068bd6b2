package io.github.uidgen.segment.jdbc;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import io.github.uidgen.segment.SegmentRange;

/**
 * The claims a claimer recorded, sorted by their first number, to tell whether a number handed out lies inside one of
 * them: the check that every number came from a claim the table recorded.
 */
final class RecordedClaims {

	private final List<SegmentRange> sorted;

	RecordedClaims(List<SegmentRange> claims) {
		List<SegmentRange> sorted = new ArrayList<>(claims);
		sorted.sort(Comparator.comparingLong(SegmentRange::first));
		this.sorted = sorted;
	}

	/**
	 * Whether a number lies in one of the claims, which are disjoint.
	 * @param number a number handed out
	 * @return whether a claim holds it
	 */
	boolean cover(long number) {
		int low = 0;
		int high = this.sorted.size() - 1;
		while (low <= high) {
			int middle = (low + high) >>> 1;
			SegmentRange claim = this.sorted.get(middle);
			if (number < claim.first()) {
				high = middle - 1;
			}
			else if (number > claim.last()) {
				low = middle + 1;
			}
			else {
				return true;
			}
		}
		return false;
	}

}
