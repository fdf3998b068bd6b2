package io.github.uidgen.worker.fleet;

/**
 * Where a worker ID stands in its store.
 */
public enum WorkerState {

	/** Held under a live lease (or, for stores without leases, by a live session). */
	HELD,

	/** Given back by its last holder on a clean stop; free, with its mark. */
	RELEASED,

	/** Its last holder's lease ran out without a release; free, with its mark. */
	EXPIRED

}
