package io.github.uidgen.snowflake;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

import io.github.uidgen.ClockBehindHighWaterMarkException;
import io.github.uidgen.LayoutExhaustedException;
import io.github.uidgen.UidClock;
import io.github.uidgen.UidException;
import io.github.uidgen.UidLayout;
import io.github.uidgen.UidUnavailableException;
import io.github.uidgen.worker.WorkerAssignment;
import io.github.uidgen.worker.WorkerIdAssigner;
import io.github.uidgen.worker.WorkerIdOutOfRangeException;
import io.github.uidgen.worker.WorkerLeaseLostException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a generator does with its worker ID, from claim to release: claims it, waits (within limits) for the clock
 * to pass its high-water mark, keeps the mark ahead of issue and the lease renewed from a background thread
 * ({@link HighWaterMarkKeeper}), tells the generator when the lease is lost, and releases the worker ID with its final
 * mark on close.
 *
 * <p>A session is opened before its generator is built and handed to it, so a generator's constructor does no I/O
 * and starts no thread.
 */
final class WorkerSession implements AutoCloseable {

	private static final Logger logger = LoggerFactory.getLogger(WorkerSession.class);

	private final WorkerIdAssigner assigner;

	private final UidLayout layout;

	private final long datacenterId;

	private final UidClock clock;

	private final WorkerAssignment assignment;

	private final long startUnit;

	private final HighWaterMarkKeeper keeper;

	private final Settings settings;

	private final long shiftedWorkerId;

	private final CopyOnWriteArrayList<Consumer<WorkerLeaseLostException>> leaseLostListeners = new CopyOnWriteArrayList<>();

	/** Why the lease was lost, once the keeper says so; guarded by {@link #leaseLostListeners}. */
	private WorkerLeaseLostException lostReason;

	private volatile Runnable registrationHook;

	private WorkerSession(WorkerIdAssigner assigner, UidLayout layout, long datacenterId, UidClock clock,
			WorkerAssignment assignment, long startUnit, Settings settings) {
		this.assigner = assigner;
		this.layout = layout;
		this.datacenterId = datacenterId;
		this.clock = clock;
		this.assignment = assignment;
		this.startUnit = startUnit;
		this.settings = settings;
		// The data center and the worker ID, composed once: issue ORs this in as it is.
		this.shiftedWorkerId = layout.compose(0, datacenterId, assignment.workerId(), 0);
		this.keeper = new HighWaterMarkKeeper(assigner, assignment.workerId(), layout, clock, startUnit,
				settings.markReservation(), settings.markTimeout(), settings.issueOnLease(assigner), this::leaseLost);
	}

	/**
	 * Claims a worker ID, waits for the clock to allow the first unit after its mark, records the first reservation
	 * and starts keeping the mark; on any failure the worker ID is released again.
	 * @param assigner where the worker ID comes from: the worker-ID store of this data center
	 * @param layout the layout, whose worker bits (less its data-center bits) the ID must fit
	 * @param datacenterId the data center's ID, which the layout has checked; 0 without data-center bits
	 * @param clock the clock
	 * @param settings how the mark is kept and how long start-up may wait
	 * @return the open session
	 */
	static WorkerSession open(WorkerIdAssigner assigner, UidLayout layout, long datacenterId, UidClock clock,
			Settings settings) {
		return open(assigner, layout, datacenterId, clock, settings, -1, Long.MIN_VALUE);
	}

	/**
	 * Claims a worker ID again after this session's lease was lost, as a newcomer would (the assigner never hands out
	 * one that a live instance holds, and makes the claim wait when the store cannot vouch for its history), and waits,
	 * within limits, until the generator may issue on it: after its mark and, when it is this session's worker ID
	 * again, after every unit this session may have issued in (reserved, or on the lease), whatever the store says now.
	 * @return the new session
	 * @throws UidException when no worker ID can be claimed now, or the clock is too far behind its mark
	 */
	WorkerSession reclaim() {
		return open(this.assigner, this.layout, this.datacenterId, this.clock, this.settings, workerId(),
				this.keeper.mayHaveIssuedUntil());
	}

