package io.github.uidgen.migration;

import java.time.Instant;

import io.github.uidgen.UidLayout;
import io.github.uidgen.UidTimeUnit;

/**
 * The layout of Meituan Leaf's Snowflake IDs ({@code SnowflakeIDGenImpl}): 41 bits of milliseconds since
 * 2010-11-04T01:42:54.657Z (Twitter's epoch, {@code 1288834974657}), 10 worker bits, 12 sequence bits. uid issues
 * in it when it continues a Leaf deployment on Leaf's ZooKeeper worker nodes, so its IDs and those of the Leaf
 * servers still running share one space; it runs out on 2080-07-10.
 */
public final class LeafLayout {

	/** Leaf's {@code twepoch}. */
	public static final Instant EPOCH = Instant.ofEpochMilli(1_288_834_974_657L);

	/** Leaf's time bits. */
	public static final int TIME_BITS = 41;

	/** Leaf's {@code workerIdBits}. */
	public static final int WORKER_BITS = 10;

	/** Leaf's {@code sequenceBits}. */
	public static final int SEQ_BITS = 12;

	private LeafLayout() {
	}

	/**
	 * Returns Leaf's layout, validated as of now.
	 * @return the layout
	 */
	public static UidLayout layout() {
		return layout(System.currentTimeMillis());
	}

	/**
	 * Returns Leaf's layout, validated as of the given time.
	 * @param nowMillis the time to check the expiry against
	 * @return the layout
	 */
	public static UidLayout layout(long nowMillis) {
		return UidLayout.since(EPOCH, UidTimeUnit.MILLISECONDS, TIME_BITS, WORKER_BITS, SEQ_BITS, nowMillis);
	}

}
