package io.github.uidgen.shardingsphere;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.temporal.ChronoField;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

import com.google.common.collect.BoundType;
import com.google.common.collect.Range;
import io.github.uidgen.UidLayout;
import org.apache.shardingsphere.infra.algorithm.core.exception.AlgorithmExecuteException;
import org.apache.shardingsphere.sharding.api.sharding.standard.PreciseShardingValue;
import org.apache.shardingsphere.sharding.api.sharding.standard.RangeShardingValue;
import org.apache.shardingsphere.sharding.api.sharding.standard.StandardShardingAlgorithm;

/**
 * The standard sharding algorithm of type {@code UID_INTERVAL}: routes rows keyed by uid IDs to tables (or
 * databases) by the time inside the ID, in intervals of {@code datetime-interval-amount}
 * {@code datetime-interval-unit} from {@code datetime-lower} to {@code datetime-upper}, each target named with the
 * interval's start formatted by {@code sharding-suffix-pattern}, as ShardingSphere's {@code INTERVAL} and CosId's
 * interval algorithm name them. An exact ID goes to one target; {@code BETWEEN a AND b}, {@code <} and {@code >}
 * go only to the targets of the intervals the IDs' times fall in.
 *
 * <pre>
 * shardingAlgorithms:
 *   order-month:
 *     type: UID_INTERVAL
 *     props:
 *       datetime-lower: 2026-01-01 00:00:00
 *       datetime-upper: 2026-12-01 00:00:00
 *       sharding-suffix-pattern: yyyyMM
 *       datetime-interval-unit: MONTHS
 * </pre>
 *
 * <p>The time is decoded with the layout of the application's generator. An ID that does not fit the layout, or
 * whose time lies outside the configured intervals (an ID of another layout, most likely), is refused with the
 * ID, its time and the fix: never routed to some table. A suffix pattern that gives two intervals of the layout's
 * whole time range the same suffix ({@code MM} alone, or {@code yy} beyond a century) is refused when the
 * application starts. Intervals are cut in {@code zone-id}, UTC by default, so every instance routes alike
 * whatever its system time zone.
 */
public final class UidIntervalShardingAlgorithm implements StandardShardingAlgorithm<Comparable<?>>, BindableAlgorithm {

	/** The type to write in the YAML. */
	public static final String TYPE = "UID_INTERVAL";

	/** The pattern of {@code datetime-lower} and {@code datetime-upper}, {@value #DEFAULT_DATETIME_PATTERN} by default. */
	public static final String DATETIME_PATTERN = "datetime-pattern";

	/** The start of the first interval, required. */
	public static final String DATETIME_LOWER = "datetime-lower";

	/** The start of the last interval, required. */
	public static final String DATETIME_UPPER = "datetime-upper";

	/** The pattern that formats an interval's start into its target's suffix, required. */
	public static final String SHARDING_SUFFIX_PATTERN = "sharding-suffix-pattern";

	/** The unit of an interval: {@code HOURS}, {@code DAYS} (the default), {@code WEEKS}, {@code MONTHS}, {@code YEARS}. */
	public static final String DATETIME_INTERVAL_UNIT = "datetime-interval-unit";

	/** The units in one interval, 1 by default. */
	public static final String DATETIME_INTERVAL_AMOUNT = "datetime-interval-amount";

	/** The time zone intervals are cut in, {@code UTC} by default. */
	public static final String ZONE_ID = "zone-id";

	/** The default of {@link #DATETIME_PATTERN}. */
	public static final String DEFAULT_DATETIME_PATTERN = "yyyy-MM-dd HH:mm:ss";

	private static final Set<ChronoUnit> UNITS = Set.of(ChronoUnit.HOURS, ChronoUnit.DAYS, ChronoUnit.WEEKS,
			ChronoUnit.MONTHS, ChronoUnit.YEARS);

	/** More intervals than this cannot be checked at start, nor held as tables. */
	private static final int MAX_INTERVALS = 2_000_000;

	private final BindingSlot slot = new BindingSlot(TYPE);

	private String suffixPattern;

	private DateTimeFormatter suffixFormatter;

	private ZoneId zone;

	private ChronoUnit unit;

	private int amount;

	private ZonedDateTime lower;

