/**
 * The ZooKeeper worker-ID assigners, through Apache Curator: reusable worker IDs under leases held by ephemeral znodes
 * and renewed with the high-water mark, each change one versioned ZooKeeper transaction; and Meituan Leaf's snowflake
 * nodes, continued in place.
 */
package io.github.uidgen.worker.zookeeper;
