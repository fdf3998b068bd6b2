package io.github.uidgen.snowflake;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The default generator's moves to a further worker ID when the clock steps back behind the mark: opens the next
 * worker, keeps the workers left behind (with their leases) until the clock has passed their marks, and counts and
 * logs each move. The generator itself moves its state, and calls these under its own lock; they run only after a
 * step back of the clock, never while IDs are issued.
 */
final class WorkerSwitches {

	/** How long after a failed move to another worker the next one is tried, so a store down is not hammered. */
	private static final long RETRY_NANOS = TimeUnit.SECONDS.toNanos(1);

	/** Logged under the generator's name, where operators already look for these lines. */
	private static final Logger logger = LoggerFactory.getLogger(DefaultUidGenerator.class);

	/** Earlier workers, kept until the clock has passed their marks; read by status without the generator's lock. */
	private final List<WorkerSession> retired = new CopyOnWriteArrayList<>();

	private final AtomicLong count = new AtomicLong();

	/** {@link System#nanoTime()} of the last move to another worker that failed. */
	private long lastFailureNanos;

	private boolean failed;

	/**
	 * Claims a further worker ID whose mark lies behind the clock, unless a move failed less than a second ago.
	 * @param from the worker whose mark lies ahead of the clock
	 * @param behindMillis how far the clock stepped back, for the log
	 * @return the new worker's session, or {@code null} when none could be had
	 */
	WorkerSession openBehind(WorkerSession from, long behindMillis) {
		if (this.failed && System.nanoTime() - this.lastFailureNanos < RETRY_NANOS) {
			return null;
		}
		WorkerSession to;
		try {
			to = from.openBehind();
		}
		catch (RuntimeException ex) {
			logger.warn("uid worker {}: the clock stepped back {} ms, and no further worker ID could be claimed: {}",
					from.workerId(), behindMillis, ex.toString());
			to = null;
		}
		this.failed = (to == null);
		if (to == null) {
			this.lastFailureNanos = System.nanoTime();
		}
		return to;
	}

	/** Keeps a worker the generator is about to move away from, and forgets those released meanwhile. */
	void keep(WorkerSession from) {
		this.retired.removeIf(WorkerSession::isClosed);
		this.retired.add(from);
	}

	/** Retires the worker the generator's state has just moved away from, and counts and logs the move. */
	void moved(WorkerSession from, WorkerSession to, long behindMillis) {
		from.retire();
		this.count.incrementAndGet();
		logger.warn("uid clock stepped back {} ms behind the mark of worker {}: issuing as worker {} now; worker {} "
				+ "is kept until the clock passes {}", behindMillis, from.workerId(), to.workerId(), from.workerId(),
				from.highWaterMark());
	}

	/** How many times the generator moved to another worker. */
	long count() {
		return this.count.get();
	}

	/** The worker kept last that still holds its lease, or {@code null}. */
	Long latestKeptWorkerId() {
		Long latest = null;
		for (WorkerSession session : this.retired) {
			if (!session.isClosed()) {
				latest = session.workerId();
			}
		}
		return latest;
	}

	/** Releases every kept worker; its stored mark covers all it issued, and the release keeps the higher mark. */
	void closeAll() {
		this.retired.forEach(WorkerSession::close);
	}

	/** Stops every kept worker's keeper without releasing anything, as a killed process would (crash tests). */
	void haltAll() {
		this.retired.forEach(WorkerSession::halt);
	}

}
