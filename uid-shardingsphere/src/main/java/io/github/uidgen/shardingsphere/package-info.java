/**
 * Apache ShardingSphere-JDBC 5.5 support: the {@code UID} and {@code UID_SEGMENT} key generators, the
 * {@code UID_MOD} and {@code UID_INTERVAL} sharding algorithms on uid IDs, all configured in ShardingSphere's own
 * YAML, and {@link io.github.uidgen.shardingsphere.UidShardingSphere}, which binds them to the application's
 * generator.
 */
package io.github.uidgen.shardingsphere;
