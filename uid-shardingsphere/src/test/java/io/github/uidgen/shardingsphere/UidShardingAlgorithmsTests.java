package io.github.uidgen.shardingsphere;

import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import com.google.common.collect.Range;
import io.github.uidgen.UidLayout;
import io.github.uidgen.UidTimeUnit;
import io.github.uidgen.snowflake.DefaultUidGenerator;
import io.github.uidgen.worker.FixedWorkerIdAssigner;
import org.apache.shardingsphere.infra.algorithm.core.exception.AlgorithmExecuteException;
import org.apache.shardingsphere.infra.datanode.DataNodeInfo;
import org.apache.shardingsphere.sharding.api.sharding.standard.PreciseShardingValue;
import org.apache.shardingsphere.sharding.api.sharding.standard.RangeShardingValue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * The sharding algorithms and key generators bound to real generators, without a database: how they spread and
 * route IDs, and what they refuse when bound.
 */
class UidShardingAlgorithmsTests {

	private static final List<String> TABLES = List.of("t_0", "t_1", "t_2", "t_3");

	private final DefaultUidGenerator generator = DefaultUidGenerator.builder()
		.workerIdAssigner(new FixedWorkerIdAssigner(7))
		.build();

	private final UidSource source = new UidSource("the test", this.generator, null);

	@AfterEach
	void close() {
		this.generator.close();
	}

	@Test
	void modSpreadsIdsOfOneQuietWorkerEvenly() {
		// One instance at low traffic: sequence 0 in every millisecond, one insert every 4 ms (a timer).
		UidModShardingAlgorithm mod = mod(4, 1);
		UidLayout layout = this.generator.layout();
		int[] counts = new int[4];
		long start = layout.toUnit(System.currentTimeMillis());
		for (int n = 0; n < 40_000; n++) {
			long id = layout.compose(start + 4L * n, 7, 0);
			counts[TABLES.indexOf(mod.doSharding(TABLES, precise(id)))]++;
		}
		assertThat(java.util.Arrays.stream(counts).boxed().toList()).allSatisfy((count) -> assertThat(count).isBetween(9_400, 10_600));
		for (int n = 0; n < 40_000; n++) {
			assertThat(layout.compose(start + 4L * n, 7, 0) % 4).as("id %% 4 of such IDs").isZero();
		}
	}

	@Test
	void modSpreadsABurstOfOneMillisecondAndManyWorkersEvenly() {
		UidModShardingAlgorithm mod = mod(4, 1);
		UidLayout layout = this.generator.layout();
		int[] counts = new int[4];
		long unit = layout.toUnit(System.currentTimeMillis());
		for (long worker = 0; worker < 10; worker++) {
			for (long sequence = 0; sequence < 4_000; sequence++) {
				counts[TABLES.indexOf(mod.doSharding(TABLES, precise(layout.compose(unit, worker, sequence))))]++;
			}
		}
		assertThat(java.util.Arrays.stream(counts).boxed().toList()).allSatisfy((count) -> assertThat(count).isBetween(9_400, 10_600));
	}

	@Test
	void modSpreadsTwoDataCentersWithTheSameWorkerIdsEvenly() {
		// A layout with a data-center part: two data centers whose stores both hand out worker 5, at low traffic.
		UidLayout layout = UidLayout.defaults().withDatacenterBits(3);
		try (DefaultUidGenerator first = DefaultUidGenerator.builder()
			.layout(layout)
			.datacenterId(1)
			.workerIdAssigner(new FixedWorkerIdAssigner(5))
			.build()) {
			UidModShardingAlgorithm mod = new UidModShardingAlgorithm();
			mod.init(AlgorithmPropertiesTests.props("sharding-count", "4"));
			mod.bind(new UidSource("a data center", first, null), "by-mod");
			int[][] counts = new int[2][4];
			long start = layout.toUnit(System.currentTimeMillis());
			for (int n = 0; n < 20_000; n++) {
				for (int datacenter = 0; datacenter < 2; datacenter++) {
					long id = layout.compose(start + 3L * n, datacenter, 5, 0);
					counts[datacenter][TABLES.indexOf(mod.doSharding(TABLES, precise(id)))]++;
				}
			}
			for (int[] datacenter : counts) {
				assertThat(java.util.Arrays.stream(datacenter).boxed().toList())
					.allSatisfy((count) -> assertThat(count).isBetween(4_600, 5_400));
			}
			long issued = first.getUID();
			assertThat(first.decode(issued).datacenterId()).isEqualTo(1L);
			assertThat(mod.doSharding(TABLES, precise(issued))).isIn(TABLES);
		}
	}

