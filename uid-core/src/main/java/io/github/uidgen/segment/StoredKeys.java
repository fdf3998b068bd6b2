package io.github.uidgen.segment;

import java.util.List;

/**
 * What a segment store holds at one moment: every key with its counter.
 *
 * @param store the kind of store: {@code db}, {@code leaf} (Leaf's {@code leaf_alloc}), {@code redis}
 * @param location where in it the keys live (a table, a key prefix), for the operator to look
 * @param count how many keys the store holds, all of them counted
 * @param keys the keys in key order, at most as many as asked for
 */
public record StoredKeys(String store, String location, long count, List<StoredKey> keys) {

	/**
	 * Returns whether the list stops short of every key the store holds.
	 * @return whether keys were left out
	 */
	public boolean truncated() {
		return this.keys.size() < this.count;
	}

}
