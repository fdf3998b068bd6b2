package io.github.uidgen.shardingsphere;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import io.github.uidgen.UidGenerator;
import io.github.uidgen.shardingsphere.app.ItemMapper;
import org.junit.jupiter.api.Test;

import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

/**
 * Two application contexts in one JVM, as in a test suite: each one's {@code UID} key generator hands out the IDs
 * of its own generator, a second context on the same ShardingSphere URL is refused while the first runs (the
 * driver would share the data source) but works on that URL with a query parameter of its own, and a context
 * started after the first closed gets the algorithms, not the closed generator.
 */
class TwoApplicationContextsTests {

	private static final List<String> ITEM_TABLES = List.of("t_item_0", "t_item_1");

	@Test
	void eachContextIssuesKeysOfItsOwnGenerator() {
		try (ShardedDatabases first = new ShardedDatabases(); ShardedDatabases second = new ShardedDatabases()) {
			String firstUrl = first.url("sharding-uid.yaml");
			try (ConfigurableApplicationContext one = ShardingApps.start(firstUrl, 61);
					ConfigurableApplicationContext two = ShardingApps.start(second.url("sharding-uid.yaml"), 62)) {
				insertKeyedItems(one, "one");
				insertKeyedItems(two, "two");
				assertWorkers(first, one, 61);
				assertWorkers(second, two, 62);

				assertThatException().isThrownBy(() -> ShardingApps.start(firstUrl, 63).close())
					.withStackTraceContaining("is already bound to the application context 'sharded-61'")
					.withStackTraceContaining("which is still running");
				// The advice of the refusal (and of docs/shardingsphere.md for test suites): a URL of its own.
				try (ConfigurableApplicationContext other = ShardingApps.start(firstUrl + "?context=other", 65)) {
					insertKeyedItems(other, "other");
					assertThat(workersOf(first, other)).containsOnlyKeys(61L, 65L)
						.containsEntry(61L, 6L)
						.containsEntry(65L, 6L);
				}
			}
			try (ConfigurableApplicationContext three = ShardingApps.start(firstUrl, 64)) {
				insertKeyedItems(three, "three");
				assertThat(workersOf(first, three)).containsOnlyKeys(61L, 64L, 65L).containsEntry(64L, 6L);
			}
		}
	}

	private static void insertKeyedItems(ConfigurableApplicationContext context, String name) {
		ItemMapper items = context.getBean(ItemMapper.class);
		items.insertNames(List.of(name + "-a", name + "-b", name + "-c"));
		items.insertNames(List.of(name + "-d", name + "-e", name + "-f"));
	}

	/** How many rows of the databases' items each worker ID issued, read with the context's layout. */
	private static Map<Long, Long> workersOf(ShardedDatabases databases, ConfigurableApplicationContext context) {
		UidGenerator generator = context.getBean(UidGenerator.class);
		return databases.locations(ITEM_TABLES)
			.keySet()
			.stream()
			.collect(Collectors.groupingBy((id) -> generator.decode(id).workerId(), Collectors.counting()));
	}

	private static void assertWorkers(ShardedDatabases databases, ConfigurableApplicationContext context,
			long workerId) {
		Map<Long, String> rows = databases.locations(ITEM_TABLES);
		UidGenerator generator = context.getBean(UidGenerator.class);
		assertThat(rows).hasSize(6);
		assertThat(rows.keySet()).allSatisfy((id) -> assertThat(generator.decode(id).workerId()).isEqualTo(workerId));
	}

}
