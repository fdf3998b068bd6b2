package io.github.uidgen.shardingsphere;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.LongStream;

import io.github.uidgen.shardingsphere.app.ItemMapper;
import org.junit.jupiter.api.Test;

import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code UID_SEGMENT} key generator hands out the dense numbers of its segment key to the rows of multi-row
 * inserts, with {@code uid.generator=segment} on a Redis segment store (this machine's Redis keeps nothing on disk: a throwaway store, so persistence is not required).
 */
class SegmentKeyGeneratorTests {

	@Test
	void multiRowInsertsGetTheNextNumbersOfTheKey() {
		String prefix = "uid-test:" + UUID.randomUUID() + ":segment";
		try (ShardedDatabases databases = new ShardedDatabases();
				ConfigurableApplicationContext context = ShardingApps.start(databases.url("sharding-segment.yaml"), 0,
						"--uid.generator=segment", "--uid.segment.store=redis", "--uid.segment.step=10",
						"--uid.segment.redis.key-prefix=" + prefix, "--uid.segment.redis.require-persistence=false",
						"--spring.data.redis.host=127.0.0.1")) {
			ItemMapper items = context.getBean(ItemMapper.class);
			for (int n = 0; n < 5; n++) {
				List<String> names = new ArrayList<>();
				for (int row = 0; row < 5; row++) {
					names.add("item-" + n + "-" + row);
				}
				items.insertNames(names);
			}
			TreeMap<Long, String> rows = new TreeMap<>(databases.locations(List.of("t_item_0", "t_item_1")));
			assertThat(rows.keySet()).containsExactlyElementsOf(LongStream.rangeClosed(1, 25).boxed().toList());
			assertThat(rows).allSatisfy((id, node) -> assertThat(node).isEqualTo("ds_0.t_item_" + (id % 2)));
			context.getBean(StringRedisTemplate.class).delete(prefix + ":item");
		}
	}

}
