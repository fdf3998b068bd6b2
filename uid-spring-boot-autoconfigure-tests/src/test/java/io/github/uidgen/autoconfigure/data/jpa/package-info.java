/**
 * A JPA application whose entity's {@code @Id} carries {@code @UidId}.
 */
package io.github.uidgen.autoconfigure.data.jpa;
