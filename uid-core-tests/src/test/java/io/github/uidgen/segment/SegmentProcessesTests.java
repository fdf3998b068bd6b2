package io.github.uidgen.segment;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Three separate JVMs, each an instance with four taking threads per store, take a million IDs each from one key of
 * every store (MariaDB, PostgreSQL, Redis) at the same time: per store, all three million are distinct and each
 * thread's strictly increase. A fourth JVM started afterwards, as a restarted instance, starts above every ID handed
 * out before, on every store.
 */
class SegmentProcessesTests {

	private static final int PROCESSES = 3;

	private static final int THREADS = 4;

	private static final int PER_THREAD = 250_000;

	@Test
	void threeProcessesTakeDistinctIdsAndARestartedOneStartsAboveThemAll(@TempDir Path dir) throws Exception {
		List<SegmentBackend.Open> stores = new ArrayList<>();
		try {
			for (SegmentBackend backend : SegmentBackend.values()) {
				SegmentBackend.Open open = backend.open();
				stores.add(open);
				// Creates the table (or key) before the instances race for it.
				open.store.claim("orders", 1);
			}
			List<Process> processes = new ArrayList<>();
			for (int p = 0; p < PROCESSES; p++) {
				processes.add(launch(stores, dir.resolve("run"), THREADS, PER_THREAD));
			}
			for (Process process : processes) {
				awaitDone(process);
			}
			awaitDone(launch(stores, dir.resolve("restart"), 1, 1000));

			for (SegmentBackend.Open open : stores) {
				long[][] ids = read(dir.resolve("run").resolve(open.backend.name()));
				assertThat(ids).as(open.backend.name()).hasNumberOfRows(PROCESSES * THREADS);
				for (long[] thread : ids) {
					assertThat(thread).hasSize(PER_THREAD);
					assertThat(TakingThreads.firstNotIncreasing(thread)).as("%s: per thread strictly increasing",
							open.backend).isEqualTo(-1);
				}
				assertThat(TakingThreads.duplicates(ids)).as(open.backend.name()).isZero();
				long highest = Arrays.stream(ids).flatMapToLong(Arrays::stream).max().orElseThrow();
				long[] restarted = read(dir.resolve("restart").resolve(open.backend.name()))[0];
				assertThat(restarted[0]).as("%s: the restarted instance's first ID", open.backend)
					.isGreaterThan(highest);
				assertThat(TakingThreads.firstNotIncreasing(restarted)).isEqualTo(-1);
			}
		}
		finally {
			stores.forEach(SegmentBackend.Open::close);
		}
	}

	private static Process launch(List<SegmentBackend.Open> stores, Path out, int threads, int perThread)
			throws IOException {
		Files.createDirectories(out);
		List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
			.toString(), "-XX:TieredStopAtLevel=1", "-Xmx512m", "-cp", System.getProperty("java.class.path"),
				SegmentTakerProcess.class.getName(), out.toString(), "orders", Integer.toString(threads),
				Integer.toString(perThread)));
		stores.forEach((open) -> command.add(open.backend.name() + "=" + open.name));
		return new ProcessBuilder(command).redirectErrorStream(true)
			.redirectOutput(out.resolve("process-" + System.nanoTime() + ".log").toFile())
			.start();
	}

	private static void awaitDone(Process process) throws Exception {
		try {
			assertThat(process.waitFor(120, TimeUnit.SECONDS)).as("the taker process finishes within 120 s").isTrue();
			assertThat(process.exitValue()).as("exit code of the taker process").isZero();
		}
		finally {
			process.destroyForcibly();
		}
	}

	private static long[][] read(Path dir) throws IOException {
		List<long[]> threads = new ArrayList<>();
		try (Stream<Path> files = Files.list(dir)) {
			for (Path file : files.filter((f) -> f.toString().endsWith(".ids")).sorted().toList()) {
				long[] ids = new long[(int) (Files.size(file) / Long.BYTES)];
				try (DataInputStream input = new DataInputStream(new BufferedInputStream(Files.newInputStream(file),
						1 << 16))) {
					for (int i = 0; i < ids.length; i++) {
						ids[i] = input.readLong();
					}
				}
				threads.add(ids);
			}
		}
		return threads.toArray(long[][]::new);
	}

}