	@Test
	void databasesAndTablesByModChooseIndependentlyWithAStride() {
		UidModShardingAlgorithm databases = mod(2, 1);
		UidModShardingAlgorithm tables = mod(2, 2);
		int[][] counts = new int[2][2];
		for (int n = 0; n < 40_000; n++) {
			long id = this.generator.getUID();
			counts[(int) databases.indexOf(id)][(int) tables.indexOf(id)]++;
		}
		for (int[] database : counts) {
			assertThat(java.util.Arrays.stream(database).boxed().toList()).allSatisfy((count) -> assertThat(count).isBetween(9_400, 10_600));
		}
	}

	@Test
	void modRoutesAnIdAlwaysToTheSameTargetAndARangeToAll() {
		UidModShardingAlgorithm mod = mod(4, 1);
		long id = this.generator.getUID();
		String target = mod.doSharding(TABLES, precise(id));
		assertThat(mod.doSharding(List.of("t_3", "t_2", "t_1", "t_0"), precise(id))).isEqualTo(target);
		assertThat(mod.doSharding(TABLES, range(Range.closed(id, id + 10)))).containsExactlyElementsOf(TABLES);
	}

	/**
	 * Rows stay where they were written only if every instance and every later version routes an ID alike: these
	 * routes were seen in a run of ShardingSphere over two MariaDB databases (docs/shardingsphere.md's YAML) and must
	 * never change.
	 */
	@Test
	void modRoutesStoredIdsWhereTheyHaveAlwaysGone() {
		UidModShardingAlgorithm databases = mod(2, 1);
		UidModShardingAlgorithm tables = mod(2, 2);
		Map<Long, String> seen = Map.of(251480143841722368L, "ds_0.t_1", 251480152511348736L, "ds_0.t_1",
				251480152712675328L, "ds_1.t_0", 251480152712675329L, "ds_1.t_0", 251480152712675330L, "ds_1.t_1");
		seen.forEach((id, node) -> assertThat(databases.doSharding(List.of("ds_0", "ds_1"), precise(id)) + "."
				+ tables.doSharding(List.of("t_0", "t_1"), precise(id)))
			.as("route of %d", id)
			.isEqualTo(node));
		UidModShardingAlgorithm sixteen = mod(16, 1);
		assertThat(List.of(1L, 4_194_332_672L, 251480143841722368L, 251480152712675330L).stream()
			.map(sixteen::indexOf)
			.toList()).containsExactly(12L, 15L, 14L, 7L);
	}

	@Test
	void modRefusesAnIdOfAnotherLayoutAndTargetsItCannotName() {
		UidModShardingAlgorithm mod = mod(4, 1);
		assertThatExceptionOfType(AlgorithmExecuteException.class)
			.isThrownBy(() -> mod.doSharding(TABLES, precise(-1L)))
			.withMessageContaining("ID -1 is not an ID of the application's layout");
		assertThatExceptionOfType(AlgorithmExecuteException.class)
			.isThrownBy(() -> mod.doSharding(List.of("t_a", "t_b"), precise(this.generator.getUID())))
			.withMessageContaining("name the targets with the numbers 0 to 3");
	}

	@Test
	void intervalRoutesAnIdToTheTableOfItsMonthAndARangeToItsMonths() {
		UidIntervalShardingAlgorithm interval = monthly();
		List<String> months = List.of("t_202601", "t_202602", "t_202603", "t_202604", "t_202605", "t_202606");
		UidLayout layout = this.generator.layout();
		long march = layout.compose(unit(2026, 3, 31) + 5, 7, 1);
		assertThat(interval.doSharding(months, precise(march))).isEqualTo("t_202603");
		long april = layout.compose(unit(2026, 4, 1), 0, 0);
		assertThat(interval.doSharding(months, range(Range.closed(march, april))))
			.containsExactly("t_202603", "t_202604");
		assertThat(interval.doSharding(months, range(Range.closedOpen(march, april)))).containsExactly("t_202603");
		assertThat(interval.doSharding(months, range(Range.atLeast(april))))
			.containsExactly("t_202604", "t_202605", "t_202606");
	}

