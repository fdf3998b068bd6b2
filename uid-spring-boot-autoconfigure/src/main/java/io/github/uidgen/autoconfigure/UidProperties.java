package io.github.uidgen.autoconfigure;

import java.time.Duration;
import java.time.LocalDate;

import io.github.uidgen.UidTimeUnit;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.NestedConfigurationProperty;
import org.springframework.format.annotation.DateTimeFormat;

/**
 * Configuration of the auto-configured {@link io.github.uidgen.UidGenerator}, under {@code uid.*}; each group of
 * properties ({@code uid.worker.*}, {@code uid.segment.*}, …) is a type of its own.
 */
@ConfigurationProperties(UidProperties.PREFIX)
public class UidProperties {

	/** The prefix of every property here. */
	public static final String PREFIX = "uid";

	/**
	 * Whether to auto-configure a UidGenerator.
	 */
	private boolean enabled = true;

	/**
	 * Which generator to use: default computes each ID on the call, cached hands IDs out of a ring buffer that a
	 * background thread fills ahead of demand, segment hands out dense numbers per key from ranges claimed from a
	 * database or Redis (uid.segment.*; no worker ID, no time in the ID).
	 */
	private Generator generator = Generator.DEFAULT;

	/**
	 * A ready-made layout instead of time-unit, epoch and the bits: leaf is Meituan Leaf's (41 bits of milliseconds
	 * since 2010-11-04T01:42:54.657Z, 10 worker bits, 12 sequence bits), for continuing a Leaf deployment.
	 */
	private LayoutPreset layoutPreset;

	/**
	 * Unit the time part of an ID counts in.
	 */
	private UidTimeUnit timeUnit = UidTimeUnit.MILLISECONDS;

	/**
	 * Date (UTC) the time part of an ID counts from. It may not lie in the future; never change it for a
	 * running system, or new IDs may repeat old ones.
	 */
	@DateTimeFormat(iso = DateTimeFormat.ISO.DATE)
	private LocalDate epoch = LocalDate.of(2025, 1, 1);

	/**
	 * Number of bits of the time part. With the epoch and the time unit it decides when the layout runs out;
	 * 41 bits of milliseconds last 69 years.
	 */
	private int timeBits = 41;

	/**
	 * Number of bits of the worker ID: 2^workerBits instances can issue IDs at the same time. With
	 * uid.datacenter-bits, the data-center ID takes the top bits of these.
	 */
	private int workerBits = 10;

	/**
	 * Number of the worker bits that name a data center, so data centers whose own worker-ID stores hand out the
	 * same worker IDs never issue the same ID; 2^(workerBits - datacenterBits) instances per data center. Choose it
	 * once, the same in every data center; 0 (a single data center) leaves the IDs as they are without it.
	 */
	private int datacenterBits = 0;

	/**
	 * ID of this instance's data center, from 0 to 2^datacenterBits - 1: different in each data center, the same
	 * for every instance in one, whose worker IDs come from that data center's own store. Required once
	 * uid.datacenter-bits is above 0, so a data center that forgets it does not silently issue as data center 0.
	 */
	private Long datacenterId;

	/**
	 * Number of bits of the sequence: each worker issues up to 2^seqBits IDs per time unit. Time, worker and
	 * sequence bits together may use at most 63 bits.
	 */
	private int seqBits = 12;

	/**
	 * How far back the clock may step while the default generator carries on from the last time unit; a larger
	 * step fails ID issue until the clock catches up. The cached generator is not affected by steps back.
	 */
	private Duration clockBackwardsTolerance = Duration.ofSeconds(1);

	/**
	 * Whether the default generator, when the clock steps back further than the tolerance, goes on issuing as another
	 * worker ID whose high-water mark lies behind the clock (db, redis and zookeeper assigners), keeping the first one
	 * until the clock has passed its mark. Off, or when no such worker ID is free, ID issue fails until the clock
	 * catches up.
	 */
	private boolean clockBackwardsSwitchWorker = true;

	@NestedConfigurationProperty
	private final UidMarkProperties mark = new UidMarkProperties();

	@NestedConfigurationProperty
	private final UidCachedProperties cached = new UidCachedProperties();

	@NestedConfigurationProperty
	private final UidWorkerProperties worker = new UidWorkerProperties();

	@NestedConfigurationProperty
	private final UidHealthProperties health = new UidHealthProperties();

	@NestedConfigurationProperty
	private final UidSegmentProperties segment = new UidSegmentProperties();

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public Generator getGenerator() {
		return this.generator;
	}

	public void setGenerator(Generator generator) {
		this.generator = generator;
	}

	public LayoutPreset getLayoutPreset() {
		return this.layoutPreset;
	}

	public void setLayoutPreset(LayoutPreset layoutPreset) {
		this.layoutPreset = layoutPreset;
	}

	public UidTimeUnit getTimeUnit() {
		return this.timeUnit;
	}

	public void setTimeUnit(UidTimeUnit timeUnit) {
		this.timeUnit = timeUnit;
	}

	public LocalDate getEpoch() {
		return this.epoch;
	}

	public void setEpoch(LocalDate epoch) {
		this.epoch = epoch;
	}

	public int getTimeBits() {
		return this.timeBits;
	}

	public void setTimeBits(int timeBits) {
		this.timeBits = timeBits;
	}

	public int getWorkerBits() {
		return this.workerBits;
	}

	public void setWorkerBits(int workerBits) {
		this.workerBits = workerBits;
	}

	public int getDatacenterBits() {
		return this.datacenterBits;
	}

	public void setDatacenterBits(int datacenterBits) {
		this.datacenterBits = datacenterBits;
	}

	public Long getDatacenterId() {
		return this.datacenterId;
	}

	public void setDatacenterId(Long datacenterId) {
		this.datacenterId = datacenterId;
	}

	public int getSeqBits() {
		return this.seqBits;
	}

	public void setSeqBits(int seqBits) {
		this.seqBits = seqBits;
	}

	public Duration getClockBackwardsTolerance() {
		return this.clockBackwardsTolerance;
	}

	public void setClockBackwardsTolerance(Duration clockBackwardsTolerance) {
		this.clockBackwardsTolerance = clockBackwardsTolerance;
	}

	public boolean isClockBackwardsSwitchWorker() {
		return this.clockBackwardsSwitchWorker;
	}

	public void setClockBackwardsSwitchWorker(boolean clockBackwardsSwitchWorker) {
		this.clockBackwardsSwitchWorker = clockBackwardsSwitchWorker;
	}

	public UidMarkProperties getMark() {
		return this.mark;
	}

	public UidCachedProperties getCached() {
		return this.cached;
	}

	public UidWorkerProperties getWorker() {
		return this.worker;
	}

	public UidHealthProperties getHealth() {
		return this.health;
	}

	public UidSegmentProperties getSegment() {
		return this.segment;
	}

	/**
	 * Ready-made layouts.
	 */
	public enum LayoutPreset {

		/** Meituan Leaf's Snowflake layout. */
		LEAF

	}

	/**
	 * The kinds of generator.
	 */
	public enum Generator {

		/** Computes each ID on the call. */
		DEFAULT,

		/** Hands IDs out of a ring buffer filled ahead of demand. */
		CACHED,

		/** Hands out dense numbers per key from segments claimed from a database or Redis. */
		SEGMENT

	}

}
