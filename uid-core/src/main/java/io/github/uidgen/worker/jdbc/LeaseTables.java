package io.github.uidgen.worker.jdbc;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The tables of lease mode as prepared at first use: the lease table and, beside it, the claim history table. The
 * history table is created with the lease table when schema initialisation is on, and else used only when it
 * exists, so that a deployment that manages its tables itself keeps handing out worker IDs until it adds it.
 *
 * @param dialect the database
 * @param lease the lease table's SQL
 * @param claims the history table's SQL; {@code null} when there is no history table
 * @param settled whether this holds for good; not while the lease table itself is missing (the claim then fails
 * naming it, and the next attempt looks again)
 */
record LeaseTables(SqlDialect dialect, LeaseTable lease, ClaimTable claims, boolean settled) {

	/** Under the assigner's name, the logger its users look at. */
	private static final Logger logger = LoggerFactory.getLogger(JdbcLeaseWorkerIdAssigner.class);

	/**
	 * Detects the database and prepares both tables.
	 * @param store the lease table's store
	 * @param claimTable the history table's name
	 * @return the tables
	 */
	static LeaseTables prepare(JdbcStore store, String claimTable) {
		SqlDialect dialect = store.dialect();
		LeaseTable lease = new LeaseTable(dialect, store.table(), store.rowLocking());
		if (store.prepareTable(SchemaScript.DEFAULT_CLAIM_TABLE, claimTable)) {
			return new LeaseTables(dialect, lease, new ClaimTable(dialect, claimTable), true);
		}
		if (!store.prepareTable(SchemaScript.DEFAULT_LEASE_TABLE, store.table())) {
			return new LeaseTables(dialect, lease, null, false);
		}
		logger.warn("uid claim history table {} does not exist, so the db assigner records no claims and cannot tell "
				+ "which instance issued an ID; it hands out worker IDs as before. Create it (and restart) with:\n\n{}"
				+ "\n\nor let the assigner create it (initializeSchema(true)).", claimTable,
				store.ddl(SchemaScript.DEFAULT_CLAIM_TABLE, claimTable));
		return new LeaseTables(dialect, lease, null, true);
	}

}
