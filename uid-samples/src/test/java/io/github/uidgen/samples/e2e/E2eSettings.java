package io.github.uidgen.samples.e2e;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Stream;

/**
 * Where the end-to-end tests find the packaged jar and keep their working directories; failsafe passes both as
 * system properties, and the fallbacks serve a run from an IDE after {@code mvn package}.
 */
final class E2eSettings {

	private E2eSettings() {
	}

	static Path jar() {
		String configured = System.getProperty("uid.samples.jar");
		if (configured != null) {
			Path jar = Path.of(configured);
			if (!Files.isRegularFile(jar)) {
				throw new IllegalStateException("No sample jar at " + jar + "; run 'mvn -pl uid-samples -am verify'");
			}
			return jar;
		}
		try (Stream<Path> files = Files.list(Path.of("target"))) {
			return files.filter((file) -> file.getFileName().toString().matches("uid-samples-.*\\.jar"))
				.findFirst()
				.orElseThrow(() -> new IllegalStateException(
						"No target/uid-samples-*.jar; run 'mvn -pl uid-samples -am package' first"));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * Creates a fresh working directory for one test class.
	 * @param runId the run's unique id
	 * @return the new directory
	 */
	static Path newWorkDir(String runId) {
		Path base = Path.of(System.getProperty("uid.samples.work-dir", "target/e2e"));
		try {
			return Files.createDirectories(base.resolve(runId)).toAbsolutePath();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * Returns an id unique to this run, usable in table names and Redis keys, so that runs sharing a server never
	 * see each other's workers.
	 * @param prefix what the id is for
	 * @return for example {@code mysql_m3x9k2a1}
	 */
	static String newRunId(String prefix) {
		String time = Long.toString(System.currentTimeMillis(), 36);
		String random = Integer.toString(ThreadLocalRandom.current().nextInt(36 * 36 * 36), 36);
		return (prefix + "_" + time + random).toLowerCase(Locale.ROOT);
	}

}
