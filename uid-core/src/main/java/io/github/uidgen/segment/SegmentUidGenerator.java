package io.github.uidgen.segment;

import java.time.Duration;
import java.util.concurrent.ThreadFactory;
import java.util.regex.Pattern;

import io.github.uidgen.DecodedUid;
import io.github.uidgen.InvalidSettingException;
import io.github.uidgen.InvalidUidException;
import io.github.uidgen.UidClock;
import io.github.uidgen.UidException;
import io.github.uidgen.UidGenerator;
import io.github.uidgen.UidGeneratorStatus;
import io.github.uidgen.UidLayout;

/**
 * Hands out the numbers of one key (Leaf's {@code biz_tag}) — 1, 2, 3, ... across all instances — from segments of
 * {@code step} numbers claimed atomically from a {@link SegmentStore}: dense, short, independent of clocks, and
 * strictly increasing for each calling thread.
 *
 * <p><strong>Double buffer.</strong> When the take of the number at {@code prefetchThreshold} percent of the current
 * segment happens, a background thread claims the next segment, so the switch finds it ready. A caller that finds
 * both used up waits for that claim, at most {@code waitTimeout}; only background threads call the store (after the
 * first claim, which {@link Builder#build()} makes), so no caller blocks longer than that, whatever the store does.
 * The parts: {@link SegmentBuffer} (the two segments and the hot path), {@link SegmentClaimer} (the background
 * claims and the wait for them), {@link KeyClaims} (the store calls and what they came to) and {@link AdaptiveStep}
 * (the size of each claim).
 *
 * <p><strong>Threads.</strong> The background claims run on a {@link SegmentPrefetcher}: a generator built on its own
 * has one thread; the generators of a {@link SegmentUidGenerators} share a few ({@link Builder#prefetchThreads(int)},
 * two by default), however many keys there are. A key holds a thread only while one of its claims runs; one that is
 * not taken from makes no claims at all.
 *
 * <p><strong>Hot path.</strong> {@link #getUID()} is one volatile read and one atomic fetch-and-add on the current
 * segment's counter (which never fails and never retries, unlike a compare-and-set), then a comparison with the
 * segment's end: no lock, no allocation, no logging.
 *
 * <p><strong>Adaptive step.</strong> When a segment is used up faster than {@code targetInterval} (measured between
 * claims), the next claim takes twice the step, up to {@code maxStep}; when one lasts more than twice as long, the
 * step halves, down to {@code step}. Fewer round trips under load, denser numbers when quiet.
 *
 * <p><strong>Order and gaps.</strong> Each number goes to one caller. Ranges of a key only ever grow in the store,
 * so a thread's numbers strictly increase, and numbers from a later claim (of any instance) lie above those of an
 * earlier one. Numbers left in memory when an instance stops or crashes are never handed out again: a restarted
 * instance claims a fresh segment, leaving a gap.
 *
 * <p><strong>Store outage.</strong> Numbers already claimed keep being handed out; once they are used up,
 * {@link #getUID()} fails with {@link SegmentUnavailableException}, never with a repeated or smaller number, and
 * works again as soon as the store answers. A store that hands out a range below one it handed out before has lost
 * claims; the range is refused and the generator stops claiming for good ({@link SegmentStoreRewoundException}).
 *
 * <p>A segment ID has no layout: {@link #layout()} throws {@link NoLayoutException}, {@link #decode(long)} and
 * {@link #parseUID(long)} throw {@link SegmentIdNotDecodableException}, and {@link #status()} reports no layout and no
 * worker but the segments.
 */
public final class SegmentUidGenerator implements UidGenerator, AutoCloseable {

	/** Default numbers per segment, and the smallest step the adaptive step shrinks back to. */
	public static final long DEFAULT_STEP = 1000;

	/** Default largest step the adaptive step grows to. */
	public static final long DEFAULT_MAX_STEP = 1_000_000;

	/** Default time a segment should last before the step grows. */
	public static final Duration DEFAULT_TARGET_INTERVAL = Duration.ofMinutes(15);

	/** Default percentage of a segment used when the next one is claimed. */
	public static final int DEFAULT_PREFETCH_THRESHOLD = 80;

	/** Default limit on waiting for a new segment once the claimed numbers are used up. */
	public static final Duration DEFAULT_WAIT_TIMEOUT = Duration.ofSeconds(5);

	/** Default key. */
	public static final String DEFAULT_KEY = "default";

