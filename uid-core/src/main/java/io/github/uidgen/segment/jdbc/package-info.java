/**
 * The database segment store: one row per key in a table of MySQL, MariaDB or PostgreSQL, advanced by a conditional
 * {@code UPDATE} in a transaction of its own.
 */
package io.github.uidgen.segment.jdbc;
