/**
 * MyBatis support: {@link io.github.uidgen.mybatis.UidIdInterceptor} fills the
 * {@link io.github.uidgen.persistence.UidId} fields of the objects an insert writes.
 */
package io.github.uidgen.mybatis;
