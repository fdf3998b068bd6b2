package io.github.uidgen.autoconfigure;

import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.TypeReference;

/**
 * What uid-core needs at run time, for AOT processing and native images: the DDL the db assigner creates its tables
 * with (and prints when one is missing), the Lua scripts of the redis assigner, and the JDK proxy of a connection
 * whose round trips the db assigner bounds.
 */
class UidRuntimeHints implements RuntimeHintsRegistrar {

	@Override
	public void registerHints(RuntimeHints hints, ClassLoader classLoader) {
		hints.resources()
			.registerPattern("io/github/uidgen/worker/jdbc/*.sql")
			.registerPattern("io/github/uidgen/worker/redis/*.lua");
		// By name: spring-jdbc is optional.
		hints.proxies().registerJdkProxy(TypeReference.of("org.springframework.jdbc.datasource.ConnectionProxy"));
	}

}
