package io.github.uidgen.autoconfigure;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;
import org.springframework.core.io.support.SpringFactoriesLoader;
import org.springframework.jdbc.datasource.ConnectionProxy;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link UidRuntimeHints}: registered for AOT processing, and covering every SQL and Lua resource
 * uid-core ships.
 */
class UidRuntimeHintsTests {

	@Test
	void everyBundledSqlAndLuaResourceIsRegistered() throws IOException {
		RuntimeHints hints = new RuntimeHints();
		List<RuntimeHintsRegistrar> registrars = SpringFactoriesLoader
			.forResourceLocation("META-INF/spring/aot.factories")
			.load(RuntimeHintsRegistrar.class);
		assertThat(registrars).hasAtLeastOneElementOfType(UidRuntimeHints.class);
		registrars.forEach((registrar) -> registrar.registerHints(hints, getClass().getClassLoader()));

		List<String> bundled = new ArrayList<>();
		PathMatchingResourcePatternResolver resolver = new PathMatchingResourcePatternResolver();
		for (String pattern : List.of("io/github/uidgen/worker/jdbc/*.sql", "io/github/uidgen/worker/redis/*.lua")) {
			for (Resource resource : resolver.getResources("classpath*:" + pattern)) {
				bundled.add(pattern.substring(0, pattern.lastIndexOf('/') + 1) + resource.getFilename());
			}
		}
		assertThat(bundled).contains("io/github/uidgen/worker/jdbc/schema-mysql.sql",
				"io/github/uidgen/worker/jdbc/schema-postgresql.sql", "io/github/uidgen/worker/redis/registry.lua");
		assertThat(bundled).allSatisfy(
				(resource) -> assertThat(RuntimeHintsPredicates.resource().forResource(resource)).accepts(hints));
	}

	@Test
	void theProxyOfAConnectionWhoseRoundTripsTheDbAssignerBoundsIsRegistered() {
		RuntimeHints hints = new RuntimeHints();
		new UidRuntimeHints().registerHints(hints, getClass().getClassLoader());
		assertThat(RuntimeHintsPredicates.proxies().forInterfaces(ConnectionProxy.class)).accepts(hints);
	}

}