	/** The largest step allowed. */
	public static final long MAX_STEP = 1_000_000_000L;

	/**
	 * The largest number ever handed out: 2^62 - 1. The counter of a used-up segment keeps counting one per refused
	 * take, and the room left above this bound means it can never wrap.
	 */
	public static final long MAX_ID = (1L << 62) - 1;

	private static final Pattern KEY = Pattern.compile("[A-Za-z0-9_.:-]{1,128}");

	/** Default number of threads the generators of a {@link SegmentUidGenerators} share for their claims. */
	public static final int DEFAULT_PREFETCH_THREADS = 2;

	/** The most threads a set of generators may claim on. */
	public static final int MAX_PREFETCH_THREADS = 64;

	/**
	 * While callers wait for claims that have not started because every shared thread is in a claim (one that hangs,
	 * say), the shared threads may grow to this many times their number.
	 */
	static final int EXTRA_THREADS_FACTOR = 4;

	/** How long a key may go without a take before failed background claims stop being retried. */
	static final Duration DEFAULT_IDLE_AFTER = Duration.ofMinutes(1);

	/** Final, so that the JIT folds {@link #getUID()} into the buffer's take. */
	private final SegmentBuffer buffer;

	private final SegmentClaimer claimer;

	private final KeyClaims claims;

	/** The threads this generator's background claims run on. */
	private final SegmentPrefetcher prefetcher;

	/** Whether the prefetcher is this generator's alone, to close with it. */
	private final boolean ownsPrefetcher;

	private SegmentUidGenerator(Builder builder, SegmentPrefetcher sharedPrefetcher) {
		this.claims = new KeyClaims(builder.key, builder.store, builder.clock,
				new AdaptiveStep(builder.step, builder.effectiveMaxStep(), builder.targetInterval));
		this.ownsPrefetcher = sharedPrefetcher == null;
		this.prefetcher = this.ownsPrefetcher
				? SegmentPrefetcher.single("uid-segment-prefetch-" + builder.key, builder.prefetchThreadFactory)
				: sharedPrefetcher;
		this.claimer = new SegmentClaimer(this.claims, this.prefetcher, builder.prefetchThreshold, builder.waitTimeout,
				builder.idleAfter);
		this.buffer = this.claimer.buffer();
	}

	/** Claims the first segment, then starts the background threads (unless they run already); once. */
	private void start() {
		this.claimer.claimFirst();
		this.prefetcher.start();
	}

	/**
	 * Starts building a generator on a store.
	 * @param store where segments come from
	 * @return a builder
	 */
	public static Builder builder(SegmentStore store) {
		return new Builder(store);
	}

	/**
	 * Returns the next number of the key: above every number this generator handed to the calling thread before,
	 * and never handed to anyone else.
	 * @return a number from 0 to {@link #MAX_ID}
	 * @throws SegmentUnavailableException when every claimed number is used up and no new segment can be had
	 */
	@Override
	public long getUID() {
		return this.buffer.take();
	}

	/**
	 * Always throws: segment IDs follow no layout.
	 * @return never
	 * @throws NoLayoutException always
	 */
	@Override
	public UidLayout layout() {
		throw new NoLayoutException(getKey());
	}

	/**
	 * Always throws: a segment ID is a plain number, with nothing in it to decode.
	 * @param uid an ID
	 * @return never
	 * @throws SegmentIdNotDecodableException for any ID from 0 up
	 * @throws InvalidUidException for a negative ID
	 */
	@Override
	public DecodedUid decode(long uid) {
		if (uid < 0) {
			throw new InvalidUidException("uid " + uid + " is negative; segment IDs never are");
		}
		throw new SegmentIdNotDecodableException(uid, getKey());
	}

	/**
	 * Describes this generator: kind {@code segment}, no layout and no worker, the numbers issued, its segments
	 * (key, step, numbers left in memory, segments claimed, failed claims) and why it cannot issue, if that is so.
	 * @return the status now
	 */
	@Override
	public UidGeneratorStatus status() {
		return new UidGeneratorStatus(kind(), null, null, getIssuedCount(), 0, null, null,
				new UidGeneratorStatus.Segment(getKey(), getStep(), getRemaining(), getSegmentsFetched(),
						getStoreFailureCount()),
				getFailure());
	}

	/**
	 * Returns the kind of generator, as the endpoint and health views name it.
	 * @return {@code segment}
	 */
	public String kind() {
		return "segment";
	}

