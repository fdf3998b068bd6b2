package io.github.uidgen.worker;

/**
 * Thrown when the database table an assigner needs does not exist; the message carries the DDL that creates it.
 */
public class WorkerTableMissingException extends WorkerAssignmentException {

	private static final long serialVersionUID = 1L;

	private final String table;

	private final String ddl;

	public WorkerTableMissingException(String table, String ddl, Throwable cause) {
		super("The table " + table + " that hands out uid worker IDs does not exist. Create it with:\n\n" + ddl
				+ "\n\nor let the assigner create it at start (initializeSchema(true)).", cause);
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
