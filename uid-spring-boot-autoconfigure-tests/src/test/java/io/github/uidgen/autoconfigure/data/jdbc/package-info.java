/**
 * A Spring Data JDBC application whose aggregate's {@code @Id} carries {@code @UidId}.
 */
package io.github.uidgen.autoconfigure.data.jdbc;