	private static WorkerSession open(WorkerIdAssigner assigner, UidLayout layout, long datacenterId, UidClock clock,
			Settings settings, long previousWorkerId, long previousLastUnit) {
		// Prefer worker IDs the generator can start on without refusing: their mark, if any, lies no further ahead of
		// the clock than it may wait at start plus how far ahead of the clock it may issue anyway.
		WorkerAssignment assignment = assigner.assign(layout.getMaxWorkerId(),
				settings.maxStartupWait().plus(settings.allowedAhead()));
		try {
			if (assignment.workerId() < 0 || assignment.workerId() > layout.getMaxWorkerId()) {
				throw new WorkerIdOutOfRangeException(assignment.workerId(), layout.getMaxWorkerId(),
						"give the layout more worker bits, or use an assigner in lease mode so worker IDs are reused");
			}
			// The same worker ID again: its stored mark may be older than what this generator reserved (a store that
			// lost or rewound it), so start after both.
			long notBefore = (assignment.workerId() == previousWorkerId && previousLastUnit != Long.MIN_VALUE)
					? previousLastUnit + 1 : Long.MIN_VALUE;
			long startUnit = awaitStart(assignment, layout, clock, settings, notBefore);
			return new WorkerSession(assigner, layout, datacenterId, clock, assignment, startUnit, settings);
		}
		catch (RuntimeException ex) {
			try {
				assigner.release(assignment.workerId(), assignment.highWaterMarkMillis());
			}
			catch (RuntimeException releaseFailure) {
				ex.addSuppressed(releaseFailure);
			}
			throw ex;
		}
	}

	/**
	 * Claims a further worker ID from the same assigner, one the generator can issue on at once although the clock
	 * stepped back behind this session's mark: its mark, if any, lies before the unit the clock reads now. Records its
	 * first reservation before returning, as {@link #open} does; this session keeps its worker ID meanwhile. The new
	 * session stays in this session's data center, whose store the assigner is.
	 * @return the new session, or {@code null} when the assigner has no such worker ID (or cannot tell)
	 * @throws UidException when the store cannot be asked
	 */
	WorkerSession openBehind() {
		long nowUnit = this.layout.toUnit(this.clock.currentTimeMillis());
		long latestMark = this.layout.startMillis(nowUnit) - 1;
		WorkerAssignment assignment = this.assigner.assignBehind(this.layout.getMaxWorkerId(), latestMark)
			.orElse(null);
		if (assignment == null) {
			return null;
		}
		try {
			// Checked here as well, whatever the assigner: a worker must never issue IDs its mark does not cover.
			if (assignment.workerId() < 0 || assignment.workerId() > this.layout.getMaxWorkerId()
					|| assignment.workerId() == workerId()
					|| (assignment.hasMark() && assignment.highWaterMarkMillis() > latestMark)) {
				throw new UidUnavailableException("The " + this.assigner.name() + " assigner handed out " + assignment
						+ " for a clock at " + Instant.ofEpochMilli(latestMark + 1) + ", which it cannot issue on");
			}
			long afterMark = assignment.hasMark() ? this.layout.toUnit(assignment.highWaterMarkMillis()) + 1 : 0;
			long first = Math.max(afterMark, nowUnit);
			return new WorkerSession(this.assigner, this.layout, this.datacenterId, this.clock, assignment, first,
					this.settings);
		}
		catch (RuntimeException ex) {
			try {
				this.assigner.release(assignment.workerId(), WorkerAssignment.NO_MARK);
			}
			catch (RuntimeException releaseFailure) {
				ex.addSuppressed(releaseFailure);
			}
			throw ex;
		}
	}

	/**
	 * Keeps this worker ID's lease without moving its mark, and releases it once the clock has passed the mark; see
	 * {@link HighWaterMarkKeeper#retire()}.
	 */
	void retire() {
		this.keeper.retire();
	}

	/** Whether this session no longer holds its worker ID: closed, halted, or retired and released. */
	boolean isClosed() {
		return this.keeper.isClosed();
	}

