/**
 * The Spring Data JDBC side of {@link io.github.uidgen.persistence.UidId}: a callback that fills the ID before the
 * aggregate is converted for its insert.
 */
package io.github.uidgen.persistence.jdbc;
