package io.github.uidgen;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Objects;

/**
 * How the bits of an ID are shared out: {@code sign(1) | time | workerId | sequence}.
 *
 * <p>Time counts {@linkplain UidTimeUnit units} since the {@linkplain #getEpoch() epoch} (a UTC date, or an instant
 * for layouts that continue another system's IDs). The three fields may use fewer than 63 bits, which gives shorter
 * IDs (53 bits fit a JavaScript number). A layout is validated when it is built: every field needs at least one
 * bit, the epoch may not lie in the future and the range may not have run out already.
 *
 * <p>The defaults (milliseconds since 2025-01-01, 41 time bits, 10 worker bits, 12 sequence bits) last until
 * 2094-09-07, for 1,024 concurrent workers issuing up to 4,096 IDs per millisecond each.
 */
public final class UidLayout {

	/** Default time unit. */
	public static final UidTimeUnit DEFAULT_TIME_UNIT = UidTimeUnit.MILLISECONDS;

	/** Default epoch. */
	public static final LocalDate DEFAULT_EPOCH = LocalDate.of(2025, 1, 1);

	/** Default number of time bits: 2^41 ms is 69.7 years. */
	public static final int DEFAULT_TIME_BITS = 41;

	/** Default number of worker-ID bits: 1,024 workers. */
	public static final int DEFAULT_WORKER_BITS = 10;

	/** Default number of sequence bits: 4,096 IDs per unit per worker. */
	public static final int DEFAULT_SEQ_BITS = 12;

	private static final int MAX_BITS = 63;

	private final UidTimeUnit timeUnit;

	private final LocalDate epoch;

	private final int timeBits;

	private final int workerBits;

	private final int seqBits;

	private final long epochMillis;

	private final long unitMillis;

	private final long maxTime;

	private final long maxWorkerId;

	private final long maxSequence;

	private final int timeShift;

	private final Instant expiry;

	/**
	 * Builds a layout and validates it against the system clock.
	 * @param timeUnit unit of the time field
	 * @param epoch the date time counts from, UTC
	 * @param timeBits bits of the time field
	 * @param workerBits bits of the worker-ID field
	 * @param seqBits bits of the sequence field
	 * @throws InvalidLayoutException when the layout is refused
	 */
	public UidLayout(UidTimeUnit timeUnit, LocalDate epoch, int timeBits, int workerBits, int seqBits) {
		this(timeUnit, epoch, timeBits, workerBits, seqBits, System.currentTimeMillis());
	}

	/**
	 * Builds a layout and validates it as of the given time.
	 * @param timeUnit unit of the time field
	 * @param epoch the date time counts from, UTC
	 * @param timeBits bits of the time field
	 * @param workerBits bits of the worker-ID field
	 * @param seqBits bits of the sequence field
	 * @param nowMillis the time to validate against
	 * @throws InvalidLayoutException when the layout is refused
	 */
	public UidLayout(UidTimeUnit timeUnit, LocalDate epoch, int timeBits, int workerBits, int seqBits,
			long nowMillis) {
		this(timeUnit, (epoch != null) ? epoch.atStartOfDay(ZoneOffset.UTC).toInstant() : null, timeBits, workerBits,
				seqBits, nowMillis);
	}

	/**
	 * Builds a layout whose time counts from an instant rather than from midnight of a date, for IDs that continue
	 * another system's (Meituan Leaf counts milliseconds from 2010-11-04T01:42:54.657Z), and validates it as of the
	 * given time.
	 * @param timeUnit unit of the time field
	 * @param epoch the instant time counts from
	 * @param timeBits bits of the time field
	 * @param workerBits bits of the worker-ID field
	 * @param seqBits bits of the sequence field
	 * @param nowMillis the time to validate against
	 * @return the layout
	 * @throws InvalidLayoutException when the layout is refused
	 */
	public static UidLayout since(Instant epoch, UidTimeUnit timeUnit, int timeBits, int workerBits, int seqBits,
			long nowMillis) {
		return new UidLayout(timeUnit, epoch, timeBits, workerBits, seqBits, nowMillis);
	}

