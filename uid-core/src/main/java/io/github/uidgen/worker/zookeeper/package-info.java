/**
 * The ZooKeeper worker-ID assigner: reusable worker IDs under leases held by ephemeral znodes and renewed with the
 * high-water mark, each change one versioned ZooKeeper transaction, through Apache Curator.
 */
package io.github.uidgen.worker.zookeeper;
