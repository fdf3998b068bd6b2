package io.github.uidgen.autoconfigure;

/**
 * Settings of the db segment store, under {@code uid.segment.db.*}.
 */
public class UidSegmentDbProperties {

	/**
	 * Table of segment counters, one row per key.
	 */
	private String table = "UID_SEGMENT";

	/**
	 * Whether to create the table when it does not exist.
	 */
	private boolean initializeSchema = false;

	public String getTable() {
		return this.table;
	}

	public void setTable(String table) {
		this.table = table;
	}

	public boolean isInitializeSchema() {
		return this.initializeSchema;
	}

	public void setInitializeSchema(boolean initializeSchema) {
		this.initializeSchema = initializeSchema;
	}

}
