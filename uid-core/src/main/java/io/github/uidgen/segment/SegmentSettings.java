package io.github.uidgen.segment;

import java.time.Duration;
import java.util.concurrent.ThreadFactory;
import java.util.regex.Pattern;

import io.github.uidgen.InvalidSettingException;
import io.github.uidgen.UidClock;

import static io.github.uidgen.segment.SegmentUidGenerator.DEFAULT_KEY;
import static io.github.uidgen.segment.SegmentUidGenerator.DEFAULT_MAX_STEP;
import static io.github.uidgen.segment.SegmentUidGenerator.DEFAULT_PREFETCH_THREADS;
import static io.github.uidgen.segment.SegmentUidGenerator.DEFAULT_PREFETCH_THRESHOLD;
import static io.github.uidgen.segment.SegmentUidGenerator.DEFAULT_STEP;
import static io.github.uidgen.segment.SegmentUidGenerator.DEFAULT_TARGET_INTERVAL;
import static io.github.uidgen.segment.SegmentUidGenerator.DEFAULT_WAIT_TIMEOUT;
import static io.github.uidgen.segment.SegmentUidGenerator.MAX_PREFETCH_THREADS;
import static io.github.uidgen.segment.SegmentUidGenerator.MAX_STEP;

/**
 * The settings behind a {@link SegmentUidGenerator.Builder}, each checked where it is set, with an
 * {@link InvalidSettingException} that names it. Kept apart from the builder, whose job is the documented fluent
 * API, so that a {@link SegmentUidGenerators} can copy them for each key.
 */
final class SegmentSettings {

	/**
	 * While callers wait for claims that have not started because every shared thread is in a claim (one that hangs,
	 * say), the shared threads may grow to this many times their number.
	 */
	static final int EXTRA_THREADS_FACTOR = 4;

	/** How long a key may go without a take before failed background claims stop being retried. */
	static final Duration DEFAULT_IDLE_AFTER = Duration.ofMinutes(1);

	private static final Pattern KEY = Pattern.compile("[A-Za-z0-9_.:-]{1,128}");

	final SegmentStore store;

	String key = DEFAULT_KEY;

	long step = DEFAULT_STEP;

	private boolean stepSet;

	private Long maxStep;

	Duration targetInterval = DEFAULT_TARGET_INTERVAL;

	int prefetchThreshold = DEFAULT_PREFETCH_THRESHOLD;

	Duration waitTimeout = DEFAULT_WAIT_TIMEOUT;

	Duration storeWaitAtStart = Duration.ZERO;

	UidClock clock = UidClock.SYSTEM;

	private int prefetchThreads = DEFAULT_PREFETCH_THREADS;

	ThreadFactory prefetchThreadFactory;

	Duration idleAfter = DEFAULT_IDLE_AFTER;

	private Duration extraThreadKeepAlive = SegmentPrefetcher.EXTRA_KEEP_ALIVE;

	SegmentSettings(SegmentStore store) {
		if (store == null) {
			throw new InvalidSettingException("store", null, "pass the SegmentStore segments come from, such as "
					+ "a JdbcSegmentStore or a RedisSegmentStore");
		}
		this.store = store;
	}

	void key(String key) {
		this.key = requireKey(key);
	}

	void step(long step) {
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
	}

	void maxStep(long maxStep) {
		long floor = this.stepSet ? this.step : 1;
		if (maxStep < floor || maxStep > MAX_STEP) {
			throw new InvalidSettingException("maxStep", maxStep, this.stepSet
					? "use a number from the step (" + this.step + ") to " + MAX_STEP
					: "use a number of 1 to " + MAX_STEP);
		}
		this.maxStep = maxStep;
	}

	void targetInterval(Duration targetInterval) {
		if (targetInterval == null || targetInterval.isNegative() || targetInterval.toMillis() < 1) {
			throw new InvalidSettingException("targetInterval", targetInterval,
					"use a duration of at least 1 ms, such as 15m");
		}
		this.targetInterval = targetInterval;
	}

	void prefetchThreshold(int prefetchThreshold) {
		if (prefetchThreshold < 0 || prefetchThreshold > 99) {
			throw new InvalidSettingException("prefetchThreshold", prefetchThreshold,
					"use a percentage of 0 to 99, such as " + DEFAULT_PREFETCH_THRESHOLD);
		}
		this.prefetchThreshold = prefetchThreshold;
	}

