package io.github.uidgen.snowflake;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

import io.github.uidgen.InvalidSettingException;
import io.github.uidgen.LayoutExhaustedException;
import io.github.uidgen.UidClock;
import io.github.uidgen.UidException;
import io.github.uidgen.UidGenerator;
import io.github.uidgen.UidGeneratorStatus;
import io.github.uidgen.UidLayout;
import io.github.uidgen.worker.WorkerIdAssigner;
import io.github.uidgen.worker.WorkerLeaseLostException;

/**
 * What both generators share: the layout, the clock and the {@link WorkerSession} their worker ID comes with (opened
 * by the builder before the generator is built, so no constructor does I/O or starts a thread), and the read-only
 * view that endpoints, health checks and metrics use.
 */
public abstract class AbstractUidGenerator implements UidGenerator, AutoCloseable {

	/** Default span of one high-water-mark reservation. */
	public static final Duration DEFAULT_MARK_RESERVATION = Duration.ofSeconds(3);

	/** Default limit on waiting for the high-water mark to be recorded. */
	public static final Duration DEFAULT_MARK_TIMEOUT = Duration.ofSeconds(5);

	/** Default limit on waiting at start for the clock to pass the high-water mark. */
	public static final Duration DEFAULT_MAX_STARTUP_WAIT = Duration.ofSeconds(10);

	/**
	 * Default for how far this instance's clock may run ahead of its worker store's: issue on a lease while the store
	 * does not answer stops this long before the lease's expiry.
	 */
	public static final Duration DEFAULT_MAX_CLOCK_SKEW = Duration.ofSeconds(2);

	protected final UidLayout layout;

	protected final UidClock clock;

	protected final long workerId;

	/** The worker ID (and data-center ID) already shifted into place, so composing an ID is two ORs. */
	protected final long shiftedWorkerId;

	/** The first time unit this generator may issue in: strictly after the worker's mark. */
	protected final long startUnit;

	final WorkerSession session;

	/** What happens after a lost lease: claiming a worker ID again, or staying stopped. */
	final LeaseRecovery recovery;

	/** Mark failures of sessions the generator no longer issues on, so the count never goes back. */
	private final AtomicLong earlierMarkFailures = new AtomicLong();

	AbstractUidGenerator(WorkerSession session, Builder<?> builder) {
		this.session = session;
		this.recovery = new LeaseRecovery(builder.reclaimLostLease);
		this.layout = session.layout();
		this.clock = session.clock();
		this.workerId = session.workerId();
		this.shiftedWorkerId = session.shiftedWorkerId();
		this.startUnit = session.startUnit();
	}

	@Override
	public UidLayout layout() {
		return this.layout;
	}

	@Override
	public UidGeneratorStatus status() {
		WorkerSession issuing = issuingSession();
		return new UidGeneratorStatus(kind(), this.layout,
				new UidGeneratorStatus.Worker(issuing.workerId(), issuing.assignerName(), issuing.highWaterMark(),
						this.earlierMarkFailures.get() + issuing.markFailures(), issuing.isLeaseLost(), workerSwitches(),
						retiredWorkerId(), (this.layout.getDatacenterBits() > 0) ? issuing.datacenterId() : null,
						this.recovery.recoveries(), issuing.issuableUntil(), issuing.storeSilent()),
				issuedCount(), clockBackwardsCount(), aheadOfClock(), ring(), null, failure(), exhaustedUnits());
	}

	/** In how many time units the sequence ran out, or {@code -1} when the generator does not count them. */
	long exhaustedUnits() {
		return -1;
	}

	/** The session of the worker the generator issues as now: the first one, unless it moved to another. */
	WorkerSession issuingSession() {
		return this.session;
	}

	/** How often the generator moved to another worker ID because the clock stepped back. */
	long workerSwitches() {
		return 0;
	}

	/** The latest earlier worker ID still kept until the clock passes its mark, or {@code null}. */
	Long retiredWorkerId() {
		return null;
	}

	/** The kind of generator: {@code default} or {@code cached}. */
	abstract String kind();

	/** How many IDs this generator has issued; exact when idle, close to it under load. */
	abstract long issuedCount();

	/** How often the clock was seen going backwards. */
	abstract long clockBackwardsCount();

	/** The latest time unit this generator has issued in (or, for the cached generator, produced). */
	abstract long latestUnit();

	/** The ring buffer's state, for a generator that has one. */
	UidGeneratorStatus.Ring ring() {
		return null;
	}