	/**
	 * Returns the key whose numbers this generator hands out.
	 * @return the key
	 */
	public String getKey() {
		return this.claims.key();
	}

	/**
	 * Returns the name of the store segments come from.
	 * @return for example {@code db} or {@code redis}
	 */
	public String getStoreName() {
		return this.claims.storeName();
	}

	/**
	 * Returns the size of the latest claimed segment, which the adaptive step moves between {@code step} and
	 * {@code maxStep}.
	 * @return the step
	 */
	public long getStep() {
		return this.claims.step();
	}

	/**
	 * Returns how many segments were claimed from the store, the first one included.
	 * @return the count
	 */
	public long getSegmentsFetched() {
		return this.claims.segmentsFetched();
	}

	/**
	 * Returns how many claims failed.
	 * @return the count
	 */
	public long getStoreFailureCount() {
		return this.claims.failureCount();
	}

	/**
	 * Returns why the latest claim failed, while no claim has succeeded since.
	 * @return the failure, or {@code null} while the store answers
	 */
	public SegmentStoreException getStoreFailure() {
		return this.claims.failure();
	}

	/**
	 * Returns how many claimed numbers are left in memory: the rest of the current segment and the next one, if it
	 * is claimed already. These are what an outage of the store can still be served from.
	 * @return the count, 0 once closed
	 */
	public long getRemaining() {
		return this.buffer.remaining();
	}

	/**
	 * Returns how many numbers this generator has handed out; exact when idle, close to it under load.
	 * @return the count
	 */
	public long getIssuedCount() {
		return this.buffer.issued();
	}

	/**
	 * Returns the segment numbers are handed out of now.
	 * @return the range, or {@code null} once closed
	 */
	public SegmentRange getCurrentSegment() {
		return this.buffer.currentRange();
	}

	/**
	 * Returns why {@link #getUID()} fails at the moment, if it does: the generator is closed, or every claimed number
	 * is used up and the store fails or has not answered for longer than the wait timeout.
	 * @return the failure, or {@code null} while numbers can be handed out
	 */
	public UidException getFailure() {
		if (this.buffer.isClosed()) {
			return SegmentUnavailableException.closed(getKey());
		}
		return (getRemaining() > 0) ? null : this.claimer.failure();
	}

	/**
	 * Stops handing out numbers and makes no claim afterwards: waits (at most 5 seconds) for a claim under way to
	 * return, and stops the background thread of a generator built on its own. The numbers left in memory are never
	 * handed out (a gap); the store needs no release.
	 */
	@Override
	public void close() {
		close(true);
	}

	/**
	 * Closes; waits for a claim under way only when asked to. A {@link SegmentUidGenerators} closes its generators
	 * without waiting, then closes their shared threads, which waits once for all claims under way.
	 */
	void close(boolean awaitClaim) {
		if (!this.buffer.close()) {
			return;
		}
		this.claimer.close(awaitClaim && !this.ownsPrefetcher);
		if (this.ownsPrefetcher) {
			this.prefetcher.close();
		}
	}

	@Override
	public String toString() {
		return "SegmentUidGenerator[key=" + getKey() + ", store=" + getStoreName() + ", segment="
				+ this.buffer.current() + ", step=" + getStep() + "]";
	}

	/**
	 * Settings of a segment generator.
	 */
	public static final class Builder {

		private final SegmentStore store;

		private String key = DEFAULT_KEY;

		private long step = DEFAULT_STEP;

		private boolean stepSet;

		private Long maxStep;

		private Duration targetInterval = DEFAULT_TARGET_INTERVAL;

		private int prefetchThreshold = DEFAULT_PREFETCH_THRESHOLD;

		private Duration waitTimeout = DEFAULT_WAIT_TIMEOUT;

		private UidClock clock = UidClock.SYSTEM;

		private int prefetchThreads = DEFAULT_PREFETCH_THREADS;

		private ThreadFactory prefetchThreadFactory;

		private Duration idleAfter = DEFAULT_IDLE_AFTER;

		private Duration extraThreadKeepAlive = SegmentPrefetcher.EXTRA_KEEP_ALIVE;

		private Builder(SegmentStore store) {
			if (store == null) {
				throw new InvalidSettingException("store", null, "pass the SegmentStore segments come from, such as "
						+ "a JdbcSegmentStore or a RedisSegmentStore");
			}
			this.store = store;
		}