	private UidLayout(UidTimeUnit timeUnit, Instant epoch, int timeBits, int workerBits, int seqBits,
			long nowMillis) {
		if (timeUnit == null) {
			throw new InvalidLayoutException(List.of(LayoutField.TIME_UNIT), "null", "No time unit is set",
					"set it to seconds or milliseconds");
		}
		if (epoch == null) {
			throw new InvalidLayoutException(List.of(LayoutField.EPOCH), "null", "No epoch is set",
					"set a date in the past, such as " + DEFAULT_EPOCH);
		}
		requirePositive(LayoutField.TIME_BITS, "time", timeBits);
		requirePositive(LayoutField.WORKER_BITS, "worker", workerBits);
		requirePositive(LayoutField.SEQ_BITS, "sequence", seqBits);
		int total = timeBits + workerBits + seqBits;
		if (total > MAX_BITS) {
			throw new InvalidLayoutException(List.of(LayoutField.TIME_BITS, LayoutField.WORKER_BITS, LayoutField.SEQ_BITS),
					timeBits + " + " + workerBits + " + " + seqBits + " = " + total,
					"Time, worker and sequence bits do not fit the 63 bits of a positive long",
					"make them add up to 63 or less, for example " + DEFAULT_TIME_BITS + " + " + DEFAULT_WORKER_BITS
							+ " + " + DEFAULT_SEQ_BITS);
		}
		this.timeUnit = timeUnit;
		this.epochMillis = epoch.toEpochMilli();
		this.epoch = epoch.atZone(ZoneOffset.UTC).toLocalDate();
		this.timeBits = timeBits;
		this.workerBits = workerBits;
		this.seqBits = seqBits;
		this.unitMillis = timeUnit.toMillis();
		this.maxTime = ~(-1L << timeBits);
		this.maxWorkerId = ~(-1L << workerBits);
		this.maxSequence = ~(-1L << seqBits);
		this.timeShift = workerBits + seqBits;
		this.expiry = computeExpiry();
		if (this.epochMillis > nowMillis) {
			throw new InvalidLayoutException(List.of(LayoutField.EPOCH), epochText(),
					"The epoch lies in the future", "set a date no later than today (UTC), such as " + DEFAULT_EPOCH);
		}
		if (!this.expiry.isAfter(Instant.ofEpochMilli(nowMillis))) {
			throw new InvalidLayoutException(List.of(LayoutField.TIME_BITS, LayoutField.EPOCH),
					timeBits + " time bits of " + timeUnit.name().toLowerCase() + " from " + epochText(),
					"The layout ran out on " + this.expiry + " and would issue negative or repeated IDs",
					"give it more time bits or a later epoch");
		}
	}

	/**
	 * Returns the default layout: milliseconds since 2025-01-01, 41 + 10 + 12 bits.
	 * @return the default layout
	 */
	public static UidLayout defaults() {
		return new UidLayout(DEFAULT_TIME_UNIT, DEFAULT_EPOCH, DEFAULT_TIME_BITS, DEFAULT_WORKER_BITS,
				DEFAULT_SEQ_BITS);
	}

	private static void requirePositive(LayoutField field, String name, int bits) {
		if (bits < 1) {
			throw new InvalidLayoutException(List.of(field), String.valueOf(bits),
					"The " + name + " field needs at least one bit", "set a positive number of " + name + " bits");
		}
	}

	private Instant computeExpiry() {
		long units = this.maxTime + 1;
		try {
			// Exact arithmetic: an epoch before 1970 (a layout continuing above older IDs) must not overflow.
			return Instant.ofEpochMilli(Math.addExact(this.epochMillis, Math.multiplyExact(units, this.unitMillis)));
		}
		catch (ArithmeticException ex) {
			return Instant.MAX;
		}
	}

	/**
	 * Builds an ID from its parts; the caller keeps each part within range.
	 * @param time time units since the epoch
	 * @param workerId the worker ID
	 * @param sequence the sequence
	 * @return the ID
	 */
	public long compose(long time, long workerId, long sequence) {
		return (time << this.timeShift) | (workerId << this.seqBits) | sequence;
	}

	/**
	 * Splits an ID into its parts.
	 * @param uid the ID
	 * @return the parts
	 * @throws InvalidUidException when the ID is negative or uses bits beyond the layout
	 */
	public DecodedUid decode(long uid) {
		if (uid < 0) {
			throw new InvalidUidException("UID " + uid + " is negative; IDs of this layout are between 0 and "
					+ maxUid());
		}
		if (uid > maxUid()) {
			throw new InvalidUidException("UID " + uid + " has a time beyond this layout (" + totalBits()
					+ " bits, largest ID " + maxUid() + ")");
		}
		long time = uid >>> this.timeShift;
		long workerId = (uid >>> this.seqBits) & this.maxWorkerId;
		long sequence = uid & this.maxSequence;
		return new DecodedUid(uid, Instant.ofEpochMilli(startMillis(time)), workerId, sequence);
	}