	@Test
	void intervalByDayRoutesAnIdToTheTableOfItsDayAndARangeToItsDaysAcrossAMonthsEnd() {
		UidIntervalShardingAlgorithm daily = new UidIntervalShardingAlgorithm();
		// DAYS is the default unit: only the pattern says it is days.
		daily.init(AlgorithmPropertiesTests.props("datetime-lower", "2026-01-01 00:00:00", "datetime-upper",
				"2026-12-31 00:00:00", "sharding-suffix-pattern", "yyyyMMdd"));
		daily.bind(this.source, "by-day");
		List<String> days = List.of("t_20260129", "t_20260130", "t_20260131", "t_20260201", "t_20260202");
		UidLayout layout = this.generator.layout();
		long lastOfJanuary = layout.compose(unit(2026, 2, 1) - 1, 7, 4095);
		assertThat(daily.doSharding(days, precise(lastOfJanuary))).isEqualTo("t_20260131");
		long firstOfFebruary = layout.compose(unit(2026, 2, 1), 0, 0);
		assertThat(daily.doSharding(days, precise(firstOfFebruary))).isEqualTo("t_20260201");
		long thirtieth = layout.compose(unit(2026, 1, 30) + 1_000, 7, 0);
		assertThat(daily.doSharding(days, range(Range.closed(thirtieth, firstOfFebruary))))
			.containsExactly("t_20260130", "t_20260131", "t_20260201");
		assertThat(daily.doSharding(days, range(Range.closedOpen(thirtieth, firstOfFebruary))))
			.containsExactly("t_20260130", "t_20260131");
	}

	@Test
	void intervalRefusesAnIdOutsideItsIntervalsAndAMissingTable() {
		UidIntervalShardingAlgorithm interval = monthly();
		long march = this.generator.layout().compose(unit(2026, 3, 5), 7, 0);
		assertThatExceptionOfType(AlgorithmExecuteException.class)
			.isThrownBy(() -> interval.doSharding(List.of("t_202601"), precise(march)))
			.withMessageContaining("add the table (or the data node) of that interval");
		long beyond = this.generator.layout().compose(unit(2027, 3, 1), 0, 0);
		assertThatExceptionOfType(AlgorithmExecuteException.class)
			.isThrownBy(() -> interval.doSharding(List.of("t_202612"), precise(beyond)))
			.withMessageContaining("was issued at 2027-03-01T00:00:00Z")
			.withMessageContaining("outside the intervals from 2026-01-01T00:00:00Z to 2027-01-01T00:00:00Z");
	}

	@Test
	void anIntervalPatternThatCannotHoldTheLayoutsTimeRangeIsRefusedAtBind() {
		UidIntervalShardingAlgorithm monthOnly = new UidIntervalShardingAlgorithm();
		// Within one year MM tells the months apart; over the layout's 69 years it does not.
		monthOnly.init(AlgorithmPropertiesTests.props("datetime-lower", "2026-01-01 00:00:00", "datetime-upper",
				"2026-12-01 00:00:00", "sharding-suffix-pattern", "MM", "datetime-interval-unit", "MONTHS"));
		assertThatIllegalStateException().isThrownBy(() -> monthOnly.bind(this.source, "order-month"))
			.withMessageContaining("'order-month' (type UID_INTERVAL) cannot hold the time range of the "
					+ "application's layout")
			.withMessageContaining("the same suffix '01'")
			.withMessageContaining("with the full year (yyyy)");

		UidIntervalShardingAlgorithm twoDigitYear = new UidIntervalShardingAlgorithm();
		twoDigitYear.init(AlgorithmPropertiesTests.props("datetime-lower", "2026-01-01 00:00:00", "datetime-upper",
				"2026-12-01 00:00:00", "sharding-suffix-pattern", "yyMM", "datetime-interval-unit", "MONTHS"));
		// yy holds 2000 to 2099: enough for the default layout (to 2094), not for one of 42 time bits (to 2164).
		twoDigitYear.bind(this.source, "fits");
		try (DefaultUidGenerator longer = DefaultUidGenerator.builder()
			.layout(new UidLayout(UidTimeUnit.MILLISECONDS, LocalDate.of(2025, 1, 1), 42, 9, 12))
			.workerIdAssigner(new FixedWorkerIdAssigner(1))
			.build()) {
			UidIntervalShardingAlgorithm other = new UidIntervalShardingAlgorithm();
			other.init(AlgorithmPropertiesTests.props("datetime-lower", "2026-01-01 00:00:00", "datetime-upper",
					"2026-12-01 00:00:00", "sharding-suffix-pattern", "yyMM", "datetime-interval-unit", "MONTHS"));
			assertThatIllegalStateException()
				.isThrownBy(() -> other.bind(new UidSource("another test", longer, null), "too-long"))
				.withMessageContaining("the same suffix '2501'");
		}
	}

