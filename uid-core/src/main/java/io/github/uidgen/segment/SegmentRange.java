package io.github.uidgen.segment;

/**
 * The numbers {@code first} to {@code last} (both included) that a {@link SegmentStore} handed out for one key.
 *
 * @param first the first number of the range
 * @param last the last number of the range, at least {@code first}
 */
public record SegmentRange(long first, long last) {

	/**
	 * Checks the bounds.
	 * @param first the first number of the range
	 * @param last the last number of the range
	 * @throws IllegalArgumentException when the range is empty
	 */
	public SegmentRange {
		if (last < first) {
			throw new IllegalArgumentException("Empty segment range " + first + ".." + last);
		}
	}

	/**
	 * Returns how many numbers the range holds.
	 * @return {@code last - first + 1}
	 */
	public long size() {
		return this.last - this.first + 1;
	}

	@Override
	public String toString() {
		return this.first + ".." + this.last;
	}

}
