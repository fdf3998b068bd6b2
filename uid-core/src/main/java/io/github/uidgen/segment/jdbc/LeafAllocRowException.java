package io.github.uidgen.segment.jdbc;

import io.github.uidgen.segment.SegmentStoreException;

/**
 * Thrown when the {@code leaf_alloc} row of a key cannot be claimed from: there is no row for the {@code biz_tag}, or
 * its {@code step} is not positive. Nothing was claimed; the message carries the statement that fixes the row.
 */
public class LeafAllocRowException extends SegmentStoreException {

	private static final long serialVersionUID = 1L;

	private final String table;

	private final String tag;

	private final String statement;

	public LeafAllocRowException(String table, String tag, String problem, String statement) {
		super(problem + " Run:\n\n" + statement + "\n\nNothing was claimed from the row.");
		this.table = table;
		this.tag = tag;
		this.statement = statement;
	}

	/**
	 * Returns the table as configured.
	 * @return the table name
	 */
	public String getTable() {
		return this.table;
	}

	/**
	 * Returns the {@code biz_tag} of the row, the segment key.
	 * @return the tag
	 */
	public String getTag() {
		return this.tag;
	}

	/**
	 * Returns the SQL statement that creates or fixes the row.
	 * @return the statement
	 */
	public String getStatement() {
		return this.statement;
	}

}
