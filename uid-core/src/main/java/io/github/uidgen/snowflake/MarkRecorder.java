package io.github.uidgen.snowflake;

import java.time.Instant;
import java.util.concurrent.TimeUnit;

import io.github.uidgen.UidClock;
import io.github.uidgen.UidException;
import io.github.uidgen.UidLayout;
import io.github.uidgen.UidUnavailableException;
import io.github.uidgen.worker.WorkerIdAssigner;
import io.github.uidgen.worker.WorkerLeaseLostException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes one worker's high-water mark to its assigner's store, and remembers how the writes went: when the last one
 * succeeded, whether one is outstanding and since when, how many failed, and why the last one did. The
 * {@link HighWaterMarkKeeper} decides when to write and what the outcome means for issue; this class only talks to
 * the store, so that health and error messages can say what the store did.
 */
final class MarkRecorder {

	private static final Logger logger = LoggerFactory.getLogger(HighWaterMarkKeeper.class);

	private final WorkerIdAssigner assigner;

	private final long workerId;

	private final UidLayout layout;

	private final UidClock clock;

	/** Why the last renewal failed, or the lease lost; {@code null} after a successful one. */
	private volatile UidException failure;

	/** Wall-clock time of the last successful renewal, for messages. */
	private volatile long lastRecordedMillis;

	/** Renewals that failed and were retried; written by the keeper thread only. */
	private volatile long failedRenewals;

	private volatile boolean calling;

	private volatile long callStartedNanos;

	/** A call outstanding for this long counts as one failed renewal, and one more for each such interval after. */
	private final long hungCallNanos;

	MarkRecorder(WorkerIdAssigner assigner, long workerId, UidLayout layout, UidClock clock, long hungCallNanos) {
		this.assigner = assigner;
		this.workerId = workerId;
		this.layout = layout;
		this.clock = clock;
		this.hungCallNanos = Math.max(1, hungCallNanos);
	}

	/**
	 * Records a mark, keeping track of the call while it is outstanding.
	 * @param mark the highest unit the worker may issue in
	 * @throws WorkerLeaseLostException when the lease is gone; anything else the store throws comes through too
	 */
	void renew(long mark) {
		long started = System.nanoTime();
		this.callStartedNanos = started;
		this.calling = true;
		try {
			this.assigner.renew(this.workerId, this.layout.startMillis(mark));
		}
		finally {
			// A store that takes renewals in but does not answer (a client queueing commands while it reconnects)
			// fails nothing for a long time: each interval such a call was outstanding counts as a failed renewal.
			this.failedRenewals += (System.nanoTime() - started) / this.hungCallNanos;
			this.calling = false;
		}
		this.lastRecordedMillis = this.clock.currentTimeMillis();
	}

	/**
	 * Releases the worker ID with its final mark; a failure is logged, as the lease then runs out by itself.
	 * @param finalUnit the highest unit the worker issued in
	 * @return whether the store took the release
	 */
	boolean release(long finalUnit) {
		try {
			this.assigner.release(this.workerId, this.layout.startMillis(finalUnit));
			return true;
		}
		catch (RuntimeException ex) {
			logger.warn("uid worker {} could not release its worker ID: {}", this.workerId, ex.toString());
			return false;
		}
	}

	/** Counts a failed renewal, logs the first of a series, and keeps it as the failure. */
	void recordFailure(Throwable ex) {
		this.failedRenewals++;
		if (this.failure == null) {
			if (ex instanceof Error) {
				logger.error("uid worker {} could not record its high-water mark, retrying", this.workerId, ex);
			}
			else {
				logger.warn("uid worker {} could not record its high-water mark, retrying: {}", this.workerId,
						ex.toString());
			}
		}
		this.failure = (ex instanceof UidException uidException) ? uidException
				: new UidUnavailableException("Recording the high-water mark failed: " + ex, ex);
	}

	/** Keeps the lost lease as the failure, for good. */
	void leaseLost(WorkerLeaseLostException ex) {
		this.failure = ex;
	}

	/** Forgets the last failure after a renewal that counts. */
	void clearFailure() {
		this.failure = null;
	}

	/**
	 * Returns why the last renewal failed, or that the lease was lost.
	 * @return the failure, or {@code null} after a successful renewal
	 */
	UidException failure() {
		return this.failure;
	}

	/** Whether a store call has been outstanding for longer than the given time. */
	boolean isCallOutstandingLongerThan(long nanos) {
		return this.calling && System.nanoTime() - this.callStartedNanos > nanos;
	}

	/**
	 * Returns how many renewals failed, counting a call outstanding for a whole renewal interval as one more for each
	 * such interval, so that a store that does not answer shows in the count while it does not.
	 * @return the count
	 */
	long failedRenewals() {
		long failed = this.failedRenewals;
		if (this.calling) {
			failed += (System.nanoTime() - this.callStartedNanos) / this.hungCallNanos;
		}
		return failed;
	}

	/** The assigner's name, for messages. */
	String assignerName() {
		return this.assigner.name();
	}

	/** Says since when the mark has not been recorded, and what the store is doing about it, for messages. */
	String status() {
		long now = this.clock.currentTimeMillis();
		StringBuilder status = new StringBuilder("mark last recorded at ")
			.append(Instant.ofEpochMilli(this.lastRecordedMillis))
			.append(" (")
			.append(now - this.lastRecordedMillis)
			.append(" ms ago)");
		if (this.calling) {
			status.append(", a call to the ")
				.append(this.assigner.name())
				.append(" assigner's store has been outstanding for ")
				.append(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - this.callStartedNanos))
				.append(" ms");
		}
		UidException current = this.failure;
		if (current != null) {
			status.append(", last failure: ").append(current.getMessage());
		}
		return status.toString();
	}

}
