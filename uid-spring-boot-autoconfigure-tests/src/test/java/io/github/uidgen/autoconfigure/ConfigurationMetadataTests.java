package io.github.uidgen.autoconfigure;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.core.io.ClassPathResource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The property metadata the configuration processor writes (what IDEs show for {@code uid.*}): every property is
 * described, shows its default, and enumerated values come with hints.
 */
class ConfigurationMetadataTests {

	private final JsonNode metadata = read();

	private static JsonNode read() {
		try (InputStream in = new ClassPathResource("META-INF/spring-configuration-metadata.json").getInputStream()) {
			return JsonMapper.builder().build().readTree(in);
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private Map<String, JsonNode> properties() {
		Map<String, JsonNode> properties = new HashMap<>();
		this.metadata.get("properties").forEach((property) -> properties.put(property.get("name").asString(), property));
		return properties;
	}

	@Test
	void everyPropertyIsDescribed() {
		Map<String, JsonNode> properties = properties();
		assertThat(properties).hasSizeGreaterThanOrEqualTo(41);
		// The processor describes the endpoint's standard settings as well.
		assertThat(properties).containsKeys("management.endpoint.uid.access",
				"management.endpoint.uid.cache.time-to-live");
		properties.forEach((name, property) -> {
			assertThat(property.get("description")).as(name).isNotNull();
			assertThat(property.get("description").asString()).as(name).hasSizeGreaterThan(15).endsWith(".");
		});
	}

	@Test
	void defaultsAreShown() {
		Map<String, JsonNode> properties = properties();
		Map<String, String> defaults = Map.ofEntries(Map.entry("uid.enabled", "true"),
				Map.entry("uid.generator", "default"), Map.entry("uid.time-unit", "milliseconds"),
				Map.entry("uid.epoch", "2025-01-01"), Map.entry("uid.time-bits", "41"),
				Map.entry("uid.worker-bits", "10"), Map.entry("uid.seq-bits", "12"),
				Map.entry("uid.datacenter-bits", "0"),
				Map.entry("uid.clock-backwards-tolerance", "1s"), Map.entry("uid.mark.reservation", "3s"),
				Map.entry("uid.mark.timeout", "5s"), Map.entry("uid.mark.max-startup-wait", "10s"),
				Map.entry("uid.cached.boost-power", "3"), Map.entry("uid.cached.padding-factor", "50"),
				Map.entry("uid.cached.schedule-interval", "1s"), Map.entry("uid.cached.max-ahead", "10s"),
				Map.entry("uid.cached.take-timeout", "5s"), Map.entry("uid.cached.take-policy", "wait"),
				Map.entry("uid.worker.db.mode", "lease"),
				Map.entry("uid.worker.db.lease-table", "UID_WORKER_LEASE"),
				Map.entry("uid.worker.db.worker-node-table", "WORKER_NODE"),
				Map.entry("uid.worker.db.initialize-schema", "false"),
				Map.entry("uid.worker.static.ordinal-offset", "0"),
				Map.entry("uid.worker.db.lease-duration", "30s"), Map.entry("uid.worker.redis.key-prefix", "uid"),
				Map.entry("uid.worker.redis.namespace", "default"),
				Map.entry("uid.worker.redis.lease-duration", "30s"),
				Map.entry("uid.worker.redis.registry-loss-margin", "30s"),
				Map.entry("uid.worker.redis.max-reconnect-delay", "500ms"),
				Map.entry("uid.worker.max-clock-skew", "2s"),
				Map.entry("uid.worker.redis.registry-trust", "same-server"),
				Map.entry("uid.worker.reclaim-lost-lease", "true"), Map.entry("uid.worker.claim-history", "256"),
				Map.entry("management.endpoint.uid.fleet-timeout", "3s"),
				Map.entry("uid.worker.zookeeper.connect-string", "localhost:2181"),
				Map.entry("uid.worker.zookeeper.root-path", "/uid"),
				Map.entry("uid.worker.zookeeper.namespace", "default"),
				Map.entry("uid.worker.zookeeper.session-timeout", "30s"),
				Map.entry("uid.worker.zookeeper.connection-timeout", "10s"),
				Map.entry("uid.worker.zookeeper.lease-duration", "30s"),
				Map.entry("uid.health.expiry-warning", "365d"), Map.entry("uid.health.readiness", "true"), Map.entry("management.health.uid.enabled", "true"),
				Map.entry("uid.jackson.write-longs-as-strings", "false"),
				Map.entry("uid.segment.key", "default"),
				Map.entry("uid.segment.store", "db"), Map.entry("uid.segment.step", "1000"),
				Map.entry("uid.segment.target-interval", "15m"), Map.entry("uid.segment.prefetch-threshold", "80"),
				Map.entry("uid.segment.wait-timeout", "5s"), Map.entry("uid.segment.db.table", "UID_SEGMENT"),
				Map.entry("uid.segment.db.initialize-schema", "false"),
				Map.entry("uid.segment.redis.key-prefix", "uid:segment"),
				Map.entry("uid.segment.redis.require-persistence", "true"));
		defaults.forEach((name, value) -> {
			assertThat(properties).as(name).containsKey(name);
			assertThat(properties.get(name).get("defaultValue")).as(name).isNotNull();
			assertThat(properties.get(name).get("defaultValue").asString()).as(name).isEqualTo(value);
		});
		// No default on purpose: the assigner must be chosen, the worker ID given, and the data center given once
		// there are data-center bits.
		assertThat(properties.get("uid.worker.assigner").get("defaultValue")).isNull();
		assertThat(properties.get("uid.worker.id").get("defaultValue")).isNull();
		assertThat(properties.get("uid.datacenter-id").get("defaultValue")).isNull();
	}

	@Test
	void enumeratedValuesHaveHints() {
		Map<String, List<String>> hints = new HashMap<>();
		this.metadata.get("hints").forEach((hint) -> {
			List<String> values = new ArrayList<>();
			hint.get("values").forEach((value) -> {
				assertThat(value.get("description")).isNotNull();
				values.add(value.get("value").asString());
			});
			hints.put(hint.get("name").asString(), values);
		});
		assertThat(hints).containsEntry("uid.generator", List.of("default", "cached", "segment"))
			.containsEntry("uid.segment.store", List.of("db", "redis", "leaf"))
			.containsEntry("uid.time-unit", List.of("milliseconds", "seconds"))
			.containsEntry("uid.worker.assigner", List.of("static", "db", "redis", "zookeeper"))
			.containsEntry("uid.worker.db.mode", List.of("lease", "disposable"))
			.containsEntry("uid.worker.static.ordinal-from", List.of("hostname", "env"))
			.containsEntry("uid.cached.take-policy", List.of("wait", "fail-fast"))
			.containsEntry("uid.worker.redis.registry-trust", List.of("same-server", "none"))
			.containsEntry("uid.text.form", List.of("decimal", "radix62", "radix36", "readable", "opaque"))
			.doesNotContainKey("uid.cached.put-policy");
	}

}
