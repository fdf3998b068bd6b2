package io.github.uidgen.autoconfigure;

import java.time.Duration;
import java.time.temporal.ChronoUnit;

import org.springframework.boot.convert.DurationUnit;

/**
 * Settings of the cached generator, under {@code uid.cached.*}.
 */
public class UidCachedProperties {

	/**
	 * Size of the ring buffer as a power of two times the IDs of one time unit: the ring holds
	 * 2^seqBits << boostPower IDs.
	 */
	private int boostPower = 3;

	/**
	 * Fill percentage (1 to 99) under which a take asks for a refill.
	 */
	private int paddingFactor = 50;

	/**
	 * Interval of the scheduled refill, which also replaces IDs older than this (checked at least once a second,
	 * whatever the demand); 0 refills on demand only and retires nothing. A bare number means seconds, as
	 * Baidu's scheduleInterval did.
	 */
	@DurationUnit(ChronoUnit.SECONDS)
	private Duration scheduleInterval = Duration.ofSeconds(1);

	/**
	 * How far ahead of the clock the filler may borrow time when demand outruns 2^seqBits IDs per time unit;
	 * takers wait beyond it.
	 */
	private Duration maxAhead = Duration.ofSeconds(10);

	/**
	 * How long a caller waits for an ID when the ring is empty, with the wait take policy.
	 */
	private Duration takeTimeout = Duration.ofSeconds(5);

	/**
	 * What a caller does when the ring is empty: wait for the refill (up to the take timeout), or fail at
	 * once.
	 */
	private TakePolicy takePolicy = TakePolicy.WAIT;

	public int getBoostPower() {
		return this.boostPower;
	}

	public void setBoostPower(int boostPower) {
		this.boostPower = boostPower;
	}

	public int getPaddingFactor() {
		return this.paddingFactor;
	}

	public void setPaddingFactor(int paddingFactor) {
		this.paddingFactor = paddingFactor;
	}

	public Duration getScheduleInterval() {
		return this.scheduleInterval;
	}

	public void setScheduleInterval(Duration scheduleInterval) {
		this.scheduleInterval = scheduleInterval;
	}

	public Duration getMaxAhead() {
		return this.maxAhead;
	}

	public void setMaxAhead(Duration maxAhead) {
		this.maxAhead = maxAhead;
	}

	public Duration getTakeTimeout() {
		return this.takeTimeout;
	}

	public void setTakeTimeout(Duration takeTimeout) {
		this.takeTimeout = takeTimeout;
	}

	public TakePolicy getTakePolicy() {
		return this.takePolicy;
	}

	public void setTakePolicy(TakePolicy takePolicy) {
		this.takePolicy = takePolicy;
	}

	/**
	 * What a take does on an empty ring.
	 */
	public enum TakePolicy {

		/** Wait for the refill, up to the take timeout. */
		WAIT,

		/** Throw at once. */
		FAIL_FAST

	}

}
