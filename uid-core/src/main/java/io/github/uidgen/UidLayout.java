package io.github.uidgen;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Objects;

/**
 * How the bits of an ID are shared out: {@code sign(1) | time | workerId | sequence}.
 *
 * <p>Time counts {@linkplain UidTimeUnit units} since the {@linkplain #getEpoch() epoch} (a UTC date, or an instant
 * for layouts that continue another system's IDs). The three fields may use fewer than 63 bits, which gives shorter
 * IDs (53 bits fit a JavaScript number). A layout is validated when it is built ({@link LayoutValidation}): every
 * field needs at least one bit, the epoch may not lie in the future and the range may not have run out already.
 *
 * <p>With {@linkplain #withDatacenterBits(int) data-center bits}, the top bits of the worker field name a data
 * center and the rest the worker ID a data center's own store hands out:
 * {@code sign(1) | time | datacenterId | workerId | sequence}. Two data centers whose stores hand out the same worker
 * IDs then still issue different IDs. The time and sequence keep their places, so an ID whose worker ID fits the
 * smaller worker part reads the same as before, as data center 0. Without data-center bits (the default) nothing
 * changes.
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

	private final UidTimeUnit timeUnit;

	private final LocalDate epoch;

	private final int timeBits;

	private final int workerBits;

	private final int seqBits;

	private final long epochMillis;

	private final long unitMillis;

	private final long maxTime;

	private final int datacenterBits;

	private final long maxDatacenterId;

	private final int datacenterShift;

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
		LayoutValidation.requireFields(timeUnit, epoch, timeBits, workerBits, seqBits);
		this.timeUnit = timeUnit;
		this.epochMillis = epoch.toEpochMilli();
		this.epoch = epoch.atZone(ZoneOffset.UTC).toLocalDate();
		this.timeBits = timeBits;
		this.workerBits = workerBits;
		this.seqBits = seqBits;
		this.unitMillis = timeUnit.toMillis();
		this.maxTime = ~(-1L << timeBits);
		this.datacenterBits = 0;
		this.maxDatacenterId = 0;
		this.datacenterShift = workerBits + seqBits;
		this.maxWorkerId = ~(-1L << workerBits);
		this.maxSequence = ~(-1L << seqBits);
		this.timeShift = workerBits + seqBits;
		this.expiry = computeExpiry();
		LayoutValidation.requireUsableAt(this, nowMillis);
	}

	/** A copy of {@code base} whose worker field starts with {@code datacenterBits} data-center bits. */
	private UidLayout(UidLayout base, int datacenterBits) {
		LayoutValidation.requireDatacenterBits(base.workerBits, datacenterBits);
		this.timeUnit = base.timeUnit;
		this.epoch = base.epoch;
		this.timeBits = base.timeBits;
		this.workerBits = base.workerBits;
		this.seqBits = base.seqBits;
		this.epochMillis = base.epochMillis;
		this.unitMillis = base.unitMillis;
		this.maxTime = base.maxTime;
		this.datacenterBits = datacenterBits;
		this.maxDatacenterId = ~(-1L << datacenterBits);
		this.datacenterShift = base.workerBits - datacenterBits + base.seqBits;
		this.maxWorkerId = ~(-1L << (base.workerBits - datacenterBits));
		this.maxSequence = base.maxSequence;
		this.timeShift = base.timeShift;
		this.expiry = base.expiry;
	}

	/**
	 * Returns this layout with the top {@code datacenterBits} of its worker bits naming a data center; the worker IDs
	 * a store hands out get the remaining worker bits. The time and sequence keep their bits and places.
	 * @param datacenterBits 0 (no data-center part) up to one less than the worker bits
	 * @return the layout with that data-center part
	 * @throws InvalidLayoutException when the bits are negative or leave no bit for worker IDs
	 */
	public UidLayout withDatacenterBits(int datacenterBits) {
		return (datacenterBits == this.datacenterBits) ? this : new UidLayout(this, datacenterBits);
	}

	/**
	 * Checks that a data-center ID fits this layout's data-center bits; without data-center bits only 0 does.
	 * @param datacenterId the data-center ID a generator is to write into its IDs
	 * @throws InvalidLayoutException naming the data-center ID and bits when it does not fit
	 */
	public void checkDatacenterId(long datacenterId) {
		LayoutValidation.requireDatacenterId(this, datacenterId);
	}

	/**
	 * Returns the default layout: milliseconds since 2025-01-01, 41 + 10 + 12 bits.
	 * @return the default layout
	 */
	public static UidLayout defaults() {
		return new UidLayout(DEFAULT_TIME_UNIT, DEFAULT_EPOCH, DEFAULT_TIME_BITS, DEFAULT_WORKER_BITS,
				DEFAULT_SEQ_BITS);
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
	 * Builds an ID from its parts; the caller keeps each part within range. With data-center bits, the worker value
	 * fills the whole worker field, data-center part included; {@link #compose(long, long, long, long)} takes them
	 * apart.
	 * @param time time units since the epoch
	 * @param workerId the worker ID
	 * @param sequence the sequence
	 * @return the ID
	 */
	public long compose(long time, long workerId, long sequence) {
		return (time << this.timeShift) | (workerId << this.seqBits) | sequence;
	}

	/**
	 * Builds an ID from its parts, the data-center ID included; the caller keeps each part within range.
	 * @param time time units since the epoch
	 * @param datacenterId the data-center ID, 0 for a layout without data-center bits
	 * @param workerId the worker ID within the data center
	 * @param sequence the sequence
	 * @return the ID
	 */
	public long compose(long time, long datacenterId, long workerId, long sequence) {
		return (time << this.timeShift) | (datacenterId << this.datacenterShift) | (workerId << this.seqBits)
				| sequence;
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
		Long datacenterId = (this.datacenterBits > 0) ? (uid >>> this.datacenterShift) & this.maxDatacenterId : null;
		long workerId = (uid >>> this.seqBits) & this.maxWorkerId;
		long sequence = uid & this.maxSequence;
		return new DecodedUid(uid, Instant.ofEpochMilli(startMillis(time)), datacenterId, workerId, sequence);
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

	public int getTimeBits() {
		return this.timeBits;
	}

	/**
	 * Returns the bits between time and sequence: the worker ID's, and the data-center part's when there is one.
	 * @return the worker bits, data-center bits included
	 */
	public int getWorkerBits() {
		return this.workerBits;
	}

	/**
	 * Returns how many of the worker bits name a data center.
	 * @return 0 when the layout has no data-center part
	 */
	public int getDatacenterBits() {
		return this.datacenterBits;
	}

	/**
	 * Returns the largest data-center ID the layout holds.
	 * @return {@code 2^datacenterBits - 1}, 0 without data-center bits
	 */
	public long getMaxDatacenterId() {
		return this.maxDatacenterId;
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
	 * Returns the largest worker ID the layout holds: the largest a worker-ID store may hand out, within a data center
	 * when the layout has data-center bits.
	 * @return {@code 2^(workerBits - datacenterBits) - 1}
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
				&& this.workerBits == that.workerBits && this.seqBits == that.seqBits
				&& this.datacenterBits == that.datacenterBits;
	}

	@Override
	public int hashCode() {
		int hash = Objects.hash(this.timeUnit, this.epochMillis, this.timeBits, this.workerBits, this.seqBits);
		return (this.datacenterBits == 0) ? hash : 31 * hash + this.datacenterBits;
	}

	@Override
	public String toString() {
		return "UidLayout[" + this.timeUnit.name().toLowerCase() + " since " + LayoutValidation.epochText(this)
				+ ", time " + this.timeBits + " bits, worker " + this.workerBits + " bits"
				+ ((this.datacenterBits > 0) ? " (data center " + this.datacenterBits + " of them)" : "")
				+ ", sequence " + this.seqBits + " bits, expires "
				+ this.expiry + "]";
	}

}
