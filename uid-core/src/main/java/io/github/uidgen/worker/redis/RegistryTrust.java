package io.github.uidgen.worker.redis;

/**
 * When a claim may trust the worker registry it finds in Redis, and when it must first wait the registry-loss margin.
 *
 * <p>A claim only sees the registry as it is now. A registry that a running holder's claim was taken out of (Redis
 * lost it, or older data was put back) looks exactly like one where that worker ID is simply free; a claimant that
 * trusts it may start issuing with the worker ID while the holder still issues with it. After the margin, every ID
 * such a holder may have issued lies in the past, whatever the registry says.
 */
public enum RegistryTrust {

	/**
	 * Trust a registry that the same Redis process ({@code run_id}) wrote last, once the claim has stood its probation
	 * (2 s by default), in which holders whose claims the registry's keys written back into the running process undid
	 * (a {@code RESTORE} of an older dump, a key-copying migration tool replaying old data) find out and raise their
	 * worker's mark; wait the margin when it was written by another process (a restart, perhaps from older data, a
	 * failover, a slot moved to another Cluster node), or lost. Not covered: such a holder cut off from Redis during the
	 * probation, when no other holder notices.
	 */
	SAME_SERVER,

	/**
	 * Trust no registry: every claim waits the margin before its worker ID is handed to the generator, holding the
	 * lease meanwhile. Covers a registry written back into the running Redis process as well, at the cost of that wait
	 * at every start (and a clock that steps back cannot be ridden out on a further worker ID).
	 */
	NONE

}
