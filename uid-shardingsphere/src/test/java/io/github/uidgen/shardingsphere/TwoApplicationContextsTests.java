package io.github.uidgen.shardingsphere;

import java.util.List;
import java.util.Map;

import io.github.uidgen.UidGenerator;
import io.github.uidgen.shardingsphere.app.ItemMapper;
import org.junit.jupiter.api.Test;

import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

/**
 * Two application contexts in one JVM, as in a test suite: each one's {@code UID} key generator hands out the IDs
 * of its own generator, a second context on the same ShardingSphere URL is refused while the first runs (the
 * driver would share the data source), and a context started after the first closed gets the algorithms, not the
 * closed generator.
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
			}
			try (ConfigurableApplicationContext three = ShardingApps.start(firstUrl, 64)) {
				insertKeyedItems(three, "three");
				Map<Long, String> rows = first.locations(ITEM_TABLES);
				assertThat(rows).hasSize(12);
				UidGenerator generator = three.getBean(UidGenerator.class);
				assertThat(rows.keySet().stream().filter((id) -> generator.decode(id).workerId() == 64)).hasSize(6);
			}
		}
	}

	private static void insertKeyedItems(ConfigurableApplicationContext context, String name) {
		ItemMapper items = context.getBean(ItemMapper.class);
		items.insertNames(List.of(name + "-a", name + "-b", name + "-c"));
		items.insertNames(List.of(name + "-d", name + "-e", name + "-f"));
	}

	private static void assertWorkers(ShardedDatabases databases, ConfigurableApplicationContext context,
			long workerId) {
		Map<Long, String> rows = databases.locations(ITEM_TABLES);
		UidGenerator generator = context.getBean(UidGenerator.class);
		assertThat(rows).hasSize(6);
		assertThat(rows.keySet()).allSatisfy((id) -> assertThat(generator.decode(id).workerId()).isEqualTo(workerId));
	}

}
