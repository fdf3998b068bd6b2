/**
 * The published contract run on every assigner uid ships (static, db lease on MariaDB and PostgreSQL, redis on a
 * single server, a Cluster and a Sentinel setup, zookeeper), against real and throwaway servers; proves the contract
 * tests usable from outside their package, as a user's own would be.
 */
package io.github.uidgen.test.assigners;