	/** The start of each interval, in milliseconds since 1970, ascending. */
	private long[] starts;

	/** The end of the last interval. */
	private long endMillis;

	private String[] suffixes;

	private volatile UidLayout layout;

	@Override
	public void init(Properties props) {
		AlgorithmProperties properties = new AlgorithmProperties(this, props, Set.of(DATETIME_PATTERN,
				DATETIME_LOWER, DATETIME_UPPER, SHARDING_SUFFIX_PATTERN, DATETIME_INTERVAL_UNIT,
				DATETIME_INTERVAL_AMOUNT, ZONE_ID));
		String datetimePattern = properties.optional(DATETIME_PATTERN, DEFAULT_DATETIME_PATTERN);
		DateTimeFormatter datetime = pattern(properties, DATETIME_PATTERN, datetimePattern, true);
		this.suffixPattern = properties.required(SHARDING_SUFFIX_PATTERN, "yyyyMM");
		this.suffixFormatter = pattern(properties, SHARDING_SUFFIX_PATTERN, this.suffixPattern, false);
		String zoneId = properties.optional(ZONE_ID, "UTC");
		try {
			this.zone = ZoneId.of(zoneId);
		}
		catch (DateTimeException ex) {
			throw properties.fail("property 'zone-id' = '" + zoneId + "' is not a time zone (" + ex.getMessage()
					+ "); use an ID such as UTC or Asia/Shanghai");
		}
		String unitName = properties.optional(DATETIME_INTERVAL_UNIT, "DAYS");
		this.unit = UNITS.stream().filter((candidate) -> candidate.name().equalsIgnoreCase(unitName)).findFirst()
			.orElseThrow(() -> properties.fail("property 'datetime-interval-unit' = '" + unitName + "' is not a "
					+ "unit of tables; use HOURS, DAYS, WEEKS, MONTHS or YEARS"));
		this.amount = properties.positiveInt(DATETIME_INTERVAL_AMOUNT, 1, false);
		this.lower = datetime(properties, DATETIME_LOWER, datetimePattern, datetime);
		ZonedDateTime upper = datetime(properties, DATETIME_UPPER, datetimePattern, datetime);
		if (upper.isBefore(this.lower)) {
			throw properties.fail("property 'datetime-upper' = '" + properties.required(DATETIME_UPPER, "")
					+ "' lies before datetime-lower = '" + properties.required(DATETIME_LOWER, "")
					+ "'; set it to the start of the last interval, at or after datetime-lower");
		}
		List<ZonedDateTime> intervals = new ArrayList<>();
		for (ZonedDateTime start = this.lower; !start.isAfter(upper); start = next(start)) {
			if (intervals.size() == MAX_INTERVALS) {
				throw properties.fail("datetime-lower to datetime-upper holds more than " + MAX_INTERVALS
						+ " intervals of " + this.amount + " " + this.unit + "; use a longer interval or a shorter range");
			}
			intervals.add(start);
		}
		this.starts = new long[intervals.size()];
		this.suffixes = new String[intervals.size()];
		Map<String, ZonedDateTime> seen = new HashMap<>();
		for (int i = 0; i < intervals.size(); i++) {
			this.starts[i] = intervals.get(i).toInstant().toEpochMilli();
			this.suffixes[i] = this.suffixFormatter.format(intervals.get(i));
			ZonedDateTime other = seen.putIfAbsent(this.suffixes[i], intervals.get(i));
			if (other != null) {
				throw properties.fail(sameSuffix(other, intervals.get(i), this.suffixes[i]));
			}
		}
		this.endMillis = next(intervals.get(intervals.size() - 1)).toInstant().toEpochMilli();
	}

	private static DateTimeFormatter pattern(AlgorithmProperties properties, String key, String pattern,
			boolean parsing) {
		try {
			DateTimeFormatterBuilder builder = new DateTimeFormatterBuilder().appendPattern(pattern);
			if (parsing) {
				builder.parseDefaulting(ChronoField.MONTH_OF_YEAR, 1)
					.parseDefaulting(ChronoField.DAY_OF_MONTH, 1)
					.parseDefaulting(ChronoField.HOUR_OF_DAY, 0)
					.parseDefaulting(ChronoField.MINUTE_OF_HOUR, 0)
					.parseDefaulting(ChronoField.SECOND_OF_MINUTE, 0);
			}
			return builder.toFormatter(Locale.ROOT);
		}
		catch (IllegalArgumentException ex) {
			throw properties.fail("property '" + key + "' = '" + pattern + "' is not a date-time pattern ("
					+ ex.getMessage() + "); use the letters of java.time's DateTimeFormatter, such as "
					+ (parsing ? DEFAULT_DATETIME_PATTERN : "yyyyMM"));
		}
	}

