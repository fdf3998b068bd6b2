/**
 * MyBatis-Plus support: {@link io.github.uidgen.mybatisplus.UidIdentifierGenerator} gives
 * {@code @TableId(type = IdType.ASSIGN_ID)} keys from the application's {@link io.github.uidgen.UidGenerator}, and
 * {@link io.github.uidgen.mybatisplus.UidSegmentKey} gives an entity its own segment key.
 */
package io.github.uidgen.mybatisplus;
