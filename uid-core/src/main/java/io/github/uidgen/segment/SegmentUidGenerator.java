package io.github.uidgen.segment;

import java.time.Duration;
import java.util.concurrent.ThreadFactory;

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
 * first claim, which {@link Builder#build()} and {@link SegmentUidGenerators#forKey(String)} make on the calling
 * thread), so no caller blocks longer than that, whatever the store does.
 * {@link #getUID()} takes no lock, allocates nothing and logs nothing. The package description says how the work is
 * shared out: the buffer, the claims, their threads and the adaptive step each have a class of their own.
 *
 * <p><strong>Start in the background.</strong> {@link SegmentUidGenerators#startKey(String)} (what Spring Boot's
 * {@code UidGenerator} bean of {@code uid.generator=segment} uses) returns the generator before its first segment is
 * claimed: the buffer starts on an empty segment whose successor, the first segment, a background thread claims,
 * trying again for {@code storeWaitAtStart} while the store cannot be reached. A {@link #getUID()} meanwhile waits for
 * it as it would for any successor, at most {@code waitTimeout}; {@link #awaitFirstSegment()} waits for it and throws
 * what the start's tries threw, which is how a start fails.
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

	/** Default number of threads the generators of a {@link SegmentUidGenerators} share for their claims. */
	public static final int DEFAULT_PREFETCH_THREADS = 2;

	/** The most threads a set of generators may claim on. */
	public static final int MAX_PREFETCH_THREADS = 64;

	/** All {@link #getUID()} reads: the buffer's {@code take()} is small and not virtual (final class), so inlined. */
	private final SegmentBuffer buffer;

	private final SegmentClaimer claimer;

	private final KeyClaims claims;

	/** The threads this generator's background claims run on. */
	private final SegmentPrefetcher prefetcher;

	/** Whether the prefetcher is this generator's alone, to close with it. */
	private final boolean ownsPrefetcher;

	private SegmentUidGenerator(SegmentSettings settings, SegmentPrefetcher sharedPrefetcher, AdaptiveStep stepPolicy) {
		this.claims = new KeyClaims(settings.key, settings.store, settings.clock, stepPolicy);
		this.ownsPrefetcher = sharedPrefetcher == null;
		this.prefetcher = this.ownsPrefetcher
				? SegmentPrefetcher.single("uid-segment-prefetch-" + settings.key, settings.prefetchThreadFactory)
				: sharedPrefetcher;
		this.claimer = new SegmentClaimer(this.claims, this.prefetcher, settings.prefetchThreshold,
				settings.waitTimeout, settings.idleAfter, settings.storeWaitAtStart);
		this.buffer = this.claimer.buffer();
	}

	/**
	 * Checks the settings, claims the first segment, then starts the background threads (unless they run already).
	 * A {@link SegmentUidGenerators} passes the prefetcher and the step policy its generators share (a {@code null}
	 * prefetcher makes one of its own).
	 */
	static SegmentUidGenerator start(SegmentSettings settings, SegmentPrefetcher sharedPrefetcher,
			AdaptiveStep stepPolicy) {
		settings.validate();
		SegmentUidGenerator generator = new SegmentUidGenerator(settings, sharedPrefetcher, stepPolicy);
		generator.claimer.claimFirst();
		generator.prefetcher.start();
		return generator;
	}

	/**
	 * Checks the settings, starts the background threads (unless they run already) and asks them for the first
	 * segment; returns at once. {@link #awaitFirstSegment()} waits for the claim and throws what it threw.
	 */
	static SegmentUidGenerator startInBackground(SegmentSettings settings, SegmentPrefetcher sharedPrefetcher,
			AdaptiveStep stepPolicy) {
		settings.validate();
		SegmentUidGenerator generator = new SegmentUidGenerator(settings, sharedPrefetcher, stepPolicy);
		generator.prefetcher.start();
		generator.claimer.claimFirstInBackground();
		return generator;
	}

	/**
	 * Starts building a generator on a store.
	 * @param store where segments come from
	 * @return a builder
	 */
	public static Builder builder(SegmentStore store) {
		return new Builder(new SegmentSettings(store));
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
	 * Waits until the first segment is claimed, for a generator whose first segment is claimed in the background
	 * ({@link SegmentUidGenerators#startKey(String)}); returns at once for any other, whose first segment was claimed
	 * when it was built. The wait is not bounded here: the store's own timeout bounds each claim, and
	 * {@link Builder#storeWaitAtStart(Duration)} how long claims that cannot reach the store are tried again. Only the
	 * start's tries count: once they failed, this throws what they threw, even if a background retry has succeeded
	 * since, so that a start fails as a start that claims on its own thread does.
	 * @throws SegmentStoreException what the first claim threw, as it was thrown (the store's exception, or one
	 * wrapping what it threw); once the store wait at start is over, a {@link SegmentStoreUnavailableException} that
	 * says so, with the last try's failure as its cause
	 * @throws SegmentUnavailableException when the generator was closed before its first segment came, or the waiting
	 * thread is interrupted
	 */
	public void awaitFirstSegment() {
		this.claimer.awaitFirst();
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

	/** {@return the kind of generator, as the endpoint and health views name it: {@code segment}} */
	public String kind() {
		return "segment";
	}

	/** {@return the key whose numbers this generator hands out} */
	public String getKey() {
		return this.claims.key();
	}

	/** {@return the name of the store segments come from, for example {@code db} or {@code redis}} */
	public String getStoreName() {
		return this.claims.storeName();
	}

	/** {@return the size of the latest claimed segment, between {@code step} and {@code maxStep} (adaptive step)} */
	public long getStep() {
		return this.claims.step();
	}

	/** {@return how many segments were claimed from the store, the first one included} */
	public long getSegmentsFetched() {
		return this.claims.segmentsFetched();
	}

	/** {@return how many claims failed} */
	public long getStoreFailureCount() {
		return this.claims.failureCount();
	}

	/** {@return why the latest claim failed, while none has succeeded since; {@code null} while the store answers} */
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

	/** {@return how many numbers this generator has handed out; exact when idle, close to it under load} */
	public long getIssuedCount() {
		return this.buffer.issued();
	}

	/**
	 * {@return the segment numbers are handed out of now; {@code null} while a start in the background waits for its
	 * first segment, and once closed}
	 */
	public SegmentRange getCurrentSegment() {
		return this.buffer.currentRange();
	}

	/**
	 * Returns why {@link #getUID()} fails at the moment, if it does: the generator is closed, every claimed number
	 * is used up and the store fails or has not answered for longer than the wait timeout, or a start in the
	 * background has not claimed its first segment yet (a call waits for it, at most the wait timeout).
	 * @return the failure, or {@code null} while numbers can be handed out
	 */
	public UidException getFailure() {
		if (this.buffer.isClosed()) {
			return SegmentUnavailableException.closed(getKey());
		}
		return (getRemaining() > 0) ? null : this.claimer.failure();
	}

	/**
	 * Returns whether a claim of this key is asked for, under way or waiting for its retry; {@code false} once nothing
	 * is wanted, as for a key that stopped retrying when it fell idle. Something to wait for instead of a time.
	 * @return whether the key's claimer has work
	 */
	boolean claimPending() {
		return this.claimer.state != SegmentClaimer.IDLE;
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

	/** Settings of a segment generator; each setter checks its value at once (see {@link SegmentSettings}). */
	public static final class Builder {

		private final SegmentSettings settings;

		private Builder(SegmentSettings settings) {
			this.settings = settings;
		}

		/**
		 * Sets the key whose numbers to hand out (Leaf's {@code biz_tag}); {@code default} when not set.
		 * @param key 1 to 128 letters, digits, {@code _}, {@code -}, {@code .} or {@code :}
		 * @return this builder
		 */
		public Builder key(String key) {
			this.settings.key(key);
			return this;
		}

		/**
		 * Sets how many numbers a segment holds, and the smallest step the adaptive step shrinks back to. Larger
		 * means fewer round trips to the store and larger gaps when an instance stops.
		 * @param step 1 to {@link #MAX_STEP}
		 * @return this builder
		 */
		public Builder step(long step) {
			this.settings.step(step);
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
			this.settings.maxStep(maxStep);
			return this;
		}

		/**
		 * Sets how long a segment should last: a segment used up faster doubles the next step, one that lasts more
		 * than twice as long halves it.
		 * @param targetInterval a positive duration
		 * @return this builder
		 */
		public Builder targetInterval(Duration targetInterval) {
			this.settings.targetInterval(targetInterval);
			return this;
		}

		/**
		 * Sets the percentage of a segment used when the next one is claimed in the background. Lower means longer
		 * service through a store outage and a larger gap at a restart; 0 claims the next one at once.
		 * @param prefetchThreshold 0 to 99
		 * @return this builder
		 */
		public Builder prefetchThreshold(int prefetchThreshold) {
			this.settings.prefetchThreshold(prefetchThreshold);
			return this;
		}

		/**
		 * Sets how long {@link SegmentUidGenerator#getUID()} may wait for a new segment once the claimed numbers are
		 * used up, before it fails.
		 * @param waitTimeout a positive duration
		 * @return this builder
		 */
		public Builder waitTimeout(Duration waitTimeout) {
			this.settings.waitTimeout(waitTimeout);
			return this;
		}

		/**
		 * Sets how long a start in the background ({@link SegmentUidGenerators#startKey(String)}) keeps trying a store
		 * that cannot be reached ({@link SegmentStoreUnavailableException}: down, restarting, slow to take the first
		 * connection) for the first segment, counted from the first try that failed; 0 when not set, which fails the
		 * start at the first such try. Each try that fails is logged at WARN with the store's error and the pause
		 * before the next (100 ms, doubling up to 2 s, and never past this wait); once the wait is over,
		 * {@link SegmentUidGenerator#awaitFirstSegment()} throws a {@link SegmentStoreUnavailableException} that says
		 * how long the store was tried, with the last try's failure as its cause. A store that answers and refuses
		 * (a missing table, a key it does not hold) fails the start at once, whatever this says. A first segment
		 * claimed on the calling thread ({@link #build()}, {@link SegmentUidGenerators#forKey(String)}) is not tried
		 * again: the caller gets the failure.
		 * @param storeWaitAtStart 0 or a positive duration
		 * @return this builder
		 */
		public Builder storeWaitAtStart(Duration storeWaitAtStart) {
			this.settings.storeWaitAtStart(storeWaitAtStart);
			return this;
		}

		/**
		 * Sets the clock the adaptive step measures segment lifetimes with; the system clock when not set.
		 * @param clock the clock
		 * @return this builder
		 */
		public Builder clock(UidClock clock) {
			this.settings.clock(clock);
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
			this.settings.prefetchThreads(prefetchThreads);
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
			this.settings.prefetchThreadFactory(threadFactory);
			return this;
		}

		/**
		 * Claims the first segment and starts the background thread, one of its own.
		 * @return the running generator
		 * @throws InvalidSettingException when {@code maxStep} is smaller than {@code step}
		 * @throws SegmentStoreException when the first segment cannot be claimed
		 */
		public SegmentUidGenerator build() {
			return start(this.settings, null, this.settings.stepPolicy());
		}

		/** The settings as they stand, for a {@link SegmentUidGenerators} to copy for each key (and for tests). */
		SegmentSettings settings() {
			return this.settings;
		}

	}

}