	private ZonedDateTime datetime(AlgorithmProperties properties, String key, String pattern,
			DateTimeFormatter formatter) {
		String value = properties.required(key, "2026-01-01 00:00:00");
		try {
			return LocalDateTime.parse(value, formatter).atZone(this.zone);
		}
		catch (DateTimeException ex) {
			throw properties.fail("property '" + key + "' = '" + value + "' does not match datetime-pattern '"
					+ pattern + "'; write it in that pattern, or set datetime-pattern to the one it is written in");
		}
	}

	private ZonedDateTime next(ZonedDateTime start) {
		return start.plus(this.amount, this.unit);
	}

	private String sameSuffix(ZonedDateTime first, ZonedDateTime second, String suffix) {
		return "property 'sharding-suffix-pattern' = '" + this.suffixPattern + "' gives the intervals starting "
				+ first.toLocalDateTime() + " and " + second.toLocalDateTime() + " the same suffix '" + suffix
				+ "', so their rows would share a table; use a pattern that tells every interval apart, with the "
				+ "full year (yyyy) and the fields of the unit, such as yyyyMM for MONTHS or yyyyMMdd for DAYS";
	}

	@Override
	public String doSharding(Collection<String> availableTargetNames, PreciseShardingValue<Comparable<?>> value) {
		UidLayout layout = layout();
		long id = UidIds.toLong(this, value.getValue());
		long millis = UidIds.decode(this, layout, id).timestamp().toEpochMilli();
		if (millis < this.starts[0] || millis >= this.endMillis) {
			throw new AlgorithmExecuteException(this, "%s", "ID " + id + " was issued at " + Instant.ofEpochMilli(millis)
					+ " by the application's layout, outside the intervals from " + Instant.ofEpochMilli(this.starts[0])
					+ " to " + Instant.ofEpochMilli(this.endMillis) + " (datetime-lower to datetime-upper), so no "
					+ "target holds it. If the ID is of another layout (" + layout + " is the application's), it "
					+ "cannot be routed by its time; otherwise widen datetime-lower or datetime-upper and add the "
					+ "tables");
		}
		String suffix = this.suffixes[indexOf(millis)];
		for (String target : availableTargetNames) {
			if (target.endsWith(suffix)) {
				return target;
			}
		}
		throw new AlgorithmExecuteException(this, "%s", "ID " + id + " was issued at " + Instant.ofEpochMilli(millis)
				+ ", in the interval of suffix '" + suffix + "', and none of " + availableTargetNames + " ends with it; "
				+ "add the table (or the data node) of that interval");
	}

	@Override
	public Collection<String> doSharding(Collection<String> availableTargetNames,
			RangeShardingValue<Comparable<?>> value) {
		UidLayout layout = layout();
		Range<Comparable<?>> range = value.getValueRange();
		long low = 0;
		long high = layout.maxUid();
		if (range.hasLowerBound()) {
			long bound = UidIds.toLong(this, range.lowerEndpoint());
			low = Math.max(low, (range.lowerBoundType() == BoundType.OPEN) ? saturatedIncrement(bound) : bound);
		}
		if (range.hasUpperBound()) {
			long bound = UidIds.toLong(this, range.upperEndpoint());
			high = Math.min(high, (range.upperBoundType() == BoundType.OPEN) ? bound - 1 : bound);
		}
		if (low > high) {
			throw noTarget(range, "holds no ID of the application's layout");
		}
		long lowMillis = layout.decode(low).timestamp().toEpochMilli();
		long highMillis = layout.decode(high).timestamp().toEpochMilli();
		if (highMillis < this.starts[0] || lowMillis >= this.endMillis) {
			throw noTarget(range, "holds IDs issued from " + Instant.ofEpochMilli(lowMillis) + " to "
					+ Instant.ofEpochMilli(highMillis) + ", all outside the intervals from "
					+ Instant.ofEpochMilli(this.starts[0]) + " to " + Instant.ofEpochMilli(this.endMillis));
		}
		Collection<String> targets = new LinkedHashSet<>();
		int from = (lowMillis < this.starts[0]) ? 0 : indexOf(lowMillis);
		int to = (highMillis >= this.endMillis) ? this.starts.length - 1 : indexOf(highMillis);
		for (int i = from; i <= to; i++) {
			for (String target : availableTargetNames) {
				if (target.endsWith(this.suffixes[i])) {
					targets.add(target);
				}
			}
		}
		return targets;
	}

