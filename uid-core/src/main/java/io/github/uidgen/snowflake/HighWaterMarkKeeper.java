package io.github.uidgen.snowflake;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

import io.github.uidgen.UidClock;
import io.github.uidgen.UidException;
import io.github.uidgen.UidLayout;
import io.github.uidgen.UidUnavailableException;
import io.github.uidgen.worker.WorkerIdAssigner;
import io.github.uidgen.worker.WorkerLeaseLostException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the worker's stored high-water mark ahead of every ID the generator issues, from a background thread.
 *
 * <p>The generator may issue IDs up to {@link #reservedUntil()} (a time unit) and asks for more before it gets
 * there, so the mark is recorded <em>before</em> issue and a crash never loses it. Each reservation reaches a
 * span past the unit asked for, so the store is written once per span, not per ID. The same thread renews the
 * assigner's lease; a lost lease revokes the reservation and the generator stops.
 *
 * <p>Issue may also go on beyond the recorded mark on the lease alone: nobody else can be handed the worker ID until
 * the lease runs out, and whoever takes it then starts after the lease's expiry (see
 * {@link WorkerIdAssigner#leaseHold()}). So the generator may issue up to {@link #leaseUntil()}: the time the last
 * successful renewal was sent, plus the lease, less the clock skew allowed. A store with such a lease is therefore
 * written only at its own renewal interval (its heartbeat), not whenever issue nears the mark: the mark lags issue by
 * up to an interval, and each renewal records one past every unit issued since, as it does after an outage, while the
 * store does not answer.
 * A store without one (a state file, a Leaf node) is written every half span, keeping the mark ahead of issue.
 *
 * <p>Whatever a renewal throws, {@link Error}s included, is recorded as the failure and retried, so the thread never
 * dies silently. Each renewal is a call on a thread of its own ({@link MarkRecorder}), waited for within the renewal
 * interval (at least {@link #MIN_CALL_WAIT_NANOS}); one that does not come back by then counts once as a failed
 * renewal and is left to the client's own timeout, and the next renewal goes out beside it, so one call the client
 * holds (a command queued for a Redis Cluster master that died) does not hold the renewals that could reach the
 * store again. What a call brings back late is taken as far as it is still news: a lease and a mark only ever grow,
 * a lost lease stops issue, a failure is not counted again. Neither a failure nor a call outstanding is reported as a
 * failure of issue until issue is about to stop: {@link #failure()} then says since when the mark has not been
 * recorded and for how long a call has been outstanding.
 */
final class HighWaterMarkKeeper {

	private static final Logger logger = LoggerFactory.getLogger(HighWaterMarkKeeper.class);

	private static final long REVOKED = Long.MIN_VALUE;

	private static final long RETRY_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

	/** The least time a renewal call is waited for before the next one goes out beside it. */
	static final long MIN_CALL_WAIT_NANOS = TimeUnit.SECONDS.toNanos(1);

	/**
	 * How long the first call, made at start on the caller's thread, is waited for: a store that answers slowly at
	 * start (a pool opening its first connection on a loaded machine) should not fail the start.
	 */
	private static final long FIRST_CALL_WAIT_NANOS = TimeUnit.SECONDS.toNanos(30);

	/** How long {@link #halt()} waits for the keeper thread and the calls outstanding. */
	private static final long HALT_WAIT_NANOS = TimeUnit.SECONDS.toNanos(5);

	private final MarkRecorder recorder;

	private final long workerId;

	private final UidLayout layout;

	private final UidClock clock;

	private final long spanUnits;

	private final long spanNanos;

	/** How often the store is written while it answers. */
	private final long renewIntervalNanos;

	/** How long a renewal call is waited for before it counts as failed and the next goes out beside it. */
	private final long callWaitNanos;

	/** Guards what renewals coming back, on their own threads, change. */
	private final Object settling = new Object();

	/**
	 * Set, under {@link #settling}, by the first renewal that found the lease lost, before anyone is told: from then on
	 * nothing releases the worker ID, though the loss is recorded only once the generator has been told (which may
	 * claim it again from the same assigner meanwhile, and close this keeper).
	 */
	private volatile boolean revoking;

	/** How long after a successful renewal was sent issue may go on on the lease alone; 0 for not at all. */
	private final long issueOnLeaseMillis;

	private final long awaitTimeoutNanos;

	private final Consumer<WorkerLeaseLostException> onRevoked;

	private final Thread thread;

	private volatile long reservedUntil;

	/** The last unit reserved before the lease was lost or the keeper closed. */
	private volatile long lastReserved = Long.MIN_VALUE;

	/** The last unit issue may reach on the lease alone, {@link #REVOKED} once revoked or closed. */
	private volatile long leaseUntil = Long.MIN_VALUE;

	/** The last unit the lease covered before it was lost or the keeper closed. */
	private volatile long lastLeaseUntil = Long.MIN_VALUE;

	private volatile long refreshAt;

	private final AtomicLong wanted = new AtomicLong();

	private volatile boolean requested;

	private volatile boolean closed;

	/** Set once the generator issues on another worker: the mark stays as it is and the lease is kept until then. */
	private volatile boolean retired;

	/**
	 * Set when issue gave up waiting for the mark, so health reports it at once and later callers are refused without
	 * waiting again; cleared by a renewal.
	 */
	private volatile UidException issueStalled;

	/** {@link System#nanoTime()} of the last successful renewal. */
	private volatile long lastRenewNanos;

	/**
	 * Records the first reservation on the calling thread (so start-up fails fast when the store is down), then
	 * starts the keeper thread.
	 */
	HighWaterMarkKeeper(WorkerIdAssigner assigner, long workerId, UidLayout layout, UidClock clock, long firstUnit,
			Duration span, Duration awaitTimeout, Duration issueOnLease, Consumer<WorkerLeaseLostException> onRevoked) {
		this.workerId = workerId;
		this.layout = layout;
		this.clock = clock;
		this.spanUnits = Math.max(1, span.toMillis() / layout.getTimeUnit().toMillis());
		this.spanNanos = span.toNanos();
		Duration renew = assigner.renewInterval();
		long storeIntervalNanos = (renew.isZero() || renew.isNegative()) ? 0 : renew.toNanos();
		long halfSpanNanos = TimeUnit.MILLISECONDS.toNanos(Math.max(1, span.toMillis() / 2));
		long onSpanNanos = (storeIntervalNanos == 0) ? halfSpanNanos : Math.min(storeIntervalNanos, halfSpanNanos);
		this.issueOnLeaseMillis = issueOnLease.toMillis();
		// A store whose lease the generator may issue on is written at its own interval (its heartbeat), issue going
		// on the lease between renewals; any other keeps the mark ahead of issue, every half span.
		this.renewIntervalNanos = (this.issueOnLeaseMillis > 0 && storeIntervalNanos > 0)
				? Math.min(storeIntervalNanos, issueOnLease.toNanos() / 2) : onSpanNanos;
		this.callWaitNanos = Math.max(onSpanNanos, MIN_CALL_WAIT_NANOS);
		this.recorder = new MarkRecorder(assigner, workerId, layout, clock);
		this.awaitTimeoutNanos = awaitTimeout.toNanos();
		this.onRevoked = onRevoked;
		this.reservedUntil = firstUnit - 1;
		this.refreshAt = firstUnit - 1;
		this.wanted.set(firstUnit);
		extend(Math.max(this.callWaitNanos, FIRST_CALL_WAIT_NANOS));
		UidException initialFailure = this.recorder.failure();
		if (initialFailure != null) {
			this.closed = true;
			this.recorder.stop(0);
			throw initialFailure;
		}
		this.thread = new Thread(this::run, "uid-mark-keeper-worker-" + workerId);
		this.thread.setDaemon(true);
		this.thread.start();
	}

	/**
	 * Returns the highest time unit the generator may issue IDs in.
	 * @return the reserved unit, {@link Long#MIN_VALUE} once revoked or closed
	 */
	long reservedUntil() {
		return this.reservedUntil;
	}

	/**
	 * Returns the last unit issue may reach on the lease alone while the store does not answer.
	 * @return a unit, {@link Long#MIN_VALUE} without a lease to issue on, once revoked or closed
	 */
	long leaseUntil() {
		return this.leaseUntil;
	}

	/**
	 * Returns the highest unit the generator may have issued IDs in: within the reservation, or beyond it on the lease
	 * as far as it asked for (also after the lease was lost or the keeper closed).
	 * @return a unit, {@link Long#MIN_VALUE} when nothing was ever reserved
	 */
	long mayHaveIssuedUntil() {
		long reserved = this.reservedUntil;
		long lease = this.leaseUntil;
		if (reserved == REVOKED) {
			reserved = this.lastReserved;
			lease = this.lastLeaseUntil;
		}
		return Math.max(reserved, Math.min(this.wanted.get(), lease));
	}

	/**
	 * Returns the last unit the generator may issue in without the store answering: the reservation, or the lease when
	 * it reaches further.
	 * @return a unit, {@link Long#MIN_VALUE} once revoked or closed
	 */
	long issuableUntil() {
		return Math.max(this.reservedUntil, this.leaseUntil);
	}

	/**
	 * Returns whether IDs of a unit may be issued without waiting: its mark is recorded, or the lease covers it.
	 * @param unit a time unit
	 * @return whether it is covered
	 */
	boolean isCovered(long unit) {
		return unit <= this.reservedUntil || unit <= this.leaseUntil;
	}

	/**
	 * Returns how long the store has not answered: since the last successful renewal, while renewals fail or a call
	 * has been outstanding for longer than a renewal interval; zero while the store answers.
	 * @return milliseconds, 0 while the store answers
	 */
	long storeSilentMillis() {
		UidException current = this.recorder.failure();
		if ((current == null
				&& !this.recorder.isCallOutstandingLongerThan(this.callWaitNanos, this.lastRenewNanos))
				|| current instanceof WorkerLeaseLostException) {
			return 0;
		}
		return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - this.lastRenewNanos);
	}

	/**
	 * Returns the unit beyond which the generator should ask for a longer reservation.
	 * @return a unit at most {@link #reservedUntil()}
	 */
	long refreshAt() {
		return this.refreshAt;
	}

	/**
	 * Returns why the mark cannot be kept ahead of issue, if that is so: the lease was lost, issue gave up waiting for
	 * the mark, or the store does not answer (renewals fail, or a call has been outstanding for longer than a
	 * reservation span) and less than a quarter of a reservation span is left of what may be issued without it (the
	 * reservation, or the lease when it reaches further). A store that does not answer while more is left costs issue
	 * nothing (a store restarting, failing over, a Cluster slot moving): renewals are retried and counted, and not
	 * reported as a failure, so that a health check, and a load balancer reading it, only see what stops issue;
	 * {@link #storeSilentMillis()} and {@link #issuableUntil()} say how it goes.
	 * @return the failure, or {@code null}
	 */
	UidException failure() {
		UidException current = this.recorder.failure();
		if (current instanceof WorkerLeaseLostException) {
			return current;
		}
		UidException stalled = this.issueStalled;
		if (stalled != null) {
			return stalled;
		}
		boolean silent = current != null
				|| this.recorder.isCallOutstandingLongerThan(this.spanNanos, this.lastRenewNanos);
		if (!silent || !isIssueRunningOut()) {
			return null;
		}
		long until = issuableUntil();
		return new UidUnavailableException("The high-water mark of worker " + this.workerId + " is not being "
				+ "recorded, and issue stops "
				+ ((until != REVOKED) ? "after " + Instant.ofEpochMilli(this.layout.startMillis(until)) : "now")
				+ " unless the " + this.recorder.assignerName() + " store answers: " + this.recorder.status(), current);
	}

	/**
	 * Whether the clock, or what the generator asked for, has come within a quarter span of the last unit it may issue
	 * in without the store.
	 */
	private boolean isIssueRunningOut() {
		long until = issuableUntil();
		if (until == REVOKED) {
			return true;
		}
		long soon = Math.max(this.layout.toUnit(this.clock.currentTimeMillis()), this.wanted.get()) + this.spanUnits / 4;
		return soon > until;
	}

	/**
	 * Makes sure a unit may be issued: asks the keeper thread to reserve it, and, when it lies beyond both the current
	 * reservation and the lease, waits for the reservation. Called off the hot path, once a time unit at most.
	 * @param unit the unit about to be issued
	 * @throws UidException when the lease was lost, the generator closed, the mark could not be recorded in time (or
	 * could not be earlier, and no renewal has succeeded since), or the caller was interrupted (its interrupt flag
	 * stays set)
	 */
	void cover(long unit) {
		if (unit <= this.refreshAt) {
			// Well inside the reservation: nothing to ask for (waking the keeper costs a system call).
			return;
		}
		if (this.retired) {
			// The generator moved its state to another worker before retiring this one, so the caller's
			// compare-and-set fails and it tries again on the other worker.
			return;
		}
		request(unit);
		if (isCovered(unit)) {
			return;
		}
		UidException stalled = this.issueStalled;
		if (stalled != null) {
			// A wait already timed out and no renewal has succeeded since: the store is down, refuse at once.
			throw stalled;
		}
		long deadline = System.nanoTime() + this.awaitTimeoutNanos;
		while (!isCovered(unit)) {
			UidException current = this.recorder.failure();
			if (this.closed || (current instanceof WorkerLeaseLostException)) {
				throw (current != null) ? current : closedException();
			}
			if (this.retired) {
				return;
			}
			long left = deadline - System.nanoTime();
			if (left <= 0) {
				UidUnavailableException timedOut = new UidUnavailableException("Could not record the high-water mark "
						+ "of worker " + this.workerId + " within " + TimeUnit.NANOSECONDS.toMillis(this.awaitTimeoutNanos)
						+ " ms" + leaseSpent() + ": " + this.recorder.status(), current);
				this.issueStalled = timedOut;
				throw timedOut;
			}
			awaitBriefly(left);
			request(unit);
		}
	}

	/** Says that the lease allowed issue this far and no further, for the message of a wait that timed out. */
	private String leaseSpent() {
		long lease = this.leaseUntil;
		if (lease == REVOKED || lease == Long.MIN_VALUE) {
			return "";
		}
		return ", and issue on the lease alone reached its end (" + Instant.ofEpochMilli(this.layout.startMillis(lease))
				+ ", " + this.issueOnLeaseMillis + " ms after the last renewal that reached the store, which is "
				+ "the lease less the clock skew allowed)";
	}

	private void awaitBriefly(long leftNanos) {
		if (Thread.currentThread().isInterrupted()) {
			throw new UidUnavailableException("Interrupted while waiting for the high-water mark of worker "
					+ this.workerId + " to be recorded");
		}
		LockSupport.parkNanos(Math.min(leftNanos, TimeUnit.MILLISECONDS.toNanos(1)));
	}

	private void request(long unit) {
		if (unit > this.wanted.get()) {
			this.wanted.accumulateAndGet(unit, Math::max);
		}
		if (!this.requested && !isLeaseAhead(unit)) {
			this.requested = true;
			LockSupport.unpark(this.thread);
		}
	}

	/**
	 * Whether the lease covers a unit with half a span to spare: issue goes on on it, recorded in {@link #wanted} for
	 * the next renewal's mark, and the store is not written before that renewal is due.
	 */
	private boolean isLeaseAhead(long unit) {
		return unit + this.spanUnits / 2 <= this.leaseUntil;
	}

	private void run() {
		while (!this.closed) {
			try {
				long untilDue = untilDueNanos();
				if (!this.requested && untilDue > 0) {
					LockSupport.parkNanos(this, this.retired ? Math.min(untilDue, this.spanNanos / 2) : untilDue);
				}
				if (this.closed) {
					return;
				}
				if (this.retired && this.layout.toUnit(this.clock.currentTimeMillis()) > retiredMark()) {
					releaseRetired();
					return;
				}
				if (untilDueNanos() <= 0 || this.requested) {
					this.requested = false;
					extend(this.callWaitNanos);
					if (this.recorder.failure() != null && !this.closed && !isRevoked()) {
						LockSupport.parkNanos(this, RETRY_NANOS);
					}
				}
				if (isRevoked()) {
					return;
				}
			}
			catch (Throwable ex) {
				// extend() records every failure itself; this only keeps the thread alive whatever happens.
				this.recorder.recordFailure(ex);
				LockSupport.parkNanos(this, RETRY_NANOS);
			}
		}
	}

	/**
	 * How long until the next renewal: a renewal interval after the last that reached the store, at once while the
	 * last one failed (a failed one is retried after {@link #RETRY_NANOS}).
	 */
	private long untilDueNanos() {
		if (this.recorder.failure() != null) {
			return 0;
		}
		return this.renewIntervalNanos - (System.nanoTime() - this.lastRenewNanos);
	}

	/**
	 * Records a mark a span past the unit wanted (or the clock, when that is later), and with it the lease: the time
	 * read before the call is sent is the earliest the store can have renewed it. The call is waited for within the
	 * given time; one that has not come back by then counts once as a failed renewal, and what it brings back later is
	 * settled when it does.
	 */
	private void extend(long waitNanos) {
		long sentMillis = this.clock.currentTimeMillis();
		long nowUnit = this.layout.toUnit(sentMillis);
		long base = Math.max(this.wanted.get(), nowUnit);
		// A retired worker only keeps its lease: its mark must stay put for the clock to pass it, covering whatever
		// it issued on the lease before it retired.
		long mark = this.retired ? retiredMark()
				: Math.max(this.reservedUntil, Math.min(base + this.spanUnits, this.layout.getMaxTime()));
		MarkRecorder.Call call;
		try {
			call = this.recorder.send(mark, sentMillis, this::settle);
		}
		catch (RejectedExecutionException ex) {
			if (this.closed) {
				return;
			}
			// As many calls as the recorder allows are outstanding: wait for one of them before sending another.
			this.recorder.recordFailure(new UidUnavailableException(MarkRecorder.MAX_OUTSTANDING + " renewals of worker "
					+ this.workerId + " are outstanding in the " + this.recorder.assignerName() + " store's client; "
					+ "no more is sent until one comes back", ex));
			LockSupport.parkNanos(this, waitNanos);
			return;
		}
		if (call.await(waitNanos)) {
			return;
		}
		synchronized (this.settling) {
			if (!call.settled) {
				call.abandoned = true;
				this.recorder.recordFailure(new UidUnavailableException("The " + this.recorder.assignerName()
						+ " store did not answer a renewal of worker " + this.workerId + " within "
						+ TimeUnit.NANOSECONDS.toMillis(waitNanos) + " ms; the call is left to the client's own timeout "
						+ "and renewals go on beside it"));
			}
		}
	}

	/**
	 * Takes what came of a renewal, on the thread that made it, in time or late: a renewal that reached the store
	 * extends the reservation and the lease, never shortening them (a later one may have come back first); a lost
	 * lease stops issue, once; a failure counts, unless the call was already counted as one when it was not waited
	 * for any longer.
	 */
	private void settle(MarkRecorder.Call call, Throwable outcome) {
		WorkerLeaseLostException lost = null;
		synchronized (this.settling) {
			call.settled = true;
			if (outcome == null) {
				if (this.revoking || this.closed) {
					return;
				}
				this.lastRenewNanos = System.nanoTime();
				this.recorder.recorded();
				long reserved = Math.max(this.reservedUntil, call.mark);
				this.reservedUntil = reserved;
				this.refreshAt = reserved - this.spanUnits / 2;
				if (this.issueOnLeaseMillis > 0) {
					long lease = Math.min(this.layout.toUnit(call.sentMillis + this.issueOnLeaseMillis),
							this.layout.getMaxTime());
					this.leaseUntil = Math.max(this.leaseUntil, lease);
				}
				this.recorder.clearFailure();
				this.issueStalled = null;
				return;
			}
			if (outcome instanceof WorkerLeaseLostException ex) {
				if (this.revoking || (this.closed && !this.retired)) {
					return;
				}
				this.revoking = true;
				lost = ex;
				if (!this.retired) {
					stopIssuing();
				}
			}
			else if (call.abandoned) {
				// Counted when the keeper stopped waiting for it; the client's own timeout ended it.
				logger.debug("uid worker {}: a renewal that was not waited for failed late: {}", this.workerId,
						outcome.toString());
				return;
			}
			else {
				this.recorder.recordFailure(outcome);
				return;
			}
		}
		if (this.retired) {
			// Nothing is issued on it any more, and whoever took it starts after its mark.
			logger.warn("uid worker {}, kept until the clock passes its mark, lost its lease: {}", this.workerId,
					lost.getMessage());
			this.recorder.leaseLost(lost);
			LockSupport.unpark(this.thread);
			return;
		}
		logger.error("uid worker {} stops issuing IDs: {}", this.workerId, lost.getMessage());
		// The generator stops first (the cached one seals its ring), so that whoever sees the failure also sees
		// issue stopped.
		this.onRevoked.accept(lost);
		this.recorder.leaseLost(lost);
		LockSupport.unpark(this.thread);
	}

	/** The mark a retired worker keeps: past everything it may have issued, on its reservation or its lease. */
	private long retiredMark() {
		return mayHaveIssuedUntil();
	}

	/** Nothing may be issued from now on; what was reserved and leased is kept for the final marks. */
	private void stopIssuing() {
		synchronized (this.settling) {
			stopIssuingSettled();
		}
	}

	private void stopIssuingSettled() {
		if (this.reservedUntil != REVOKED) {
			this.lastReserved = this.reservedUntil;
			this.lastLeaseUntil = this.leaseUntil;
		}
		this.reservedUntil = REVOKED;
		this.leaseUntil = REVOKED;
		this.refreshAt = REVOKED;
	}

	/**
	 * Returns how many times recording the mark failed and was retried.
	 * @return the count
	 */
	long failedRenewals() {
		return this.recorder.failedRenewals();
	}

	/**
	 * Returns whether the lease was lost: found lost by a renewal, whether or not the loss is recorded yet.
	 * @return whether the reservation was revoked
	 */
	boolean isRevoked() {
		return this.revoking || this.recorder.failure() instanceof WorkerLeaseLostException;
	}

	/**
	 * Keeps the lease but no longer moves the mark, and releases the worker ID from the keeper thread once the clock
	 * has passed the mark: the generator issues on another worker now. Call it only after the generator's state has
	 * moved to that worker, so whoever still asks this keeper to cover a unit fails its compare-and-set.
	 */
	void retire() {
		this.retired = true;
		LockSupport.unpark(this.thread);
	}

	/**
	 * Returns whether the worker was retired.
	 * @return whether {@link #retire()} was called
	 */
	boolean isRetired() {
		return this.retired;
	}

	/** Releases a retired worker from the keeper thread itself, with the mark it kept. */
	private void releaseRetired() {
		long mark = retiredMark();
		stopReserving();
		// No renewal is sent from now on; one still outstanding ends by the client's timeout.
		this.recorder.stop(0);
		if (isRevoked()) {
			return;
		}
		if (this.recorder.release(mark)) {
			logger.info("uid worker {} released: the clock has passed its mark", this.workerId);
		}
	}

	/** Stops for good: nothing is reserved from now on, and the last reservation is kept for the final mark. */
	private void stopReserving() {
		this.closed = true;
		stopIssuing();
	}

	/**
	 * Returns whether the keeper has stopped: closed, halted, or a retired worker released.
	 * @return whether it no longer keeps anything
	 */
	boolean isClosed() {
		return this.closed;
	}

	/**
	 * Stops the keeper thread and releases the worker ID with its final mark.
	 * @param finalUnit the highest unit the generator issued in
	 */
	void close(long finalUnit) {
		if (this.closed) {
			return;
		}
		halt();
		if (!isRevoked()) {
			this.recorder.release(finalUnit);
		}
	}

	/**
	 * Stops the keeper thread without releasing the worker ID or recording anything more: the first half of
	 * {@link #close(long)}, and on its own what a killed process does (for crash tests).
	 */
	void halt() {
		long deadline = System.nanoTime() + HALT_WAIT_NANOS;
		stopReserving();
		LockSupport.unpark(this.thread);
		try {
			this.thread.join(TimeUnit.NANOSECONDS.toMillis(HALT_WAIT_NANOS));
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		this.recorder.stop(deadline - System.nanoTime());
	}

	private UidUnavailableException closedException() {
		return new UidUnavailableException("The generator of worker " + this.workerId + " is closed");
	}

}
