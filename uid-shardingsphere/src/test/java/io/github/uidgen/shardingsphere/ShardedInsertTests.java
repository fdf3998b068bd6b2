package io.github.uidgen.shardingsphere;

import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import io.github.uidgen.UidGenerator;
import io.github.uidgen.UidLayout;
import io.github.uidgen.shardingsphere.app.Item;
import io.github.uidgen.shardingsphere.app.ItemMapper;
import io.github.uidgen.shardingsphere.app.Order;
import io.github.uidgen.shardingsphere.app.OrderMapper;
import io.github.uidgen.shardingsphere.autoconfigure.UidShardingSphereBinder;
import org.apache.ibatis.session.ExecutorType;
import org.apache.ibatis.session.SqlSession;
import org.apache.ibatis.session.SqlSessionFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

/**
 * A Spring Boot application on ShardingSphere-JDBC 5.5.2 over two MariaDB databases, configured from
 * ShardingSphere's own YAML ({@code sharding-uid.yaml}): {@code t_order} by {@code UID_MOD} over the databases and
 * by month ({@code UID_INTERVAL}) over twelve tables each, {@code t_item} by {@code UID_MOD} over both, keys left
 * out of an {@code INSERT} from the {@code UID} key generator. Rows come in through MyBatis-Plus and plain MyBatis
 * mappers from four threads; where each row sits is read from MariaDB directly and compared with the route
 * ShardingSphere computes for its ID.
 */
class ShardedInsertTests {

	private static final long WORKER_ID = 31;

	private static final List<String> ORDER_TABLES = ShardedDatabases.ORDER_MONTHS.stream()
		.map((month) -> "t_order_" + month)
		.toList();

	private static final List<String> ITEM_TABLES = List.of("t_item_0", "t_item_1");

	private static ShardedDatabases databases;

	private static ConfigurableApplicationContext context;

	private static DataSource dataSource;

	private static UidGenerator uids;

	@BeforeAll
	static void start() {
		databases = new ShardedDatabases();
		context = ShardingApps.start(databases.url("sharding-uid.yaml"), WORKER_ID);
		dataSource = context.getBean(DataSource.class);
		uids = context.getBean(UidGenerator.class);
	}

	@AfterAll
	static void stop() {
		if (context != null) {
			context.close();
		}
		databases.close();
	}

	@Test
	void theStartBoundEveryUidAlgorithmOfTheYaml() {
		// UID, UID_MOD twice, UID_INTERVAL.
		assertThat(context.getBean(UidShardingSphereBinder.class).boundAlgorithms()).isEqualTo(4);
	}

