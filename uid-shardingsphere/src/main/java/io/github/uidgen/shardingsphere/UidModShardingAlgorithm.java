package io.github.uidgen.shardingsphere;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;

import org.apache.shardingsphere.infra.algorithm.core.exception.AlgorithmExecuteException;
import org.apache.shardingsphere.sharding.api.sharding.standard.PreciseShardingValue;
import org.apache.shardingsphere.sharding.api.sharding.standard.RangeShardingValue;
import org.apache.shardingsphere.sharding.api.sharding.standard.StandardShardingAlgorithm;

/**
 * The standard sharding algorithm of type {@code UID_MOD}: spreads rows keyed by uid IDs evenly over
 * {@code sharding-count} databases or tables, the target whose name ends with the number
 * {@code (mix(id) / stride) mod sharding-count}.
 *
 * <p>{@code id % n} is not even on Snowflake IDs: at low traffic the default generator's sequence is 0 in most time
 * units, so the low bits hold only the worker (and data-center) ID, and with {@code n} a power of two every row of
 * an instance lands in one table; periodic inserts skew any {@code n}. Mixing all the ID's bits — time, worker,
 * sequence — with a 64-bit finalizer first spreads every traffic pattern evenly, and an ID still always routes to
 * the same target. With databases and tables both by {@code UID_MOD}, give the table algorithm the database count
 * as {@code stride}, so the two choices are independent (without it, database 0 of 2 would only get even tables).
 *
 * <pre>
 * shardingAlgorithms:
 *   order-db:
 *     type: UID_MOD
 *     props:
 *       sharding-count: 2
 *   order-table:
 *     type: UID_MOD
 *     props:
 *       sharding-count: 4
 *       stride: 2
 * </pre>
 *
 * A range of IDs ({@code BETWEEN}, {@code <}, {@code >}) routes to every target. An ID that does not fit the
 * application's layout is refused, never routed to some table. Targets that are not exactly {@code sharding-count},
 * numbered 0 to {@code sharding-count - 1}, are refused when the algorithm is bound ({@link #checkTargets}).
 */
public final class UidModShardingAlgorithm implements StandardShardingAlgorithm<Comparable<?>>, BindableAlgorithm {

	/** The type to write in the YAML. */
	public static final String TYPE = "UID_MOD";

	/** The number of targets, required. */
	public static final String SHARDING_COUNT = "sharding-count";

	/** The divisor applied before the modulo, 1 by default: the target count of the level above. */
	public static final String STRIDE = "stride";

	private final BoundLayout layout = new BoundLayout(TYPE);

	private int shardingCount;

	private int stride;

	@Override
	public void init(Properties props) {
		AlgorithmProperties properties = new AlgorithmProperties(this, props, Set.of(SHARDING_COUNT, STRIDE));
		this.shardingCount = properties.positiveInt(SHARDING_COUNT, 0, true);
		this.stride = properties.positiveInt(STRIDE, 1, false);
	}

	@Override
	public String doSharding(Collection<String> availableTargetNames, PreciseShardingValue<Comparable<?>> value) {
		long id = UidIds.toLong(this, value.getValue());
		UidIds.decode(this, this.layout.get(), id);
		long index = indexOf(id);
		for (String target : availableTargetNames) {
			if (trailingNumber(target) == index) {
				return target;
			}
		}
		throw new AlgorithmExecuteException(this, "%s", "ID " + id + " routes to number " + index + " of "
				+ this.shardingCount + ", and none of " + availableTargetNames + " ends with " + index + "; name the "
				+ "targets with the numbers 0 to " + (this.shardingCount - 1) + ", or set sharding-count to their count");
	}

	/** A range of IDs may hold every mix, so it goes to every target. */
	@Override
	public Collection<String> doSharding(Collection<String> availableTargetNames,
			RangeShardingValue<Comparable<?>> value) {
		this.layout.get();
		return new ArrayList<>(availableTargetNames);
	}

	/**
	 * Returns the number of the target an ID goes to.
	 * @param id the ID
	 * @return 0 to {@code sharding-count - 1}
	 */
	long indexOf(long id) {
		return Long.remainderUnsigned(Long.divideUnsigned(mix(id), this.stride), this.shardingCount);
	}

	/** The 64-bit finalizer of MurmurHash3: every input bit flips each output bit with probability about 1/2. */
	static long mix(long value) {
		long z = value;
		z = (z ^ (z >>> 33)) * 0xff51afd7ed558ccdL;
		z = (z ^ (z >>> 33)) * 0xc4ceb9fe1a85ec53L;
		return z ^ (z >>> 33);
	}

	/** The number a target name ends with ({@code ds_1} → 1, {@code t_order_03} → 3), or -1. */
	static long trailingNumber(String target) {
		int end = target.length();
		int start = end;
		while (start > 0 && Character.isDigit(target.charAt(start - 1))) {
			start--;
		}
		if (start == end || end - start > 9) {
			return -1;
		}
		return Long.parseLong(target.substring(start, end));
	}

	/**
	 * Refuses, before any row is routed, targets that are not exactly {@code sharding-count}, named with the numbers
	 * 0 to {@code sharding-count - 1}: with more numbers than targets, the IDs routed to a missing number fail to
	 * insert, and the rows of the others land where the corrected count will never look for them; with fewer, a
	 * target never gets a row, and correcting the count later moves rows.
	 * @param name the algorithm's name in the YAML
	 * @param table the logic table routed by it
	 * @param kind what the targets are, such as {@code databases} or {@code tables in ds_0}
	 * @param targets the names ShardingSphere will choose among: the available target names of each call
	 * @throws IllegalStateException naming the algorithm, sharding-count, the targets and the fix
	 */
	void checkTargets(String name, String table, String kind, Collection<String> targets) {
		Set<Long> numbers = new TreeSet<>();
		for (String target : targets) {
			numbers.add(trailingNumber(target));
		}
		boolean numbered = numbers.size() == this.shardingCount && numbers.stream().allMatch((n) -> n >= 0
				&& n < this.shardingCount);
		if (targets.size() == this.shardingCount && numbered) {
			return;
		}
		String fix = (targets.size() == this.shardingCount)
				? "Name them with the numbers 0 to " + (this.shardingCount - 1) + " at their end (" + TYPE
						+ " chooses a target by that number)"
				: "Set sharding-count: " + targets.size() + " on '" + name + "' if these are all its targets (their "
						+ "names ending with the numbers 0 to " + (targets.size() - 1) + "), or give " + table + " "
						+ this.shardingCount + " " + kind + ", numbered 0 to " + (this.shardingCount - 1)
						+ ", in its actualDataNodes";
		throw new IllegalStateException("The ShardingSphere sharding algorithm '" + name + "' (type " + TYPE
				+ ") has sharding-count " + this.shardingCount + ", and routes " + table + " to its " + targets.size()
				+ " " + kind + " " + targets + ": with that count some IDs route to a number no target has and their "
				+ "inserts fail, while the other rows land where a corrected sharding-count will never look for them, "
				+ "so nothing is routed until the two agree. " + fix + ". Changing sharding-count once rows exist needs a "
				+ "data migration.");
	}

	@Override
	public void bind(UidSource source, String name) {
		this.layout.bind(source, name);
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
