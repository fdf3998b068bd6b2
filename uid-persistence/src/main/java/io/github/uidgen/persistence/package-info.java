/**
 * IDs as primary keys: {@link io.github.uidgen.persistence.UidId} marks an entity's {@code @Id} to be filled from the
 * application's {@link io.github.uidgen.UidGenerator} before the insert.
 */
package io.github.uidgen.persistence;
