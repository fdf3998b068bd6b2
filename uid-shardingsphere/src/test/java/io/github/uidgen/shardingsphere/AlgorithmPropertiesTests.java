package io.github.uidgen.shardingsphere;

import java.util.Properties;

import org.apache.shardingsphere.infra.algorithm.core.ShardingSphereAlgorithm;
import org.apache.shardingsphere.infra.algorithm.core.exception.AlgorithmInitializationException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatNoException;

/**
 * Every property of every algorithm is read and checked in {@code init}, as ShardingSphere calls it while it builds
 * the data source from the YAML: a missing, malformed or unknown one is refused with ShardingSphere's own exception,
 * naming the key, the value and the fix.
 */
class AlgorithmPropertiesTests {

	@Test
	void theKeyGeneratorTakesNoProperties() {
		assertThatNoException().isThrownBy(() -> new UidKeyGenerateAlgorithm().init(props()));
		assertRefused(new UidKeyGenerateAlgorithm(), props("worker-id", "7"), "unknown property [worker-id] = [7]",
				"type UID takes no properties: remove them");
	}

	@Test
	void theSegmentKeyGeneratorNeedsAValidKey() {
		assertThatNoException().isThrownBy(() -> new UidSegmentKeyGenerateAlgorithm().init(props("key", "order")));
		assertRefused(new UidSegmentKeyGenerateAlgorithm(), props(), "property 'key' is missing",
				"for example key: order");
		assertRefused(new UidSegmentKeyGenerateAlgorithm(), props("key", "order number"),
				"property 'key' = 'order number' is not a segment key", "use 1 to 128 letters");
		assertRefused(new UidSegmentKeyGenerateAlgorithm(), props("key", "order", "step", "100"),
				"unknown property [step] = [100]", "the properties of type UID_SEGMENT are [key]");
	}

	@Test
	void theModAlgorithmNeedsAPositiveShardingCount() {
		assertThatNoException().isThrownBy(() -> new UidModShardingAlgorithm().init(props("sharding-count", "4")));
		assertRefused(new UidModShardingAlgorithm(), props(), "property 'sharding-count' is missing");
		assertRefused(new UidModShardingAlgorithm(), props("sharding-count", "0"),
				"property 'sharding-count' = '0' is not a positive whole number; set it to 1 or more");
		assertRefused(new UidModShardingAlgorithm(), props("sharding-count", "four"),
				"property 'sharding-count' = 'four' is not a positive whole number");
		assertRefused(new UidModShardingAlgorithm(), props("sharding-count", "4", "stride", "-2"),
				"property 'stride' = '-2' is not a positive whole number");
		assertRefused(new UidModShardingAlgorithm(), props("sharding-count", "4", "sharding-offset", "1"),
				"unknown property [sharding-offset] = [1]", "[sharding-count, stride]");
	}

	@Test
	void theIntervalAlgorithmChecksEachProperty() {
		assertThatNoException().isThrownBy(() -> new UidIntervalShardingAlgorithm().init(monthly()));
		assertRefused(new UidIntervalShardingAlgorithm(), without(monthly(), "datetime-lower"),
				"property 'datetime-lower' is missing");
		assertRefused(new UidIntervalShardingAlgorithm(), without(monthly(), "datetime-upper"),
				"property 'datetime-upper' is missing");
		assertRefused(new UidIntervalShardingAlgorithm(), without(monthly(), "sharding-suffix-pattern"),
				"property 'sharding-suffix-pattern' is missing", "for example sharding-suffix-pattern: yyyyMM");
		assertRefused(new UidIntervalShardingAlgorithm(), with(monthly(), "datetime-lower", "2026/01/01"),
				"property 'datetime-lower' = '2026/01/01' does not match datetime-pattern 'yyyy-MM-dd HH:mm:ss'");
		assertRefused(new UidIntervalShardingAlgorithm(), with(monthly(), "datetime-upper", "2025-06-01 00:00:00"),
				"property 'datetime-upper' = '2025-06-01 00:00:00' lies before datetime-lower");
		assertRefused(new UidIntervalShardingAlgorithm(), with(monthly(), "datetime-interval-unit", "MINUTES"),
				"property 'datetime-interval-unit' = 'MINUTES' is not a unit of tables",
				"use HOURS, DAYS, WEEKS, MONTHS or YEARS");
		assertRefused(new UidIntervalShardingAlgorithm(), with(monthly(), "datetime-interval-amount", "0"),
				"property 'datetime-interval-amount' = '0' is not a positive whole number");
		assertRefused(new UidIntervalShardingAlgorithm(), with(monthly(), "zone-id", "Mars/Olympus"),
				"property 'zone-id' = 'Mars/Olympus' is not a time zone");
		assertRefused(new UidIntervalShardingAlgorithm(), with(monthly(), "sharding-suffix-pattern", "yyyyMMbb"),
				"property 'sharding-suffix-pattern' = 'yyyyMMbb' is not a date-time pattern");
		assertRefused(new UidIntervalShardingAlgorithm(), with(monthly(), "datetime-pattern", "yyyy-MM-dd"),
				"property 'datetime-lower' = '2026-01-01 00:00:00' does not match datetime-pattern 'yyyy-MM-dd'");
		assertRefused(new UidIntervalShardingAlgorithm(), with(monthly(), "sharding-suffix-pattern", "yyyy"),
				"property 'sharding-suffix-pattern' = 'yyyy' gives the intervals starting 2026-01-01T00:00 and "
						+ "2026-02-01T00:00 the same suffix '2026'");
		assertRefused(new UidIntervalShardingAlgorithm(), with(monthly(), "datetime-interval", "MONTHS"),
				"unknown property [datetime-interval] = [MONTHS]");
	}

	@Test
	void theIntervalAlgorithmReadsDatesInItsOwnPattern() {
		Properties props = with(with(with(monthly(), "datetime-pattern", "yyyy-MM-dd"), "datetime-lower",
				"2026-01-01"), "datetime-upper", "2026-12-01");
		assertThatNoException().isThrownBy(() -> new UidIntervalShardingAlgorithm().init(props));
	}

	static Properties monthly() {
		return props("datetime-lower", "2026-01-01 00:00:00", "datetime-upper", "2026-12-01 00:00:00",
				"sharding-suffix-pattern", "yyyyMM", "datetime-interval-unit", "MONTHS");
	}

	static Properties props(String... pairs) {
		Properties props = new Properties();
		for (int i = 0; i < pairs.length; i += 2) {
			props.setProperty(pairs[i], pairs[i + 1]);
		}
		return props;
	}

	private static Properties with(Properties props, String key, String value) {
		Properties copy = new Properties();
		copy.putAll(props);
		copy.setProperty(key, value);
		return copy;
	}

	private static Properties without(Properties props, String key) {
		Properties copy = new Properties();
		copy.putAll(props);
		copy.remove(key);
		return copy;
	}

	private static void assertRefused(ShardingSphereAlgorithm algorithm, Properties props, String... parts) {
		assertThatExceptionOfType(AlgorithmInitializationException.class).isThrownBy(() -> algorithm.init(props))
			.satisfies((ex) -> assertThat(ex.getMessage()).contains(parts)
				.contains("'" + algorithm.getType() + "' initialization failed"));
	}

}
