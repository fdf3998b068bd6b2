package io.github.uidgen.autoconfigure;

/**
 * Settings of the leaf segment store, on a Leaf deployment's own table, under {@code uid.segment.leaf.*}.
 */
public class UidSegmentLeafProperties {

	/**
	 * Leaf's table of counters, one row per biz_tag (the segment key); rows are never created, and the step
	 * column is never written and honoured as the smallest step.
	 */
	private String table = "leaf_alloc";

	public String getTable() {
		return this.table;
	}

	public void setTable(String table) {
		this.table = table;
	}

}
