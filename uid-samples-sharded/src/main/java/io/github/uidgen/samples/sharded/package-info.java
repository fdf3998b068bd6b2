/**
 * A sharded order service: orders (MyBatis-Plus) and items (MyBatis) on ShardingSphere-JDBC over two MariaDB
 * databases, their IDs from uid, routed by uid's sharding algorithms.
 */
package io.github.uidgen.samples.sharded;
