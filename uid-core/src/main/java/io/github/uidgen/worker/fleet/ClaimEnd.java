package io.github.uidgen.worker.fleet;

/**
 * How a claim of a worker ID ended.
 */
public enum ClaimEnd {

	/** It has not: the claimant holds the worker ID still (or its lease ran out and nobody claimed it since). */
	OPEN,

	/** The claimant gave the worker ID back. */
	RELEASED,

	/** The claimant's lease ran out, and a later claim found it so. */
	EXPIRED

}
