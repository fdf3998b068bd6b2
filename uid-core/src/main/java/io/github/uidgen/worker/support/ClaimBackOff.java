package io.github.uidgen.worker.support;

import java.util.concurrent.ThreadLocalRandom;

import io.github.uidgen.worker.WorkerAssignmentException;

/**
 * The short random pause a claim takes after losing a race for a worker ID, so that instances starting together
 * spread out instead of colliding again; shared by the assigners that claim in rounds.
 */
public final class ClaimBackOff {

	private ClaimBackOff() {
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
