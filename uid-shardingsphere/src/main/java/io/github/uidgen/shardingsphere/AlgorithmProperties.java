package io.github.uidgen.shardingsphere;

import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;

import org.apache.shardingsphere.infra.algorithm.core.ShardingSphereAlgorithm;
import org.apache.shardingsphere.infra.algorithm.core.exception.AlgorithmInitializationException;

/**
 * Reads the {@code props} of one algorithm as ShardingSphere's own algorithms do in {@code init}, refusing a
 * missing, malformed or unknown key with ShardingSphere's {@link AlgorithmInitializationException}, whose message
 * names the key, the value and the fix.
 */
final class AlgorithmProperties {

	private final ShardingSphereAlgorithm algorithm;

	private final Properties props;

	AlgorithmProperties(ShardingSphereAlgorithm algorithm, Properties props, Set<String> keys) {
		this.algorithm = algorithm;
		this.props = (props != null) ? props : new Properties();
		Set<String> unknown = new TreeSet<>(this.props.stringPropertyNames());
		unknown.removeAll(keys);
		if (!unknown.isEmpty()) {
			throw fail("unknown " + ((unknown.size() == 1) ? "property " : "properties ") + unknown + " = "
					+ unknown.stream().map(this.props::getProperty).toList() + "; " + (keys.isEmpty()
							? "type " + algorithm.getType() + " takes no properties: remove them"
							: "the properties of type " + algorithm.getType() + " are " + new TreeSet<>(keys)));
		}
	}

	String required(String key, String example) {
		String value = this.props.getProperty(key);
		if (value == null || value.isBlank()) {
			throw fail("property '" + key + "' is missing; set it, for example " + key + ": " + example);
		}
		return value.trim();
	}

	String optional(String key, String fallback) {
		String value = this.props.getProperty(key);
		return (value == null || value.isBlank()) ? fallback : value.trim();
	}

	int positiveInt(String key, int fallback, boolean required) {
		String value = required ? required(key, "4") : optional(key, null);
		if (value == null) {
			return fallback;
		}
		try {
			int number = Integer.parseInt(value);
			if (number > 0) {
				return number;
			}
		}
		catch (NumberFormatException ex) {
			// reported below
		}
		throw fail("property '" + key + "' = '" + value + "' is not a positive whole number; set it to 1 or more");
	}

	AlgorithmInitializationException fail(String reason) {
		return new AlgorithmInitializationException(this.algorithm, "%s", reason);
	}

}