	/** Waits, within limits and logged, until the clock allows the first unit after the mark; returns that unit. */
	private static long awaitStart(WorkerAssignment assignment, UidLayout layout, UidClock clock, Settings settings,
			long notBefore) {
		long nowMillis = clock.currentTimeMillis();
		long nowUnit = layout.toUnit(nowMillis);
		long afterMark = assignment.hasMark() ? layout.toUnit(assignment.highWaterMarkMillis()) + 1 : 0;
		long first = Math.max(Math.max(afterMark, notBefore), Math.max(nowUnit, 0));
		if (first > layout.getMaxTime()) {
			throw new LayoutExhaustedException(layout.getExpiry());
		}
		long clockNeeded = layout.startMillis(first) - settings.allowedAhead().toMillis();
		long waitMillis = clockNeeded - nowMillis;
		if (waitMillis <= 0) {
			return first;
		}
		Duration maxWait = settings.maxStartupWait();
		if (waitMillis > maxWait.toMillis()) {
			throw clockBehind(assignment, nowMillis, maxWait);
		}
		logger.info("uid worker ID {}: waiting {} ms before issuing, until the clock reaches {}, past what it has "
				+ "issued before ({}); a start waits at most {} ms for it (maxStartupWait, uid.mark.max-startup-wait "
				+ "in Spring Boot)", assignment.workerId(), waitMillis, Instant.ofEpochMilli(clockNeeded),
				(first == afterMark) ? "its recorded mark" : "the last ID this generator issued with it",
				maxWait.toMillis());
		long deadline = System.nanoTime() + Duration.ofMillis(waitMillis).plus(maxWait).toNanos();
		while (clock.currentTimeMillis() < clockNeeded) {
			if (System.nanoTime() - deadline > 0) {
				throw clockBehind(assignment, clock.currentTimeMillis(), maxWait);
			}
			sleep(Math.max(1, Math.min(50, clockNeeded - clock.currentTimeMillis())));
		}
		return first;
	}

	private static ClockBehindHighWaterMarkException clockBehind(WorkerAssignment assignment, long nowMillis,
			Duration maxWait) {
		return new ClockBehindHighWaterMarkException(assignment.workerId(),
				Instant.ofEpochMilli(assignment.highWaterMarkMillis()), Instant.ofEpochMilli(nowMillis), maxWait);
	}

