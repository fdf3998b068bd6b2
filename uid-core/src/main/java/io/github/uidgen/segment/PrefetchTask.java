package io.github.uidgen.segment;

/**
 * Work a {@link SegmentPrefetcher} runs for one generator: the claim of its next segment (the one kind is
 * {@link SegmentClaimer}). A task is its own link in the prefetcher's queue of requests, so that asking for a claim
 * allocates nothing; the claimer makes sure it is queued at most once at a time.
 */
abstract class PrefetchTask {

	/** The task queued before this one, while it waits in the prefetcher's request stack. */
	PrefetchTask queuedNext;

	/** When a retry of this task is due, by {@link System#nanoTime()}; read and written under the prefetcher's lock. */
	long dueNanos;

	/** Runs on one of the prefetcher's threads; never throws. */
	abstract void run();

}
