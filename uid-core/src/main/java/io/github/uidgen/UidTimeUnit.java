package io.github.uidgen;

/**
 * The unit the time part of an ID counts in.
 */
public enum UidTimeUnit {

	/** Seconds, as Baidu's UidGenerator counts. */
	SECONDS(1000),

	/** Milliseconds, as Twitter's Snowflake counts. */
	MILLISECONDS(1);

	private final long millis;

	UidTimeUnit(long millis) {
		this.millis = millis;
	}

	/**
	 * Returns the length of one unit.
	 * @return milliseconds per unit
	 */
	public long toMillis() {
		return this.millis;
	}

}
