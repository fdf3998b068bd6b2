package io.github.uidgen.snowflake;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;

import io.github.uidgen.UidException;
import io.github.uidgen.worker.WorkerLeaseLostException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a generator does after its lease was lost: either stays stopped until the instance restarts, or claims a
 * worker ID again from a thread of its own, retrying until it has one, and hands the new session to the generator,
 * which issues on it from then on.
 *
 * <p>The claim follows the rules every newcomer does, so it never takes a worker ID a live instance holds and waits
 * whatever a store that cannot vouch for its history makes newcomers wait; the new session starts after its mark,
 * and after everything the lost one reserved when it is the same worker ID. Nothing issued before the loss and
 * nothing issued after can collide. While it claims, {@link #failure()} says what happened and since when it has
 * been claiming; callers of the generator get that exception.
 */
final class LeaseRecovery {

	private static final Logger logger = LoggerFactory.getLogger(LeaseRecovery.class);

	/** Between two claims that failed: the store is not hammered, and a store back is noticed within a second. */
	private static final long RETRY_NANOS = TimeUnit.SECONDS.toNanos(1);

	/** A claim that keeps failing is logged again at most this often. */
	private static final long LOG_AGAIN_NANOS = TimeUnit.SECONDS.toNanos(30);

	private final boolean reclaim;

	private final AtomicLong recoveries = new AtomicLong();

	private volatile Thread thread;

	private volatile boolean closed;

	/** The exception callers get while the generator does not issue, or {@code null} while it does. */
	private volatile WorkerLeaseLostException failure;

	private volatile String lastAttemptFailure;

	private volatile long lostAtMillis;

	/** A loss reported while a claim was under way, to be claimed for once it is done; guarded by this. */
	private WorkerSession pendingLost;

	private Predicate<WorkerSession> pendingResume;

	/**
	 * Creates the recovery of one generator.
	 * @param reclaim whether to claim a worker ID again; otherwise the generator stays stopped
	 */
	LeaseRecovery(boolean reclaim) {
		this.reclaim = reclaim;
	}

	/**
	 * Records that a lease was lost, on the keeper's thread, and returns the exception callers get from now on: what
	 * happened, and what the generator does about it. Call {@link #reclaim} once issue has stopped.
	 * @param lost the session whose lease was lost
	 * @param reason what the assigner said
	 * @return the exception for callers
	 */
	synchronized WorkerLeaseLostException lost(WorkerSession lost, WorkerLeaseLostException reason) {
		this.lostAtMillis = lost.clock().currentTimeMillis();
		this.failure = describe(reason, this.lostAtMillis);
		return this.failure;
	}

	/**
	 * Returns what callers are told of a lost lease: what {@link #lost} recorded, or, when the session's keeper has
	 * stopped issue but not yet told this recovery (it does so right after, on its own thread), the same words.
	 * @param reported what the assigner said
	 * @param nowMillis the generator's clock
	 * @return the exception for callers
	 */
	WorkerLeaseLostException toldToCallers(WorkerLeaseLostException reported, long nowMillis) {
		WorkerLeaseLostException told = this.failure;
		return (told != null) ? told : describe(reported, nowMillis);
	}

	private WorkerLeaseLostException describe(WorkerLeaseLostException reason, long lostAtMillis) {
		if (!this.reclaim || this.closed) {
			return new WorkerLeaseLostException(reason, "Restart the instance to claim a worker ID again ("
					+ "uid.worker.reclaim-lost-lease is off).");
		}
		return new WorkerLeaseLostException(reason, "Claiming a worker ID again since "
				+ Instant.ofEpochMilli(lostAtMillis) + "; IDs are issued again once one is claimed and its "
				+ "mark has passed (the health details and the log say how it goes).");
	}

	/**
	 * Starts claiming a worker ID again, from a thread of its own, unless told not to or already doing so.
	 * @param lost the session whose lease was lost
	 * @param resume takes the new session and says whether the generator now issues on it; when it does not want it
	 * (the generator closed, or moved on meanwhile), it closes the session itself; when it throws, the claim is tried
	 * again
	 */
	synchronized void reclaim(WorkerSession lost, Predicate<WorkerSession> resume) {
		if (!this.reclaim || this.closed) {
			return;
		}
		if (this.thread != null) {
			// The session a claim has just brought lost its lease before that claim was done: claim again after it.
			this.pendingLost = lost;
			this.pendingResume = resume;
			return;
		}
		logger.warn("uid worker {} lost its lease at {}: claiming a worker ID again. The {} assigner never hands out one "
				+ "that a live instance holds and makes the claim wait as long as the store cannot vouch for its "
				+ "history; issue resumes after the new worker's mark.", lost.workerId(),
				Instant.ofEpochMilli(this.lostAtMillis), lost.assignerName());
		long lostAtMillis = this.lostAtMillis;
		WorkerLeaseLostException episode = this.failure;
		Thread claimer = new Thread(() -> run(lost, resume, lostAtMillis, episode), "uid-lease-recovery-worker-"
				+ lost.workerId());
		claimer.setDaemon(true);
		this.thread = claimer;
		claimer.start();
	}

	private void run(WorkerSession lost, Predicate<WorkerSession> resume, long lostAtMillis,
			WorkerLeaseLostException episode) {
		long startedNanos = System.nanoTime();
		long loggedNanos = 0;
		int attempts = 0;
		WorkerSession resumedOn = null;
		boolean declined = false;
		try {
			while (!this.closed && resumedOn == null) {
				attempts++;
				WorkerSession next;
				try {
					next = lost.reclaim();
				}
				catch (RuntimeException | Error ex) {
					this.lastAttemptFailure = ex.getMessage();
					if (loggedNanos == 0 || System.nanoTime() - loggedNanos > LOG_AGAIN_NANOS) {
						loggedNanos = System.nanoTime();
						logger.warn("uid worker {}: claiming a worker ID again failed (attempt {}, {} ms after the loss), "
								+ "retrying every second: {}", lost.workerId(), attempts,
								TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startedNanos), ex.toString());
					}
					LockSupport.parkNanos(this, RETRY_NANOS);
					continue;
				}
				try {
					if (this.closed) {
						return;
					}
					if (!resume.test(next)) {
						// The generator issues on another worker already (it moved there as the clock stepped back).
						declined = true;
						return;
					}
					resumedOn = next;
				}
				catch (RuntimeException ex) {
					this.lastAttemptFailure = ex.getMessage();
					logger.warn("uid worker {}: could not issue on worker {} claimed again, retrying: {}",
							lost.workerId(), next.workerId(), ex.toString());
					LockSupport.parkNanos(this, RETRY_NANOS);
				}
			}
			if (resumedOn != null) {
				this.recoveries.incrementAndGet();
				logger.warn("uid issues IDs again as worker {} from {} (after {} claim attempts), {} after worker {} lost "
						+ "its lease", resumedOn.workerId(),
						Instant.ofEpochMilli(resumedOn.layout().startMillis(resumedOn.startUnit())), attempts,
						Duration.ofMillis(resumedOn.clock().currentTimeMillis() - lostAtMillis), lost.workerId());
			}
		}
		finally {
			finish(resumedOn != null || declined, episode);
		}
	}

	/** Clears this episode's failure if the generator issues again, and claims for a loss that came in meanwhile. */
	private synchronized void finish(boolean issuing, WorkerLeaseLostException episode) {
		this.thread = null;
		if (issuing && this.failure == episode) {
			this.failure = null;
			this.lastAttemptFailure = null;
		}
		WorkerSession lost = this.pendingLost;
		Predicate<WorkerSession> resume = this.pendingResume;
		this.pendingLost = null;
		this.pendingResume = null;
		if (lost != null) {
			reclaim(lost, resume);
		}
	}

	/**
	 * Returns why the generator does not issue now because of a lost lease, with how the recovery is going.
	 * @return the failure, or {@code null} when no lease is lost
	 */
	UidException failure() {
		WorkerLeaseLostException current = this.failure;
		String attempt = this.lastAttemptFailure;
		if (current == null || attempt == null) {
			return current;
		}
		return new WorkerLeaseLostException(current, "The last claim failed: " + attempt);
	}

	/**
	 * Returns how many times the generator issued again after a lost lease.
	 * @return the count
	 */
	long recoveries() {
		return this.recoveries.get();
	}

	/** Stops claiming; a claim under way finishes and its session is closed by the generator, which is closed. */
	void close() {
		Thread running;
		synchronized (this) {
			this.closed = true;
			running = this.thread;
		}
		if (running != null) {
			running.interrupt();
			try {
				running.join(TimeUnit.SECONDS.toMillis(5));
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
	}

}
