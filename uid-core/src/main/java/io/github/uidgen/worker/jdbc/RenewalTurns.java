package io.github.uidgen.worker.jdbc;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

import io.github.uidgen.worker.WorkerStoreUnavailableException;

/**
 * Lets the renewals of one worker ID run their statement one at a time. Every renewal of a worker ID updates the same
 * row, so one sent while an earlier one still runs at the database (the generator sends the next renewal beside one
 * that has not answered within its interval) could only wait there for the earlier one's row lock, and the server
 * keeps a statement waiting for a lock after its caller gave up on it: in a fleet of 1,000 whose database fell behind
 * at its start, up to 813 renewals waited so at once, one behind another on each instance's row, and the database
 * spent its CPU on them. A renewal waits for its turn here instead, once it has its connection, so that one waiting
 * for the pool's connection still lets the renewals after it reach the database on connections of their own
 * ({@link PoolOrDirectDataSource}).
 */
final class RenewalTurns {

	private final Map<Long, ReentrantLock> turns = new ConcurrentHashMap<>();

	private final Duration wait;

	private final String waitSource;

	/**
	 * @param wait how long a renewal waits for the one before it: the bound on a round trip, by which the one before
	 * it has ended
	 * @param waitSource where that bound comes from, for messages
	 */
	RenewalTurns(Duration wait, String waitSource) {
		this.wait = wait;
		this.waitSource = waitSource;
	}

	/**
	 * Runs a renewal of a worker ID once no other renewal of it runs.
	 * @param workerId the worker ID renewed
	 * @param renewal the statement
	 * @return what the statement returned
	 * @throws WorkerStoreUnavailableException when the renewal before it did not end within the wait
	 */
	<T> T inTurn(long workerId, Supplier<T> renewal) {
		ReentrantLock turn = this.turns.computeIfAbsent(workerId, (id) -> new ReentrantLock());
		if (!awaitTurn(turn)) {
			throw new WorkerStoreUnavailableException("A renewal of uid worker " + workerId + " sent earlier has run at "
					+ "the database for longer than " + this.wait.toMillis() + " ms (" + this.waitSource + "); this one "
					+ "was not sent beside it, as it would only wait for the same row. Check the database's load and "
					+ "the locks held on the lease table.", null);
		}
		try {
			return renewal.get();
		}
		finally {
			turn.unlock();
		}
	}

	private boolean awaitTurn(ReentrantLock turn) {
		try {
			return turn.tryLock(this.wait.toNanos(), TimeUnit.NANOSECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

	/**
	 * Counts the renewals of a worker ID waiting for their turn.
	 * @param workerId the worker ID
	 * @return how many wait
	 */
	int waiting(long workerId) {
		ReentrantLock turn = this.turns.get(workerId);
		return (turn != null) ? turn.getQueueLength() : 0;
	}

}