	@Test
	void rowsInsertedByFourThreadsSitWhereTheirIdsRouteWithNoDuplicate() throws Exception {
		String monthBefore = thisMonth();
		OrderMapper orders = context.getBean(OrderMapper.class);
		ItemMapper items = context.getBean(ItemMapper.class);
		ExecutorService threads = Executors.newFixedThreadPool(4);
		List<Future<List<Long>>> futures = new ArrayList<>();
		List<Long> itemIds = Collections.synchronizedList(new ArrayList<>());
		for (int t = 0; t < 4; t++) {
			int thread = t;
			futures.add(threads.submit(() -> {
				List<Long> orderIds = new ArrayList<>();
				for (int n = 0; n < 40; n++) {
					Order order = new Order(null, "single-" + thread + "-" + n);
					orders.insert(order);
					orderIds.add(order.getId());
					Item item = new Item("single-" + thread + "-" + n);
					items.insert(item);
					itemIds.add(item.getId());
				}
				List<Order> orderBatch = new ArrayList<>();
				List<Item> itemBatch = new ArrayList<>();
				for (int n = 0; n < 20; n++) {
					orderBatch.add(new Order(null, "batch-" + thread + "-" + n));
					itemBatch.add(new Item("batch-" + thread + "-" + n));
				}
				orders.insert(orderBatch);
				items.insertAll(itemBatch);
				orderBatch.forEach((order) -> orderIds.add(order.getId()));
				itemBatch.forEach((item) -> itemIds.add(item.getId()));
				for (int n = 0; n < 10; n++) {
					items.insertNames(List.of("keyed-" + thread + "-" + n + "-a", "keyed-" + thread + "-" + n + "-b",
							"keyed-" + thread + "-" + n + "-c"));
				}
				// MyBatis's batch executor: JDBC batches through ShardingSphere, each statement's item filled.
				try (SqlSession session = context.getBean(SqlSessionFactory.class).openSession(ExecutorType.BATCH)) {
					ItemMapper batchItems = session.getMapper(ItemMapper.class);
					for (int n = 0; n < 10; n++) {
						Item item = new Item("executor-" + thread + "-" + n);
						batchItems.insert(item);
						itemIds.add(item.getId());
					}
					session.flushStatements();
					session.commit();
				}
				return orderIds;
			}));
		}
		List<Long> orderIds = new ArrayList<>();
		for (Future<List<Long>> future : futures) {
			orderIds.addAll(future.get(120, TimeUnit.SECONDS));
		}
		threads.shutdown();

		Map<Long, String> orderRows = new HashMap<>(databases.locations(ORDER_TABLES));
		Map<Long, String> itemRows = databases.locations(ITEM_TABLES);
		assertThat(orderIds).hasSize(240).doesNotHaveDuplicates();
		// Other tests of the class add orders of their own months.
		assertThat(orderRows.keySet()).containsAll(orderIds);
		orderRows.keySet().retainAll(new HashSet<>(orderIds));
		assertThat(itemIds).hasSize(280).doesNotHaveDuplicates();
		// 280 items with IDs from the interceptor, 120 with keys from ShardingSphere's UID key generator.
		assertThat(itemRows).hasSize(400).containsKeys(itemIds.toArray(Long[]::new));
		assertThat(items.countNamed("executor-%")).isEqualTo(40);
		assertThat(items.countNamed("keyed-%")).isEqualTo(120);

		for (Map.Entry<Long, String> row : orderRows.entrySet()) {
			assertThat(ShardingRoutes.of(dataSource, "SELECT item FROM t_order WHERE id = ?", row.getKey()))
				.as("route of order %d", row.getKey())
				.containsExactly(row.getValue());
		}
		for (Map.Entry<Long, String> row : itemRows.entrySet()) {
			assertThat(ShardingRoutes.of(dataSource, "SELECT name FROM t_item WHERE id = ?", row.getKey()))
				.as("route of item %d", row.getKey())
				.containsExactly(row.getValue());
			assertThat(uids.decode(row.getKey()).workerId()).isEqualTo(WORKER_ID);
		}
		assertThat(orderRows.keySet()).allSatisfy((id) -> assertThat(uids.decode(id).workerId()).isEqualTo(WORKER_ID));

		// Today's orders are all in this month's tables; UID_MOD spreads them and the items evenly.
		Set<String> months = new HashSet<>(List.of(monthBefore, thisMonth()));
		assertThat(new HashSet<>(orderRows.values())).allSatisfy((node) -> assertThat(node.substring(node.length() - 6))
			.as("orders issued now are in this month's tables").isIn(months));
		assertThat(countBy(orderRows, "ds_0")).isBetween(72L, 168L);
		for (String node : List.of("ds_0.t_item_0", "ds_0.t_item_1", "ds_1.t_item_0", "ds_1.t_item_1")) {
			assertThat(countBy(itemRows, node)).as(node).isBetween(50L, 150L);
		}
	}

