package io.github.uidgen.autoconfigure;

import java.time.Duration;

import org.springframework.boot.context.properties.NestedConfigurationProperty;

/**
 * Settings of the segment generator (uid.generator=segment), under {@code uid.segment.*}.
 */
public class UidSegmentProperties {

	/**
	 * Whether to offer segment numbers (the SegmentUidGenerators bean) beside a default or cached generator, as
	 * a Leaf server offers both modes. Always on with uid.generator=segment.
	 */
	private boolean enabled = false;

	/**
	 * Key (Leaf's biz_tag) whose sequence the auto-configured UidGenerator hands out; the SegmentUidGenerators
	 * bean gives generators of other keys on the same store.
	 */
	private String key = "default";

	/**
	 * Where segments are claimed: db (a table in the application's DataSource), redis (the application's
	 * Redis) or leaf (Meituan Leaf's leaf_alloc table, shared with running Leaf servers).
	 */
	private Store store = Store.DB;

	/**
	 * Numbers per segment claimed at a time, and the smallest step the adaptive step shrinks back to. Larger
	 * means fewer round trips to the store and larger gaps when an instance stops.
	 */
	private long step = 1000;

	/**
	 * Largest step the adaptive step grows to when segments are used up faster than the target interval.
	 * Defaults to 1000000, or to the step when that is larger.
	 */
	private Long maxStep;

	/**
	 * How long a segment should last: when one is used up faster, the next claim takes twice the step (up to
	 * max-step); when one lasts more than twice as long, the step halves (down to step).
	 */
	private Duration targetInterval = Duration.ofMinutes(15);

	/**
	 * Percentage (0 to 99) of a segment used when the next one is claimed in the background. Lower means longer
	 * service through a store outage and a larger gap at a restart.
	 */
	private int prefetchThreshold = 80;

	/**
	 * How long getUID may wait for a new segment once the claimed numbers are used up before it fails; also
	 * the timeout of each claim in the database.
	 */
	private Duration waitTimeout = Duration.ofSeconds(5);

	/**
	 * How long the start keeps trying a db, redis or leaf store that cannot be reached for the first segment of
	 * uid.segment.key (down, restarting, or slow to take the first connection while many instances start at once),
	 * counted from the first try that failed, before it fails; each try is logged. 0 fails at the first such try. A
	 * store that answers with an error (a missing table, a key Leaf's table has no row for) fails the start at once,
	 * whatever this says. Applies to the UidGenerator bean of uid.generator=segment; keys asked for through the
	 * SegmentUidGenerators bean get the failure on the calling thread.
	 */
	private Duration storeWaitAtStart = Duration.ofSeconds(10);

	@NestedConfigurationProperty
	private final UidSegmentDbProperties db = new UidSegmentDbProperties();

	@NestedConfigurationProperty
	private final UidSegmentRedisProperties redis = new UidSegmentRedisProperties();

	@NestedConfigurationProperty
	private final UidSegmentLeafProperties leaf = new UidSegmentLeafProperties();

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public String getKey() {
		return this.key;
	}

	public void setKey(String key) {
		this.key = key;
	}

	public Store getStore() {
		return this.store;
	}

	public void setStore(Store store) {
		this.store = store;
	}

	public long getStep() {
		return this.step;
	}

	public void setStep(long step) {
		this.step = step;
	}

	public Long getMaxStep() {
		return this.maxStep;
	}

	public void setMaxStep(Long maxStep) {
		this.maxStep = maxStep;
	}

	public Duration getTargetInterval() {
		return this.targetInterval;
	}

	public void setTargetInterval(Duration targetInterval) {
		this.targetInterval = targetInterval;
	}

	public int getPrefetchThreshold() {
		return this.prefetchThreshold;
	}

	public void setPrefetchThreshold(int prefetchThreshold) {
		this.prefetchThreshold = prefetchThreshold;
	}

	public Duration getWaitTimeout() {
		return this.waitTimeout;
	}

	public void setWaitTimeout(Duration waitTimeout) {
		this.waitTimeout = waitTimeout;
	}

	public Duration getStoreWaitAtStart() {
		return this.storeWaitAtStart;
	}

	public void setStoreWaitAtStart(Duration storeWaitAtStart) {
		this.storeWaitAtStart = storeWaitAtStart;
	}

	public UidSegmentDbProperties getDb() {
		return this.db;
	}

	public UidSegmentRedisProperties getRedis() {
		return this.redis;
	}

	public UidSegmentLeafProperties getLeaf() {
		return this.leaf;
	}

	/**
	 * Where segments are claimed.
	 */
	public enum Store {

		/** A table of the application's DataSource (MySQL, MariaDB, PostgreSQL). */
		DB,

		/** The application's Redis. */
		REDIS,

		/** Meituan Leaf's leaf_alloc table in the application's DataSource, with Leaf's arithmetic. */
		LEAF

	}

}
