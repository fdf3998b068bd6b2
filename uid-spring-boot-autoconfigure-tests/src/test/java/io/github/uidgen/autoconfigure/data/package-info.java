/**
 * {@code @UidId} entities saved through JPA and Spring Data JDBC repositories on MariaDB and PostgreSQL.
 */
package io.github.uidgen.autoconfigure.data;
