package io.github.uidgen.segment.jdbc;

import io.github.uidgen.segment.SegmentStoreException;

/**
 * Thrown when the table a {@link LeafAllocSegmentStore} claims from is not Meituan Leaf's {@code leaf_alloc}: it does
 * not exist, or its columns are not Leaf's. The message names the table and what to do.
 */
public class LeafAllocTableException extends SegmentStoreException {

	private static final long serialVersionUID = 1L;

	private final String table;

	public LeafAllocTableException(String table, String message, Throwable cause) {
		super(message, cause);
		this.table = table;
	}

	/**
	 * Returns the table as configured.
	 * @return the table name
	 */
	public String getTable() {
		return this.table;
	}

}
