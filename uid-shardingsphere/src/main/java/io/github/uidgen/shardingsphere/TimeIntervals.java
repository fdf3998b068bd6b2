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
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import io.github.uidgen.UidLayout;

import static io.github.uidgen.shardingsphere.UidIntervalShardingAlgorithm.DATETIME_INTERVAL_AMOUNT;
import static io.github.uidgen.shardingsphere.UidIntervalShardingAlgorithm.DATETIME_INTERVAL_UNIT;
import static io.github.uidgen.shardingsphere.UidIntervalShardingAlgorithm.DATETIME_LOWER;
import static io.github.uidgen.shardingsphere.UidIntervalShardingAlgorithm.DATETIME_PATTERN;
import static io.github.uidgen.shardingsphere.UidIntervalShardingAlgorithm.DATETIME_UPPER;
import static io.github.uidgen.shardingsphere.UidIntervalShardingAlgorithm.DEFAULT_DATETIME_PATTERN;
import static io.github.uidgen.shardingsphere.UidIntervalShardingAlgorithm.SHARDING_SUFFIX_PATTERN;
import static io.github.uidgen.shardingsphere.UidIntervalShardingAlgorithm.ZONE_ID;

/**
 * The intervals of {@code UID_INTERVAL}, read from its properties: {@code datetime-interval-amount}
 * {@code datetime-interval-unit} each, from {@code datetime-lower} to {@code datetime-upper} in {@code zone-id}, and
 * the suffix of each one's target. Kept apart from the algorithm so that it only routes: this class knows the
 * calendar, and that no two intervals share a suffix.
 */
final class TimeIntervals {

	private static final Set<ChronoUnit> UNITS = Set.of(ChronoUnit.HOURS, ChronoUnit.DAYS, ChronoUnit.WEEKS,
			ChronoUnit.MONTHS, ChronoUnit.YEARS);

	/** More intervals than this cannot be checked at start, nor held as tables. */
	private static final int MAX_INTERVALS = 2_000_000;

	private final String suffixPattern;

	private final DateTimeFormatter suffixFormatter;

	private final ZoneId zone;

	private final ChronoUnit unit;

	private final int amount;

	private final ZonedDateTime lower;

	/** The start of each interval, in milliseconds since 1970, ascending. */
	private final long[] starts;

	private final String[] suffixes;

	/** The end of the last interval. */
	private final long endMillis;

	/**
	 * Reads and checks the properties of the intervals.
	 * @param properties the algorithm's properties
	 * @throws org.apache.shardingsphere.infra.algorithm.core.exception.AlgorithmInitializationException when one is
	 * missing or bad, or two intervals get the same suffix
	 */
	TimeIntervals(AlgorithmProperties properties) {
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

	/** The start of the first interval, in milliseconds since 1970. */
	long startMillis() {
		return this.starts[0];
	}

	/** The end of the last interval, in milliseconds since 1970. */
	long endMillis() {
		return this.endMillis;
	}

	/**
	 * Returns the interval a time falls in, clamped to the first and the last.
	 * @param millis milliseconds since 1970
	 * @return the interval's index
	 */
	int indexOf(long millis) {
		if (millis < this.starts[0]) {
			return 0;
		}
		int found = Arrays.binarySearch(this.starts, millis);
		return (found >= 0) ? found : -found - 2;
	}

	/**
	 * Returns the suffix of an interval's target.
	 * @param index the interval's index
	 * @return the suffix
	 */
	String suffix(int index) {
		return this.suffixes[index];
	}

	/**
	 * Refuses a suffix pattern that would give two intervals of a layout's whole time range the same suffix: such a
	 * table would mix the rows of both once datetime-upper is moved on.
	 * @param layout the layout of the bound generator
	 * @param algorithm the algorithm, for the message ({@code 'name' (type UID_INTERVAL)})
	 * @throws IllegalStateException when two intervals share a suffix, or there are too many to tell
	 */
	void checkSuffixesOver(UidLayout layout, String algorithm) {
		ZonedDateTime first = layout.getEpoch().atStartOfDay(ZoneOffset.UTC).withZoneSameInstant(this.zone);
		Instant expiry = layout.getExpiry();
		Instant lastYear = Instant.parse("9999-12-31T00:00:00Z");
		ZonedDateTime end = (expiry.isAfter(lastYear) ? lastYear : expiry).atZone(this.zone);
		ZonedDateTime start = this.lower;
		long steps = 0;
		while (start.isAfter(first)) {
			start = start.minus(this.amount, this.unit);
			steps++;
			if (steps > MAX_INTERVALS) {
				throw tooMany(layout, algorithm);
			}
		}
		Map<String, ZonedDateTime> seen = new HashMap<>();
		for (; start.isBefore(end); start = next(start)) {
			if (seen.size() == MAX_INTERVALS) {
				throw tooMany(layout, algorithm);
			}
			String suffix = this.suffixFormatter.format(start);
			ZonedDateTime other = seen.putIfAbsent(suffix, start);
			if (other != null) {
				throw new IllegalStateException("The ShardingSphere sharding algorithm " + algorithm
						+ " cannot hold the time range of the application's layout (" + layout + "): "
						+ sameSuffix(other, start, suffix) + ".");
			}
		}
	}

	private IllegalStateException tooMany(UidLayout layout, String algorithm) {
		return new IllegalStateException("The ShardingSphere sharding algorithm " + algorithm
				+ ": the application's layout (" + layout + ") spans more than " + MAX_INTERVALS + " intervals of "
				+ this.amount + " " + this.unit + ", too many to tell apart; set datetime-interval-unit or "
				+ "datetime-interval-amount to a longer interval.");
	}

}
