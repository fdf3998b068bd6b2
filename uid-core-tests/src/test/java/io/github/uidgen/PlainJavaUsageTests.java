package io.github.uidgen;

import java.nio.file.Path;

import io.github.uidgen.snowflake.CachedUidGenerator;
import io.github.uidgen.snowflake.DefaultUidGenerator;
import io.github.uidgen.worker.StaticWorkerIdAssigner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The README's plain-Java example, kept compiling and working: both generators built without Spring.
 */
class PlainJavaUsageTests {

	@Test
	void defaultGeneratorInAFewLines(@TempDir Path dir) {
		try (DefaultUidGenerator generator = DefaultUidGenerator.builder()
			.workerIdAssigner(new StaticWorkerIdAssigner(1, dir.resolve("uid-state/worker-1.state")))
			.build()) {
			long id = generator.getUID();
			DecodedUid parts = generator.decode(id);
			assertThat(parts.workerId()).isEqualTo(1);
			assertThat(generator.parseUID(id)).contains("\"workerId\":\"1\"");
		}
	}

	@Test
	void cachedGeneratorInAFewLines(@TempDir Path dir) {
		try (CachedUidGenerator generator = CachedUidGenerator.builder()
			.workerIdAssigner(new StaticWorkerIdAssigner(2, dir.resolve("uid-state/worker-2.state")))
			.build()) {
			long first = generator.getUID();
			long second = generator.getUID();
			assertThat(second).isGreaterThan(first);
			assertThat(generator.decode(second).workerId()).isEqualTo(2);
		}
	}

}