	@Test
	void aRangeOfIdsReturnsExactlyTheRowsOfItsMonthsAndRoutesOnlyToTheirTables() {
		OrderMapper orders = context.getBean(OrderMapper.class);
		UidLayout layout = uids.layout();
		Map<Integer, List<Long>> byMonth = new HashMap<>();
		int year = ShardedDatabases.YEAR;
		for (int month = 2; month <= 5; month++) {
			for (int n = 0; n < 5; n++) {
				// IDs of worker 1000, issued on the 10th of the month: set by hand, kept by MyBatis-Plus.
				long id = layout.compose(unitOf(layout, year, month, 10) + n, 1000, n);
				orders.insert(new Order(id, "month-" + month));
				byMonth.computeIfAbsent(month, (m) -> new ArrayList<>()).add(id);
			}
		}
		long from = layout.compose(unitOf(layout, year, 3, 1), 0, 0);
		// The last ID of April: the first ID of May, less one, whatever the layout's worker and data-center parts.
		long to = layout.compose(unitOf(layout, year, 5, 1), 0, 0) - 1;

		List<Long> expected = new ArrayList<>(byMonth.get(3));
		expected.addAll(byMonth.get(4));
		// Other tests insert orders issued now, which lie in this range in March and April: only worker 1000 is ours.
		assertThat(orders.idsBetween(from, to)).allSatisfy((id) -> assertThat(id).isBetween(from, to))
			.filteredOn((id) -> uids.decode(id).workerId() == 1000)
			.containsExactlyInAnyOrderElementsOf(expected);
		assertThat(ShardingRoutes.of(dataSource, "SELECT id FROM t_order WHERE id BETWEEN ? AND ?", from, to))
			.containsExactlyInAnyOrder("ds_0.t_order_" + year + "03", "ds_0.t_order_" + year + "04",
					"ds_1.t_order_" + year + "03", "ds_1.t_order_" + year + "04");
		assertThat(ShardingRoutes.of(dataSource, "SELECT id FROM t_order WHERE id >= ? AND id < ?", from,
				layout.compose(unitOf(layout, year, 4, 1), 0, 0)))
			.containsExactlyInAnyOrder("ds_0.t_order_" + year + "03", "ds_1.t_order_" + year + "03");
		long one = byMonth.get(2).get(0);
		assertThat(ShardingRoutes.of(dataSource, "SELECT id FROM t_order WHERE id = ?", one)).hasSize(1)
			.allSatisfy((node) -> assertThat(node).endsWith(".t_order_" + year + "02"));
	}

	@Test
	void anIdOfAnotherLayoutIsRefusedNotRoutedToSomeTable() {
		OrderMapper orders = context.getBean(OrderMapper.class);
		// ShardingSphere's SNOWFLAKE counts milliseconds from 2016-11-01: read with uid's epoch (2025-01-01) an ID of
		// today lies eight years ahead, beyond this year's tables.
		long snowflakeEpoch = LocalDate.of(2016, 11, 1).atStartOfDay(ZoneOffset.UTC).toInstant().toEpochMilli();
		long snowflake = ((System.currentTimeMillis() - snowflakeEpoch) << 22) | (1 << 12);
		int readAsYear = uids.decode(snowflake).timestamp().atZone(ZoneOffset.UTC).getYear();
		assertThat(readAsYear).isGreaterThan(ShardedDatabases.YEAR + 7);
		assertThatException().isThrownBy(() -> orders.insert(new Order(snowflake, "foreign")))
			.withStackTraceContaining("ID " + snowflake + " was issued at " + readAsYear)
			.withStackTraceContaining("outside the intervals")
			.withStackTraceContaining("of another layout");
		assertThatException().isThrownBy(() -> orders.insert(new Order(-5L, "negative")))
			.withStackTraceContaining("ID -5 is not an ID of the application's layout");
		assertThatException().isThrownBy(() -> orders.idsBetween(snowflake, snowflake))
			.withStackTraceContaining("all outside the intervals");
	}

	private static String thisMonth() {
		return DateTimeFormatter.ofPattern("yyyyMM").format(LocalDate.now(ZoneOffset.UTC));
	}

	private static long countBy(Map<Long, String> rows, String prefix) {
		return rows.values().stream().filter((node) -> node.startsWith(prefix)).count();
	}

	private static long unitOf(UidLayout layout, int year, int month, int day) {
		return layout.toUnit(LocalDate.of(year, month, day).atStartOfDay(ZoneOffset.UTC).toInstant().toEpochMilli());
	}

}
