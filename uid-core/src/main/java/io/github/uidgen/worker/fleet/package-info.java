/**
 * What a worker store tells an operator about every instance that shares it: who holds which worker ID, since when
 * and up to which high-water mark ({@link io.github.uidgen.worker.fleet.WorkerFleet#read(int)}), and which instance
 * held a worker ID when a given ID was issued ({@link io.github.uidgen.worker.fleet.ClaimHistory}). Read only, and
 * never on the path that issues IDs.
 */
package io.github.uidgen.worker.fleet;