	void waitTimeout(Duration waitTimeout) {
		if (waitTimeout == null || waitTimeout.isNegative() || waitTimeout.isZero()) {
			throw new InvalidSettingException("waitTimeout", waitTimeout, "use a positive duration, such as 5s");
		}
		this.waitTimeout = waitTimeout;
	}

	void storeWaitAtStart(Duration storeWaitAtStart) {
		if (storeWaitAtStart == null || storeWaitAtStart.isNegative()) {
			throw new InvalidSettingException("storeWaitAtStart", storeWaitAtStart, "use 0 to fail the start at the "
					+ "first claim the store leaves unanswered, or a positive duration such as 10s");
		}
		this.storeWaitAtStart = storeWaitAtStart;
	}

	void clock(UidClock clock) {
		if (clock == null) {
			throw new InvalidSettingException("clock", null, "pass a clock, such as UidClock.SYSTEM");
		}
		this.clock = clock;
	}

	void prefetchThreads(int prefetchThreads) {
		if (prefetchThreads < 1 || prefetchThreads > MAX_PREFETCH_THREADS) {
			throw new InvalidSettingException("prefetchThreads", prefetchThreads, "use a number of 1 to "
					+ MAX_PREFETCH_THREADS + ", such as " + DEFAULT_PREFETCH_THREADS);
		}
		this.prefetchThreads = prefetchThreads;
	}

	void prefetchThreadFactory(ThreadFactory threadFactory) {
		if (threadFactory == null) {
			throw new InvalidSettingException("prefetchThreadFactory", null,
					"pass a ThreadFactory, or leave it unset for daemon platform threads");
		}
		this.prefetchThreadFactory = threadFactory;
	}

	/** Sets how long a key may go without a take before its failed claims are no longer retried. For tests. */
	void idleAfter(Duration idleAfter) {
		this.idleAfter = idleAfter;
	}

	/** Sets how long a shared thread added while claims hung stays without work before it ends. For tests. */
	void extraThreadKeepAlive(Duration keepAlive) {
		this.extraThreadKeepAlive = keepAlive;
	}

	/** Checks the settings that depend on each other. */
	void validate() {
		long effective = effectiveMaxStep();
		if (effective < this.step || effective > MAX_STEP) {
			throw new InvalidSettingException("maxStep", effective, "use a number from the step (" + this.step
					+ ") to " + MAX_STEP);
		}
	}

	/** The max step: as set, else the larger of {@link SegmentUidGenerator#DEFAULT_MAX_STEP} and the step. */
	private long effectiveMaxStep() {
		return (this.maxStep != null) ? this.maxStep : Math.max(DEFAULT_MAX_STEP, this.step);
	}

	/** Returns the step policy of these settings; immutable, to share among keys. */
	AdaptiveStep stepPolicy() {
		return new AdaptiveStep(this.step, effectiveMaxStep(), this.targetInterval);
	}

	/** Returns the prefetcher a set of generators built from these settings shares, not started. */
	SegmentPrefetcher sharedPrefetcher() {
		return SegmentPrefetcher.shared("uid-segment-prefetch#", this.prefetchThreads,
				EXTRA_THREADS_FACTOR * this.prefetchThreads, this.extraThreadKeepAlive, this.prefetchThreadFactory);
	}

	/** Returns the same settings for another key. */
	SegmentSettings forKey(String key) {
		SegmentSettings copy = copy();
		copy.key(key);
		return copy;
	}

	/** Returns the same settings, unaffected by later changes to these. */
	SegmentSettings copy() {
		SegmentSettings copy = new SegmentSettings(this.store);
		copy.key = this.key;
		copy.step = this.step;
		copy.stepSet = this.stepSet;
		copy.maxStep = this.maxStep;
		copy.targetInterval = this.targetInterval;
		copy.prefetchThreshold = this.prefetchThreshold;
		copy.waitTimeout = this.waitTimeout;
		copy.storeWaitAtStart = this.storeWaitAtStart;
		copy.clock = this.clock;
		copy.prefetchThreads = this.prefetchThreads;
		copy.prefetchThreadFactory = this.prefetchThreadFactory;
		copy.idleAfter = this.idleAfter;
		copy.extraThreadKeepAlive = this.extraThreadKeepAlive;
		return copy;
	}

	/** Returns the key, or refuses it unless it is 1 to 128 letters, digits, '_', '-', '.' or ':'. */
	static String requireKey(String key) {
		if (key == null || !KEY.matcher(key).matches()) {
			throw new InvalidSettingException("key", key, "use 1 to 128 letters, digits, '_', '-', '.' or ':'");
		}
		return key;
	}

}
