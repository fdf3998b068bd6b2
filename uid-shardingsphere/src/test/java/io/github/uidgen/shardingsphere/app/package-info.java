/**
 * A sharded application: MyBatis-Plus entities and MyBatis mappers on a ShardingSphere-JDBC data source, with the
 * uid starter.
 */
package io.github.uidgen.shardingsphere.app;
