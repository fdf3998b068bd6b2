package io.github.uidgen.migration;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;

/**
 * The layout of an ID issued by Baidu's UidGenerator, to read the IDs a team has already stored.
 *
 * <p>Baidu's IDs count seconds since {@code epochStr} at midnight <em>in the JVM's time zone</em> (its default,
 * {@code 2016-05-20}, is hard-coded as midnight in UTC+8, 2016-05-19T16:00Z), and its bits always add up to 63.
 *
 * @param timeBits Baidu's {@code timeBits}
 * @param workerBits Baidu's {@code workerBits}
 * @param seqBits Baidu's {@code seqBits}
 * @param epoch the instant Baidu's seconds count from
 */
public record BaiduLayout(int timeBits, int workerBits, int seqBits, Instant epoch) {

	/** Baidu's default epoch: {@code 2016-05-20} at midnight in UTC+8 ({@code epochSeconds = 1463673600}). */
	public static final Instant DEFAULT_EPOCH = Instant.ofEpochSecond(1_463_673_600L);

	/**
	 * Checks the bits as Baidu's {@code BitsAllocator} does.
	 * @throws IllegalArgumentException when a field has no bits or the three do not add up to 63
	 */
	public BaiduLayout {
		if (timeBits < 1 || workerBits < 1 || seqBits < 1 || timeBits + workerBits + seqBits != 63) {
			throw new IllegalArgumentException("Baidu's layouts have 1 sign bit and time, worker and sequence bits "
					+ "adding up to 63, but these are " + timeBits + " + " + workerBits + " + " + seqBits);
		}
		if (epoch == null) {
			throw new IllegalArgumentException("Baidu's layout needs its epoch");
		}
	}

	/**
	 * Returns Baidu's defaults: 28 time bits, 22 worker bits, 13 sequence bits, seconds since 2016-05-20 (UTC+8).
	 * This layout ran out on 2024-11-20.
	 * @return the default layout
	 */
	public static BaiduLayout defaults() {
		return new BaiduLayout(28, 22, 13, DEFAULT_EPOCH);
	}

	/**
	 * Returns a layout configured as Baidu's {@code DefaultUidGenerator} bean properties were.
	 * @param timeBits {@code timeBits}
	 * @param workerBits {@code workerBits}
	 * @param seqBits {@code seqBits}
	 * @param epochStr {@code epochStr}, {@code yyyy-MM-dd}
	 * @param zone the time zone of the JVMs that ran it (Baidu parsed {@code epochStr} in the default zone)
	 * @return the layout
	 */
	public static BaiduLayout of(int timeBits, int workerBits, int seqBits, String epochStr, ZoneId zone) {
		return new BaiduLayout(timeBits, workerBits, seqBits, LocalDate.parse(epochStr).atStartOfDay(zone).toInstant());
	}

	/**
	 * Builds an ID as Baidu's {@code BitsAllocator.allocate} did.
	 * @param deltaSeconds seconds since the epoch
	 * @param workerId the worker ID
	 * @param sequence the sequence
	 * @return the ID
	 */
	public long compose(long deltaSeconds, long workerId, long sequence) {
		return (deltaSeconds << (this.workerBits + this.seqBits)) | (workerId << this.seqBits) | sequence;
	}

	/**
	 * Returns the second an ID was issued in, as Baidu's {@code parseUID} computed it.
	 * @param uid an ID of this layout
	 * @return the start of its second
	 */
	public Instant timestamp(long uid) {
		return this.epoch.plusSeconds(uid >>> (this.workerBits + this.seqBits));
	}

	/**
	 * Returns the worker ID an ID carries.
	 * @param uid an ID of this layout
	 * @return its worker ID
	 */
	public long workerId(long uid) {
		return (uid >>> this.seqBits) & ~(-1L << this.workerBits);
	}

	/**
	 * Returns the first instant this layout cannot encode.
	 * @return the epoch plus 2^timeBits seconds
	 */
	public Instant expiry() {
		return this.epoch.plusSeconds(1L << this.timeBits);
	}

}
