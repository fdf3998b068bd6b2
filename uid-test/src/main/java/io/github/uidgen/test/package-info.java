/**
 * The worker-ID assigner contract as abstract JUnit Jupiter tests, published so that a
 * {@link io.github.uidgen.worker.WorkerIdAssigner} of one's own can be checked the way uid checks its own:
 * {@link io.github.uidgen.test.AbstractWorkerIdAssignerContractTests} for every assigner,
 * {@link io.github.uidgen.test.AbstractLeaseWorkerIdAssignerContractTests} for those that lease worker IDs.
 */
package io.github.uidgen.test;
