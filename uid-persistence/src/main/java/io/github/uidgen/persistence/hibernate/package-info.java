/**
 * The Hibernate 7 side of {@link io.github.uidgen.persistence.UidId}: an identifier generator backed by the
 * application's {@link io.github.uidgen.UidGenerator} bean.
 */
package io.github.uidgen.persistence.hibernate;
