package io.github.uidgen.worker.support;

import java.util.concurrent.ThreadLocalRandom;

import io.github.uidgen.worker.WorkerAssignmentException;

/**
 * The short random pause a claim takes after losing a race for a worker ID, and the window of worker IDs its next
 * round picks among, so that instances starting together spread out instead of colliding again; shared by the
 * assigners that claim in rounds.
 */
public final class ClaimBackOff {

	private ClaimBackOff() {
	}

	/**
	 * Returns how many of the lowest worker IDs a claim's round picks among at random: 8 in the first round, where a
	 * claim takes the lowest it can, doubling with every round lost. Claimants of the same moment, who all lost to
	 * each other, then spread over more worker IDs instead of racing for the same few again (a fleet of 1,000
	 * starting at once otherwise needs hundreds of rounds).
	 * @param round the round about to start, from 1
	 * @return the window's size
	 */
	public static int window(int round) {
		return 8 << Math.min(Math.max(round, 1) - 1, 20);
	}

	/**
	 * Waits a few random milliseconds, longer with each round (at most 49 ms).
	 * @param round the round just lost, from 1
	 * @throws WorkerAssignmentException when interrupted
	 */
	public static void pause(int round) {
		try {
			Thread.sleep(ThreadLocalRandom.current().nextLong(1, Math.min(50, 2L * round + 3)));
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new WorkerAssignmentException("Interrupted while claiming a uid worker ID", ex);
		}
	}

}