	private Duration aheadOfClock() {
		long ahead = this.layout.startMillis(latestUnit()) - this.clock.currentTimeMillis();
		return Duration.ofMillis(Math.max(0, ahead));
	}

	/**
	 * Why this generator cannot issue IDs, if that is so: lease lost, layout exhausted, closed, or the mark not
	 * recordable.
	 */
	UidException failure() {
		if (!this.layout.getExpiry().isAfter(Instant.ofEpochMilli(this.clock.currentTimeMillis()))) {
			return new LayoutExhaustedException(this.layout.getExpiry());
		}
		UidException lost = this.recovery.failure();
		if (lost != null) {
			return lost;
		}
		UidException sessionFailure = issuingSession().failure();
		return (sessionFailure instanceof WorkerLeaseLostException reported) ? lostLease(reported) : sessionFailure;
	}

	/**
	 * Counts what a session the generator leaves behind recorded, so the generator's figures never go back.
	 * @param left the session it no longer issues on
	 */
	void leave(WorkerSession left) {
		this.earlierMarkFailures.addAndGet(left.markFailures());
	}

	/**
	 * The exception to throw for a lost lease: what the assigner said and what the generator does about it (claims
	 * again, or stays stopped), also to a caller that sees the loss before the keeper has told the recovery.
	 */
	WorkerLeaseLostException lostLease(WorkerLeaseLostException reported) {
		return this.recovery.toldToCallers(reported, this.clock.currentTimeMillis());
	}

	/**
	 * Stops issuing, stops background threads and releases the worker ID with its final mark.
	 */
	@Override
	public abstract void close();

	/**
	 * Stops issuing and every background thread the way a killed process stops: without releasing the worker ID
	 * and without recording a final mark. A test hook for restart-after-crash tests.
	 */
	final void simulateCrash() {
		this.recovery.close();
		haltIssuing();
		haltSessions();
	}

	/** Stops keeping marks without releasing anything; see {@link #simulateCrash()}. */
	void haltSessions() {
		this.session.halt();
	}

	/** Makes every later {@link #getUID()} fail and stops the generator's own threads, releasing nothing. */
	void haltIssuing() {
	}

	/**
	 * Settings both generators share.
	 *
	 * @param <B> the concrete builder
	 */
	public abstract static class Builder<B extends Builder<B>> {

		private UidLayout layout;

		private UidClock clock = UidClock.SYSTEM;

		private WorkerIdAssigner workerIdAssigner;

		private Long datacenterId;

		private Duration markReservation = DEFAULT_MARK_RESERVATION;

		private Duration markTimeout = DEFAULT_MARK_TIMEOUT;

		private Duration maxStartupWait = DEFAULT_MAX_STARTUP_WAIT;

		private Duration maxClockSkew = DEFAULT_MAX_CLOCK_SKEW;

		private boolean reclaimLostLease = true;

		protected Builder() {
		}

		@SuppressWarnings("unchecked")
		private B self() {
			return (B) this;
		}

		/**
		 * Sets the ID layout; {@link UidLayout#defaults()} when not set.
		 * @param layout the layout
		 * @return this builder
		 */
		public B layout(UidLayout layout) {
			this.layout = layout;
			return self();
		}

		/**
		 * Sets the clock; the system clock when not set.
		 * @param clock the clock
		 * @return this builder
		 */
		public B clock(UidClock clock) {
			this.clock = clock;
			return self();
		}

		/**
		 * Sets where the worker ID and its high-water mark come from (required).
		 * @param workerIdAssigner the assigner
		 * @return this builder
		 */
		public B workerIdAssigner(WorkerIdAssigner workerIdAssigner) {
			this.workerIdAssigner = workerIdAssigner;
			return self();
		}

		/**
		 * Sets the data center the generator issues for, written into the layout's data-center bits; required when the
		 * layout has data-center bits (a data center that forgot it must not silently issue as data center 0), 0
		 * without them. The worker-ID assigner must be this data center's own store: worker IDs are unique within a
		 * data center, the data-center ID makes them unique across data centers. Checked against the layout at build.
		 * @param datacenterId from 0 to the layout's {@link UidLayout#getMaxDatacenterId() largest data-center ID}
		 * @return this builder
		 */
		public B datacenterId(long datacenterId) {
			this.datacenterId = datacenterId;
			return self();
		}

