package io.github.uidgen.segment.jdbc;

import io.github.uidgen.segment.SegmentStoreException;

/**
 * Thrown when the segment table does not exist; the message carries the DDL that creates it.
 */
public class SegmentTableMissingException extends SegmentStoreException {

	private static final long serialVersionUID = 1L;

	private final String table;

	private final String ddl;

	public SegmentTableMissingException(String table, String ddl, Throwable cause) {
		super("The table " + table + " that hands out uid segments does not exist. Create it with:\n\n" + ddl
				+ "\n\nor let the store create it at start (uid.segment.db.initialize-schema=true).", cause);
		this.table = table;
		this.ddl = ddl;
	}

	/**
	 * Returns the missing table's name as configured.
	 * @return the table name
	 */
	public String getTable() {
		return this.table;
	}

	/**
	 * Returns the statement that creates the table, for the database in use.
	 * @return the DDL
	 */
	public String getDdl() {
		return this.ddl;
	}

}
