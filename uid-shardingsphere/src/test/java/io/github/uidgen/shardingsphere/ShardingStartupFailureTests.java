package io.github.uidgen.shardingsphere;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThatException;

/**
 * A ShardingSphere YAML that uid's algorithms cannot work with stops the application at start, with the key, the
 * value and the fix: uid binds the algorithms when the context starts, which opens the first connection, which makes
 * ShardingSphere build the data source from its YAML.
 */
class ShardingStartupFailureTests {

	private static ShardedDatabases databases;

	@BeforeAll
	static void createDatabases() {
		databases = new ShardedDatabases();
	}

	@AfterAll
	static void dropDatabases() {
		databases.close();
	}

	@Test
	void anUnknownAlgorithmPropertyStopsTheStart() {
		assertThatException()
			.isThrownBy(() -> ShardingApps
				.start(databases.url("sharding-uid.yaml", "sharding-count: 2\n", "sharding-cuont: 2\n"), 51)
				.close())
			.withStackTraceContaining("'UID_MOD' initialization failed")
			.withStackTraceContaining("unknown property [sharding-cuont] = [2]")
			.withStackTraceContaining("the properties of type UID_MOD are [sharding-count, stride]");
	}

	/**
	 * {@code sharding-count: 3} over two databases would route a third of the IDs to a number no database has (their
	 * inserts failing) and the rest where {@code sharding-count: 2} never looks for them; over the two tables of each
	 * database, the same. Both stop the start, before any row is written.
	 */
	@Test
	void aShardingCountOtherThanTheNumberOfTargetsStopsTheStart() {
		assertThatException()
			.isThrownBy(() -> ShardingApps.start(databases.url("sharding-uid.yaml",
					"uid-mod-2:\n      type: UID_MOD\n      props:\n        sharding-count: 2\n",
					"uid-mod-2:\n      type: UID_MOD\n      props:\n        sharding-count: 3\n"), 54)
				.close())
			.withStackTraceContaining("The ShardingSphere sharding algorithm 'uid-mod-2' (type UID_MOD) has "
					+ "sharding-count 3, and routes t_")
			.withStackTraceContaining("to its 2 databases [ds_0, ds_1]")
			.withStackTraceContaining("Set sharding-count: 2 on 'uid-mod-2'");
		assertThatException()
			.isThrownBy(() -> ShardingApps.start(databases.url("sharding-uid.yaml", "sharding-count: 2\n        stride: 2",
					"sharding-count: 3\n        stride: 2"), 54)
				.close())
			.withStackTraceContaining("'uid-mod-2-of-2' (type UID_MOD) has sharding-count 3, and routes t_item to its "
					+ "2 tables in ds_0 [t_item_0, t_item_1]")
			.withStackTraceContaining("Set sharding-count: 2 on 'uid-mod-2-of-2'");
	}

	@Test
	void theUidKeyGeneratorInAnApplicationWithoutAUidGeneratorStopsTheStart() {
		assertThatException()
			.isThrownBy(() -> ShardingApps.start(databases.url("sharding-uid.yaml"), 52, "--uid.enabled=false")
				.close())
			.withStackTraceContaining("The ShardingSphere key generator 'uid' of type UID needs the application's "
					+ "UidGenerator")
			.withStackTraceContaining("has none");
	}

	@Test
	void aSuffixPatternThatCannotHoldTheLayoutsTimeRangeStopsTheStart() {
		assertThatException()
			.isThrownBy(() -> ShardingApps.start(databases.url("sharding-uid.yaml", "sharding-suffix-pattern: yyyyMM",
					"sharding-suffix-pattern: MM"), 53)
				.close())
			.withStackTraceContaining("'uid-month' (type UID_INTERVAL) cannot hold the time range of the "
					+ "application's layout")
			.withStackTraceContaining("property 'sharding-suffix-pattern' = 'MM'");
	}

}