		/**
		 * Sets the key whose numbers to hand out (Leaf's {@code biz_tag}); {@code default} when not set.
		 * @param key 1 to 128 letters, digits, {@code _}, {@code -}, {@code .} or {@code :}
		 * @return this builder
		 */
		public Builder key(String key) {
			this.key = requireKey(key);
			return this;
		}

		/**
		 * Sets how many numbers a segment holds, and the smallest step the adaptive step shrinks back to. Larger
		 * means fewer round trips to the store and larger gaps when an instance stops.
		 * @param step 1 to {@link #MAX_STEP}
		 * @return this builder
		 */
		public Builder step(long step) {
			if (step < 1 || step > MAX_STEP) {
				throw new InvalidSettingException("step", step, "use a number of 1 to " + MAX_STEP + ", such as "
						+ DEFAULT_STEP);
			}
			if (this.maxStep != null && step > this.maxStep) {
				throw new InvalidSettingException("step", step, "use a number of 1 to the max step (" + this.maxStep
						+ ")");
			}
			this.step = step;
			this.stepSet = true;
			return this;
		}

		/**
		 * Sets the largest step the adaptive step grows to; the larger of {@link #DEFAULT_MAX_STEP} and the step when
		 * not set. Equal to the step, the step never changes. Checked against the step when the step is set already,
		 * else when the generator is built.
		 * @param maxStep from the step to {@link #MAX_STEP}
		 * @return this builder
		 */
		public Builder maxStep(long maxStep) {
			long floor = this.stepSet ? this.step : 1;
			if (maxStep < floor || maxStep > MAX_STEP) {
				throw new InvalidSettingException("maxStep", maxStep, this.stepSet
						? "use a number from the step (" + this.step + ") to " + MAX_STEP
						: "use a number of 1 to " + MAX_STEP);
			}
			this.maxStep = maxStep;
			return this;
		}

		/**
		 * Sets how long a segment should last: a segment used up faster doubles the next step, one that lasts more
		 * than twice as long halves it.
		 * @param targetInterval a positive duration
		 * @return this builder
		 */
		public Builder targetInterval(Duration targetInterval) {
			if (targetInterval == null || targetInterval.isNegative() || targetInterval.toMillis() < 1) {
				throw new InvalidSettingException("targetInterval", targetInterval,
						"use a duration of at least 1 ms, such as 15m");
			}
			this.targetInterval = targetInterval;
			return this;
		}

		/**
		 * Sets the percentage of a segment used when the next one is claimed in the background. Lower means longer
		 * service through a store outage and a larger gap at a restart; 0 claims the next one at once.
		 * @param prefetchThreshold 0 to 99
		 * @return this builder
		 */
		public Builder prefetchThreshold(int prefetchThreshold) {
			if (prefetchThreshold < 0 || prefetchThreshold > 99) {
				throw new InvalidSettingException("prefetchThreshold", prefetchThreshold,
						"use a percentage of 0 to 99, such as " + DEFAULT_PREFETCH_THRESHOLD);
			}
			this.prefetchThreshold = prefetchThreshold;
			return this;
		}

		/**
		 * Sets how long {@link SegmentUidGenerator#getUID()} may wait for a new segment once the claimed numbers are
		 * used up, before it fails.
		 * @param waitTimeout a positive duration
		 * @return this builder
		 */
		public Builder waitTimeout(Duration waitTimeout) {
			if (waitTimeout == null || waitTimeout.isNegative() || waitTimeout.isZero()) {
				throw new InvalidSettingException("waitTimeout", waitTimeout, "use a positive duration, such as 5s");
			}
			this.waitTimeout = waitTimeout;
			return this;
		}

		/**
		 * Sets the clock the adaptive step measures segment lifetimes with; the system clock when not set.
		 * @param clock the clock
		 * @return this builder
		 */
		public Builder clock(UidClock clock) {
			if (clock == null) {
				throw new InvalidSettingException("clock", null, "pass a clock, such as UidClock.SYSTEM");
			}
			this.clock = clock;
			return this;
		}