	/**
	 * ShardingSphere sends a statement whose table algorithm found no target to the logic table itself, which does
	 * not exist: a clear refusal instead.
	 */
	private AlgorithmExecuteException noTarget(Range<Comparable<?>> range, String why) {
		return new AlgorithmExecuteException(this, "%s", "the range of IDs " + range + " " + why + ", so no target "
				+ "can hold a row of it; query a range of this application's IDs within datetime-lower and "
				+ "datetime-upper, or widen them and add the tables");
	}

	private static long saturatedIncrement(long bound) {
		return (bound == Long.MAX_VALUE) ? bound : bound + 1;
	}

	/** The interval a time within the intervals falls in. */
	private int indexOf(long millis) {
		int found = Arrays.binarySearch(this.starts, millis);
		return (found >= 0) ? found : -found - 2;
	}

	private UidLayout layout() {
		this.slot.require("route IDs", "");
		UidLayout current = this.layout;
		if (current == null) {
			throw new IllegalStateException("The ShardingSphere sharding algorithm " + this.slot.name()
					+ " is being bound; route after the application has started");
		}
		return current;
	}

	@Override
	public void bind(UidSource source, String name) {
		UidLayout bound = UidIds.layoutOf(source, name, TYPE);
		checkSuffixesOver(bound, name);
		this.slot.bind(source, name);
		this.layout = bound;
	}

	/**
	 * Refuses a suffix pattern that would give two intervals of the layout's time range the same suffix: such a
	 * table would mix the rows of both once datetime-upper is moved on.
	 */
	private void checkSuffixesOver(UidLayout bound, String name) {
		ZonedDateTime first = bound.getEpoch().atStartOfDay(ZoneOffset.UTC).withZoneSameInstant(this.zone);
		Instant expiry = bound.getExpiry();
		Instant lastYear = Instant.parse("9999-12-31T00:00:00Z");
		ZonedDateTime end = (expiry.isAfter(lastYear) ? lastYear : expiry).atZone(this.zone);
		ZonedDateTime start = this.lower;
		long steps = 0;
		while (start.isAfter(first)) {
			start = start.minus(this.amount, this.unit);
			steps++;
			if (steps > MAX_INTERVALS) {
				throw tooManyIntervals(bound, name);
			}
		}
		Map<String, ZonedDateTime> seen = new HashMap<>();
		for (; start.isBefore(end); start = next(start)) {
			if (seen.size() == MAX_INTERVALS) {
				throw tooManyIntervals(bound, name);
			}
			String suffix = this.suffixFormatter.format(start);
			ZonedDateTime other = seen.putIfAbsent(suffix, start);
			if (other != null) {
				throw new IllegalStateException("The ShardingSphere sharding algorithm '" + name + "' (type " + TYPE
						+ ") cannot hold the time range of the application's layout (" + bound + "): "
						+ sameSuffix(other, start, suffix) + ".");
			}
		}
	}

	private IllegalStateException tooManyIntervals(UidLayout bound, String name) {
		return new IllegalStateException("The ShardingSphere sharding algorithm '" + name + "' (type " + TYPE
				+ "): the application's layout (" + bound + ") spans more than " + MAX_INTERVALS + " intervals of "
				+ this.amount + " " + this.unit + ", too many to tell apart; set datetime-interval-unit or "
				+ "datetime-interval-amount to a longer interval.");
	}

	@Override
	public void unbind(UidSource source) {
		this.slot.unbind(source);
	}

	@Override
	public String getType() {
		return TYPE;
	}

}
