/**
 * The database worker-ID assigner: disposable IDs from the reference's {@code WORKER_NODE} table, or reusable
 * leases with the high-water mark stored beside them, on MySQL, MariaDB and PostgreSQL.
 */
package io.github.uidgen.worker.jdbc;
