/**
 * Auto-configuration of {@code @UidId} for Spring Data JDBC aggregates.
 */
package io.github.uidgen.autoconfigure.data;
