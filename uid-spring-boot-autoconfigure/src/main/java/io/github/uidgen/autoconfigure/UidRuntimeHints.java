package io.github.uidgen.autoconfigure;

import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;

/**
 * Resources uid-core reads at run time, for AOT processing and native images: the DDL the db assigner creates its
 * tables with (and prints when one is missing) and the Lua scripts of the redis assigner.
 */
class UidRuntimeHints implements RuntimeHintsRegistrar {

	@Override
	public void registerHints(RuntimeHints hints, ClassLoader classLoader) {
		hints.resources()
			.registerPattern("io/github/uidgen/worker/jdbc/*.sql")
			.registerPattern("io/github/uidgen/worker/redis/*.lua");
	}

}