	private static void sleep(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new UidUnavailableException("Interrupted while waiting for the clock", ex);
		}
	}

	/**
	 * Asks to be told, once, when the lease is lost: on the keeper's thread, or at once on the caller's when it was
	 * lost already; a generator registers once it is built. Registration and loss are decided under one lock, so a
	 * loss racing the registration is told neither twice (a second recovery) nor never (no recovery at all).
	 * @param listener what to run, given why the lease was lost
	 */
	void onLeaseLost(Consumer<WorkerLeaseLostException> listener) {
		WorkerLeaseLostException lostAlready;
		synchronized (this.leaseLostListeners) {
			lostAlready = this.lostReason;
			if (lostAlready == null) {
				this.leaseLostListeners.add(listener);
			}
		}
		Runnable hook = this.registrationHook;
		if (hook != null) {
			hook.run();
		}
		if (lostAlready != null) {
			listener.accept(lostAlready);
		}
	}

	private void leaseLost(WorkerLeaseLostException reason) {
		synchronized (this.leaseLostListeners) {
			this.lostReason = reason;
		}
		// No listener is added once the reason is set: each registered one is told here, exactly once.
		this.leaseLostListeners.forEach((listener) -> listener.accept(reason));
	}

	/** For tests: runs inside {@link #onLeaseLost} once the registration is decided, to race a loss against it. */
	void duringRegistration(Runnable hook) {
		this.registrationHook = hook;
	}

	long workerId() {
		return this.assignment.workerId();
	}

	/** The data-center ID this session's IDs carry; 0 without data-center bits. */
	long datacenterId() {
		return this.datacenterId;
	}

	/** The data-center ID and worker ID shifted into their places in an ID. */
	long shiftedWorkerId() {
		return this.shiftedWorkerId;
	}

	/** The worker ID and the mark it was claimed with. */
	WorkerAssignment assignment() {
		return this.assignment;
	}

	/** The first time unit the generator may issue in: strictly after the worker's mark. */
	long startUnit() {
		return this.startUnit;
	}

	String assignerName() {
		return this.assigner.name();
	}

	UidLayout layout() {
		return this.layout;
	}

	UidClock clock() {
		return this.clock;
	}

	/** The unit beyond which the generator should ask for a longer reservation; see {@link HighWaterMarkKeeper}. */
	long refreshAt() {
		return this.keeper.refreshAt();
	}

	/** Makes sure a unit is reserved, waiting for it within the mark timeout; see {@link HighWaterMarkKeeper}. */
	void cover(long unit) {
		this.keeper.cover(unit);
	}

	/** Whether IDs of the unit may be issued without waiting: its mark is recorded, or the lease covers it. */
	boolean isCovered(long unit) {
		return this.keeper.isCovered(unit);
	}

	/**
	 * Returns the latest time the generator may issue IDs for without recording a new mark.
	 * @return the start of the reserved unit, or {@code null} once closed or the lease is lost
	 */
	Instant highWaterMark() {
		long reserved = this.keeper.reservedUntil();
		return (reserved == Long.MIN_VALUE) ? null : Instant.ofEpochMilli(this.layout.startMillis(reserved));
	}

	/**
	 * Returns the latest time the generator may issue IDs for without the store answering: the high-water mark, or
	 * the end of what the lease covers when that is later.
	 * @return the start of that unit, or {@code null} once closed or the lease is lost
	 */
	Instant issuableUntil() {
		long until = this.keeper.issuableUntil();
		return (until == Long.MIN_VALUE) ? null : Instant.ofEpochMilli(this.layout.startMillis(until));
	}

	/** How long the store has not answered renewals, 0 while it answers; see {@link HighWaterMarkKeeper}. */
	Duration storeSilent() {
		return Duration.ofMillis(this.keeper.storeSilentMillis());
	}

	/** Why the mark cannot be kept ahead of issue, if that is so; {@code null} while healthy. */
	UidException failure() {
		return this.keeper.failure();
	}

	/** Whether the lease was lost. */
	boolean isLeaseLost() {
		return this.keeper.failure() instanceof WorkerLeaseLostException;
	}

	/** How many times recording the mark failed and was retried. */
	long markFailures() {
		return this.keeper.failedRenewals();
	}

	/**
	 * Stops keeping the mark and releases the worker ID with its final mark.
	 * @param finalUnit the highest unit the generator issued in
	 */
	void close(long finalUnit) {
		this.keeper.close(finalUnit);
	}

	/** Releases the worker ID as if nothing had been issued past the start. */
	@Override
	public void close() {
		close(this.startUnit - 1);
	}

	/**
	 * Stops keeping the mark without releasing anything, the way a killed process stops (for crash tests).
	 */
	void halt() {
		this.keeper.halt();
	}

	/**
	 * How a session keeps the mark and how long it may wait at start.
	 *
	 * @param markReservation how far past the time in use each recorded mark reaches
	 * @param markTimeout how long issue may wait for the mark to be recorded
	 * @param maxStartupWait how long start-up may wait for the clock to pass the mark
	 * @param allowedAhead how far ahead of the clock the generator may issue anyway (the cached generator's
	 * {@code maxAhead}), so it may start that much before the mark
	 * @param maxClockSkew how far this instance's clock may run ahead of the store's
	 */
	record Settings(Duration markReservation, Duration markTimeout, Duration maxStartupWait, Duration allowedAhead,
			Duration maxClockSkew) {

		/**
		 * How long after a successful renewal was sent the generator may still issue on its lease while the store does
		 * not answer: the assigner's lease less the clock skew allowed; zero when that leaves nothing.
		 */
		Duration issueOnLease(WorkerIdAssigner assigner) {
			Duration left = assigner.leaseHold().minus(this.maxClockSkew);
			return (left.isNegative() || left.isZero()) ? Duration.ZERO : left;
		}

	}

}