		/**
		 * Sets how many threads the generators of a {@link SegmentUidGenerators} share for their background claims,
		 * whatever the number of keys; {@link #DEFAULT_PREFETCH_THREADS} when not set. Claims of different keys run
		 * side by side up to this number (a slow claim of one key does not hold up the others); each thread is parked
		 * while no claim is wanted. A generator built on its own with {@link #build()} has one thread.
		 * @param prefetchThreads 1 to {@link #MAX_PREFETCH_THREADS}
		 * @return this builder
		 */
		public Builder prefetchThreads(int prefetchThreads) {
			if (prefetchThreads < 1 || prefetchThreads > MAX_PREFETCH_THREADS) {
				throw new InvalidSettingException("prefetchThreads", prefetchThreads, "use a number of 1 to "
						+ MAX_PREFETCH_THREADS + ", such as " + DEFAULT_PREFETCH_THREADS);
			}
			this.prefetchThreads = prefetchThreads;
			return this;
		}

		/**
		 * Sets what makes the background threads, for example a factory of virtual threads; daemon platform threads
		 * when not set. Each thread is named {@code uid-segment-prefetch-<key>} (a generator built on its own) or
		 * {@code uid-segment-prefetch#<n>} (the shared threads of a {@link SegmentUidGenerators}).
		 * @param threadFactory the factory
		 * @return this builder
		 */
		public Builder prefetchThreadFactory(ThreadFactory threadFactory) {
			if (threadFactory == null) {
				throw new InvalidSettingException("prefetchThreadFactory", null,
						"pass a ThreadFactory, or leave it unset for daemon platform threads");
			}
			this.prefetchThreadFactory = threadFactory;
			return this;
		}

		/**
		 * Sets how long a key may go without a take before its failed background claims are no longer retried;
		 * {@link #DEFAULT_IDLE_AFTER} when not set. For tests.
		 */
		Builder idleAfter(Duration idleAfter) {
			this.idleAfter = idleAfter;
			return this;
		}

		/**
		 * Sets how long a shared thread added while claims hung stays without work before it ends;
		 * {@link SegmentPrefetcher#EXTRA_KEEP_ALIVE} when not set. For tests.
		 */
		Builder extraThreadKeepAlive(Duration keepAlive) {
			this.extraThreadKeepAlive = keepAlive;
			return this;
		}

		/**
		 * Claims the first segment and starts the background thread, one of its own.
		 * @return the running generator
		 * @throws InvalidSettingException when {@code maxStep} is smaller than {@code step}
		 * @throws SegmentStoreException when the first segment cannot be claimed
		 */
		public SegmentUidGenerator build() {
			return build(null);
		}

		/**
		 * Claims the first segment and starts the generator on a prefetcher it shares with others, or on one of its
		 * own.
		 */
		SegmentUidGenerator build(SegmentPrefetcher sharedPrefetcher) {
			validate();
			SegmentUidGenerator generator = new SegmentUidGenerator(this, sharedPrefetcher);
			generator.start();
			return generator;
		}

		/** Returns the prefetcher a set of generators built from these settings shares, not started. */
		SegmentPrefetcher sharedPrefetcher() {
			return SegmentPrefetcher.shared("uid-segment-prefetch#", this.prefetchThreads,
					EXTRA_THREADS_FACTOR * this.prefetchThreads, this.extraThreadKeepAlive, this.prefetchThreadFactory);
		}

		/** Checks the settings that depend on each other. */
		void validate() {
			long effective = effectiveMaxStep();
			if (effective < this.step || effective > MAX_STEP) {
				throw new InvalidSettingException("maxStep", effective, "use a number from the step (" + this.step
						+ ") to " + MAX_STEP);
			}
		}

		/** Returns a builder with the same settings, for another key. */
		Builder copy() {
			Builder copy = new Builder(this.store);
			copy.key = this.key;
			copy.step = this.step;
			copy.stepSet = this.stepSet;
			copy.maxStep = this.maxStep;
			copy.targetInterval = this.targetInterval;
			copy.prefetchThreshold = this.prefetchThreshold;
			copy.waitTimeout = this.waitTimeout;
			copy.clock = this.clock;
			copy.prefetchThreads = this.prefetchThreads;
			copy.prefetchThreadFactory = this.prefetchThreadFactory;
			copy.idleAfter = this.idleAfter;
			copy.extraThreadKeepAlive = this.extraThreadKeepAlive;
			return copy;
		}

		private long effectiveMaxStep() {
			return (this.maxStep != null) ? this.maxStep : Math.max(DEFAULT_MAX_STEP, this.step);
		}

		static String requireKey(String key) {
			if (key == null || !KEY.matcher(key).matches()) {
				throw new InvalidSettingException("key", key, "use 1 to 128 letters, digits, '_', '-', '.' or ':'");
			}
			return key;
		}

	}

}
