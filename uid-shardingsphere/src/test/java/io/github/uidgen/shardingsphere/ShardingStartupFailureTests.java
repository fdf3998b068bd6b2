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