	/**
	 * Returns the time unit a wall-clock time falls in; negative before the epoch.
	 * @param epochMillis milliseconds since 1970
	 * @return units since the layout's epoch
	 */
	public long toUnit(long epochMillis) {
		long sinceEpoch = epochMillis - this.epochMillis;
		// Milliseconds need no division; this sits on the default generator's hot path.
		return (this.unitMillis == 1) ? sinceEpoch : Math.floorDiv(sinceEpoch, this.unitMillis);
	}

	/**
	 * Returns when a time unit starts.
	 * @param time units since the layout's epoch
	 * @return milliseconds since 1970
	 */
	public long startMillis(long time) {
		return this.epochMillis + time * this.unitMillis;
	}

	/**
	 * Returns the largest ID of this layout.
	 * @return {@code 2^totalBits - 1}
	 */
	public long maxUid() {
		return ~(-1L << totalBits());
	}

	/**
	 * Returns the bits the three fields use together.
	 * @return at most 63
	 */
	public int totalBits() {
		return this.timeBits + this.workerBits + this.seqBits;
	}

	public UidTimeUnit getTimeUnit() {
		return this.timeUnit;
	}

	/**
	 * Returns the UTC date of the epoch; for a layout built {@link #since(Instant, UidTimeUnit, int, int, int, long)
	 * since} an instant other than midnight, the date that instant falls on (see {@link #getEpochInstant()}).
	 * @return the epoch's date
	 */
	public LocalDate getEpoch() {
		return this.epoch;
	}

	/**
	 * Returns the instant time counts from.
	 * @return the epoch, midnight UTC of {@link #getEpoch()} unless built from an instant
	 */
	public Instant getEpochInstant() {
		return Instant.ofEpochMilli(this.epochMillis);
	}

	/** The epoch as users wrote it: a date when it is midnight UTC, the instant otherwise. */
	private String epochText() {
		Instant instant = Instant.ofEpochMilli(this.epochMillis);
		return instant.equals(this.epoch.atStartOfDay(ZoneOffset.UTC).toInstant()) ? this.epoch.toString()
				: instant.toString();
	}

	public int getTimeBits() {
		return this.timeBits;
	}

	public int getWorkerBits() {
		return this.workerBits;
	}

	public int getSeqBits() {
		return this.seqBits;
	}

	/**
	 * Returns the largest time value the layout holds.
	 * @return {@code 2^timeBits - 1}
	 */
	public long getMaxTime() {
		return this.maxTime;
	}

	/**
	 * Returns the largest worker ID the layout holds.
	 * @return {@code 2^workerBits - 1}
	 */
	public long getMaxWorkerId() {
		return this.maxWorkerId;
	}

	/**
	 * Returns the largest sequence the layout holds.
	 * @return {@code 2^seqBits - 1}
	 */
	public long getMaxSequence() {
		return this.maxSequence;
	}

	/**
	 * Returns the first instant this layout cannot encode.
	 * @return the expiry, {@link Instant#MAX} when it lies beyond what a {@code long} of milliseconds holds
	 */
	public Instant getExpiry() {
		return this.expiry;
	}

	@Override
	public boolean equals(Object other) {
		if (this == other) {
			return true;
		}
		if (!(other instanceof UidLayout that)) {
			return false;
		}
		return this.timeUnit == that.timeUnit && this.epochMillis == that.epochMillis && this.timeBits == that.timeBits
				&& this.workerBits == that.workerBits && this.seqBits == that.seqBits;
	}

	@Override
	public int hashCode() {
		return Objects.hash(this.timeUnit, this.epochMillis, this.timeBits, this.workerBits, this.seqBits);
	}

	@Override
	public String toString() {
		return "UidLayout[" + this.timeUnit.name().toLowerCase() + " since " + epochText() + ", time " + this.timeBits
				+ " bits, worker " + this.workerBits + " bits, sequence " + this.seqBits + " bits, expires "
				+ this.expiry + "]";
	}

}
