package io.github.uidgen.samples.e2e;

import java.util.Arrays;

/**
 * Every ID the tests received, kept as primitives so that hundreds of thousands stay cheap, and checked for
 * duplicates by sorting and comparing neighbours.
 */
final class IssuedIds {

	private long[] ids = new long[1 << 16];

	private int size;

	synchronized void addAll(long[] batch) {
		if (this.size + batch.length > this.ids.length) {
			this.ids = Arrays.copyOf(this.ids, Math.max(this.ids.length * 2, this.size + batch.length));
		}
		System.arraycopy(batch, 0, this.ids, this.size, batch.length);
		this.size += batch.length;
	}

	void addAll(IssuedIds other) {
		addAll(other.toArray());
	}

	synchronized int size() {
		return this.size;
	}

	synchronized long[] toArray() {
		return Arrays.copyOf(this.ids, this.size);
	}

	synchronized long max() {
		return Arrays.stream(this.ids, 0, this.size).max().orElseThrow();
	}

	/**
	 * Counts the IDs that equal an earlier one.
	 * @return the number of duplicates, 0 when all are unique
	 */
	synchronized int duplicates() {
		long[] sorted = toArray();
		Arrays.sort(sorted);
		int duplicates = 0;
		for (int i = 1; i < sorted.length; i++) {
			if (sorted[i] == sorted[i - 1]) {
				duplicates++;
			}
		}
		return duplicates;
	}

	/**
	 * Counts the IDs that occur both here and in {@code other}.
	 * @param other IDs from another instance or an earlier run
	 * @return the number of IDs in common
	 */
	synchronized int commonWith(IssuedIds other) {
		long[] mine = toArray();
		long[] theirs = other.toArray();
		Arrays.sort(theirs);
		int common = 0;
		for (long id : mine) {
			if (Arrays.binarySearch(theirs, id) >= 0) {
				common++;
			}
		}
		return common;
	}

}