		/**
		 * Sets how far past the time in use each recorded high-water mark reaches. Longer means fewer writes to the
		 * assigner's store; shorter means less waiting after a crash and restart.
		 * @param markReservation a positive duration
		 * @return this builder
		 */
		public B markReservation(Duration markReservation) {
			this.markReservation = requirePositive(markReservation, "markReservation");
			return self();
		}

		/**
		 * Sets how long issue may wait for the high-water mark to be recorded before it fails.
		 * @param markTimeout a positive duration
		 * @return this builder
		 */
		public B markTimeout(Duration markTimeout) {
			this.markTimeout = requirePositive(markTimeout, "markTimeout");
			return self();
		}

		/**
		 * Sets how long start-up may wait for the clock to pass the worker's high-water mark before it refuses.
		 * @param maxStartupWait zero or more
		 * @return this builder
		 */
		public B maxStartupWait(Duration maxStartupWait) {
			this.maxStartupWait = requireNotNegative(maxStartupWait, "maxStartupWait");
			return self();
		}

		/**
		 * Sets how far this instance's clock may run ahead of its worker store's clock. While the store does not answer,
		 * the generator issues on its lease (see {@link WorkerIdAssigner#leaseHold()}) up to this long before the
		 * lease's expiry as the store counts it, so that whoever takes the worker ID after that expiry starts after
		 * every ID issued; a clock further ahead than this could repeat IDs after an outage. 2 s by default.
		 * @param maxClockSkew zero or more, shorter than the assigner's lease
		 * @return this builder
		 */
		public B maxClockSkew(Duration maxClockSkew) {
			this.maxClockSkew = requireNotNegative(maxClockSkew, "maxClockSkew");
			return self();
		}

		/**
		 * Sets whether a generator whose lease was lost (taken by another instance after a partition outlasted it, or
		 * lost or rewound by the store) claims a worker ID again by itself, as a newcomer would, and issues again once
		 * nothing it could issue may collide; on by default. Off, it stays stopped until the instance is restarted.
		 * @param reclaimLostLease whether to claim again
		 * @return this builder
		 */
		public B reclaimLostLease(boolean reclaimLostLease) {
			this.reclaimLostLease = reclaimLostLease;
			return self();
		}

		static Duration requirePositive(Duration value, String name) {
			if (value == null || value.isNegative() || value.isZero()) {
				throw new InvalidSettingException(name, value, "use a positive duration");
			}
			return value;
		}

		static Duration requireNotNegative(Duration value, String name) {
			if (value == null || value.isNegative()) {
				throw new InvalidSettingException(name, value, "use a duration of zero or more");
			}
			return value;
		}

		/**
		 * Returns the layout set so far.
		 * @return the layout, or {@code null} before {@link #applyDefaults()}
		 */
		protected UidLayout layout() {
			return this.layout;
		}

		/**
		 * Returns the layout the generator will be built with: the one set, else the default.
		 * @return the layout
		 */
		public UidLayout getLayout() {
			return (this.layout != null) ? this.layout : UidLayout.defaults();
		}

		/** Fills in the defaults that need no argument. */
		protected void applyDefaults() {
			if (this.layout == null) {
				this.layout = UidLayout.defaults();
			}
		}

		/**
		 * Claims the worker ID and starts keeping its mark, for {@code build()}.
		 * @param allowedAhead how far ahead of the clock the generator may issue
		 * @return the open session
		 */
		final WorkerSession openSession(Duration allowedAhead) {
			applyDefaults();
			if (this.datacenterId == null && this.layout.getDatacenterBits() > 0) {
				throw new InvalidSettingException("datacenterId", null, "the layout has "
						+ this.layout.getDatacenterBits() + " data-center bits, so the generator needs this data "
						+ "center's ID: set datacenterId from 0 to " + this.layout.getMaxDatacenterId()
						+ ", different in each data center");
			}
			long datacenterId = (this.datacenterId != null) ? this.datacenterId : 0;
			this.layout.checkDatacenterId(datacenterId);
			Objects.requireNonNull(this.clock, "clock");
			WorkerIdAssigner assigner = Objects.requireNonNull(this.workerIdAssigner,
					"workerIdAssigner: every generator needs one, for example new FixedWorkerIdAssigner(1)");
			assigner.recordLayout(this.layout);
			return WorkerSession.open(assigner, this.layout, datacenterId, this.clock, new WorkerSession.Settings(
					this.markReservation, this.markTimeout, this.maxStartupWait, allowedAhead, this.maxClockSkew));
		}

	}

}