	@Test
	void aKeyGeneratorWithoutAGeneratorAndAnAlgorithmBeforeBindingFailClearly() {
		UidKeyGenerateAlgorithm keys = new UidKeyGenerateAlgorithm();
		keys.init(new Properties());
		assertThatIllegalStateException().isThrownBy(() -> keys.bind(new UidSource("an app", null, null), "uid"))
			.withMessageContaining("'uid' of type UID needs the application's UidGenerator, and an app has none");
		assertThatIllegalStateException().isThrownBy(() -> keys.generateKeys(
				new org.apache.shardingsphere.infra.algorithm.core.context.AlgorithmSQLContext("db", "db", "t_order",
						"id"), 1))
			.withMessageContaining("cannot generate keys for t_order: it is not bound to a UidGenerator");
	}

	@Test
	void theKeyGeneratorHandsOutAsManyKeysAsRowsFromTheBoundGenerator() {
		UidKeyGenerateAlgorithm keys = new UidKeyGenerateAlgorithm();
		keys.init(new Properties());
		keys.bind(this.source, "uid");
		Collection<Long> generated = keys.generateKeys(
				new org.apache.shardingsphere.infra.algorithm.core.context.AlgorithmSQLContext("db", "db", "t_order",
						"id"), 5);
		assertThat(generated).hasSize(5).doesNotHaveDuplicates()
			.allSatisfy((key) -> assertThat(this.generator.decode(key).workerId()).isEqualTo(7));
	}

	@Test
	void aSecondRunningApplicationCannotBindTheSameAlgorithmsButOneAfterTheFirstStoppedCan() {
		UidModShardingAlgorithm mod = mod(4, 1);
		UidSource second = new UidSource("the second application", this.generator, null);
		assertThatIllegalStateException().isThrownBy(() -> mod.bind(second, "by-mod"))
			.withMessageContaining("is already bound to the test, which is still running")
			.withMessageContaining("give each application its own URL");
		this.source.close();
		mod.unbind(this.source);
		mod.bind(second, "by-mod");
		assertThat(mod.doSharding(TABLES, precise(this.generator.getUID()))).isIn(TABLES);
		second.close();
		assertThatIllegalStateException().isThrownBy(() -> mod.doSharding(TABLES, precise(1L)))
			.withMessageContaining("the second application, whose UidGenerator it was bound to, has stopped");
	}

	private UidModShardingAlgorithm mod(int count, int stride) {
		UidModShardingAlgorithm mod = new UidModShardingAlgorithm();
		mod.init(AlgorithmPropertiesTests.props("sharding-count", String.valueOf(count), "stride",
				String.valueOf(stride)));
		mod.bind(this.source, "by-mod");
		return mod;
	}

	private UidIntervalShardingAlgorithm monthly() {
		UidIntervalShardingAlgorithm interval = new UidIntervalShardingAlgorithm();
		interval.init(AlgorithmPropertiesTests.monthly());
		interval.bind(this.source, "by-month");
		return interval;
	}

	private long unit(int year, int month, int day) {
		return this.generator.layout()
			.toUnit(LocalDate.of(year, month, day).atStartOfDay(ZoneOffset.UTC).toInstant().toEpochMilli());
	}

	private static PreciseShardingValue<Comparable<?>> precise(long id) {
		return new PreciseShardingValue<>("t", "id", new DataNodeInfo("t_", 1, '0'), id);
	}

	private static RangeShardingValue<Comparable<?>> range(Range<Long> range) {
		@SuppressWarnings({ "unchecked", "rawtypes" })
		Range<Comparable<?>> values = (Range) range;
		return new RangeShardingValue<>("t", "id", new DataNodeInfo("t_", 1, '0'), values);
	}

}
