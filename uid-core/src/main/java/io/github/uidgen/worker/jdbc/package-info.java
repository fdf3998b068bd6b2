/**
 * The database worker-ID assigners, on MySQL, MariaDB and PostgreSQL through spring-jdbc:
 * {@link io.github.uidgen.worker.jdbc.JdbcLeaseWorkerIdAssigner} leases reusable worker IDs with the high-water mark
 * stored beside them, {@link io.github.uidgen.worker.jdbc.DisposableWorkerIdAssigner} takes a new one from the
 * reference's {@code WORKER_NODE} table at every start.
 */
package io.github.uidgen.worker.jdbc;
