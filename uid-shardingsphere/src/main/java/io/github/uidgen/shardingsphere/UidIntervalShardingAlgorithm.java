package io.github.uidgen.shardingsphere;

import java.time.Instant;
import java.util.Collection;
import java.util.LinkedHashSet;
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

	private final BoundLayout layout = new BoundLayout(TYPE);

	private TimeIntervals intervals;

	@Override
	public void init(Properties props) {
		this.intervals = new TimeIntervals(new AlgorithmProperties(this, props, Set.of(DATETIME_PATTERN,
				DATETIME_LOWER, DATETIME_UPPER, SHARDING_SUFFIX_PATTERN, DATETIME_INTERVAL_UNIT,
				DATETIME_INTERVAL_AMOUNT, ZONE_ID)));
	}

	@Override
	public String doSharding(Collection<String> availableTargetNames, PreciseShardingValue<Comparable<?>> value) {
		UidLayout layout = this.layout.get();
		long id = UidIds.toLong(this, value.getValue());
		long millis = UidIds.decode(this, layout, id).timestamp().toEpochMilli();
		if (millis < this.intervals.startMillis() || millis >= this.intervals.endMillis()) {
			throw new AlgorithmExecuteException(this, "%s", "ID " + id + " was issued at " + Instant.ofEpochMilli(millis)
					+ " by the application's layout, outside the intervals from " + startInstant() + " to "
					+ endInstant() + " (datetime-lower to datetime-upper), so no target holds it. If the ID is of "
					+ "another layout (" + layout + " is the application's), it cannot be routed by its time; "
					+ "otherwise widen datetime-lower or datetime-upper and add the tables");
		}
		String suffix = this.intervals.suffix(this.intervals.indexOf(millis));
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
		UidLayout layout = this.layout.get();
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
		if (highMillis < this.intervals.startMillis() || lowMillis >= this.intervals.endMillis()) {
			throw noTarget(range, "holds IDs issued from " + Instant.ofEpochMilli(lowMillis) + " to "
					+ Instant.ofEpochMilli(highMillis) + ", all outside the intervals from " + startInstant() + " to "
					+ endInstant());
		}
		Collection<String> targets = new LinkedHashSet<>();
		int last = this.intervals.indexOf(highMillis);
		for (int i = this.intervals.indexOf(lowMillis); i <= last; i++) {
			for (String target : availableTargetNames) {
				if (target.endsWith(this.intervals.suffix(i))) {
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

	private Instant startInstant() {
		return Instant.ofEpochMilli(this.intervals.startMillis());
	}

	private Instant endInstant() {
		return Instant.ofEpochMilli(this.intervals.endMillis());
	}

	@Override
	public void bind(UidSource source, String name) {
		this.layout.bind(source, name,
				(layout) -> this.intervals.checkSuffixesOver(layout, "'" + name + "' (type " + TYPE + ")"));
	}

	@Override
	public void unbind(UidSource source) {
		this.layout.unbind(source);
	}

	@Override
	public String getType() {
		return TYPE;
	}

}
