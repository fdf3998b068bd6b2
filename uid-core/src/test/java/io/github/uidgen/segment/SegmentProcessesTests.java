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

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Three separate JVMs, each an instance with four taking threads, take a million IDs each from one key of a shared
 * store at the same time: all three million are distinct and each thread's strictly increase. A fourth JVM started
 * afterwards, as a restarted instance, starts above every ID handed out before.
 */
class SegmentProcessesTests {

	private static final int PROCESSES = 3;

	private static final int THREADS = 4;

	private static final int PER_THREAD = 250_000;

	@ParameterizedTest
	@EnumSource(SegmentBackend.class)
	void threeProcessesTakeDistinctIdsAndARestartedOneStartsAboveThemAll(SegmentBackend backend, @TempDir Path dir)
			throws Exception {
		try (SegmentBackend.Open open = backend.open()) {
			open.store.claim("orders", 1);
			List<Process> processes = new ArrayList<>();
			for (int p = 0; p < PROCESSES; p++) {
				processes.add(launch(backend, open.name, dir.resolve("run"), THREADS, PER_THREAD));
			}
			for (Process process : processes) {
				awaitDone(process);
			}
			long[][] ids = read(dir.resolve("run"));
			assertThat(ids).hasNumberOfRows(PROCESSES * THREADS);
			for (long[] thread : ids) {
				assertThat(thread).hasSize(PER_THREAD);
				assertThat(TakingThreads.firstNotIncreasing(thread)).as("per thread strictly increasing").isEqualTo(-1);
			}
			assertThat(TakingThreads.duplicates(ids)).isZero();
			long highest = Arrays.stream(ids).flatMapToLong(Arrays::stream).max().orElseThrow();

			awaitDone(launch(backend, open.name, dir.resolve("restart"), 1, 1000));
			long[][] restarted = read(dir.resolve("restart"));
			assertThat(restarted[0][0]).as("the restarted instance's first ID").isGreaterThan(highest);
			assertThat(TakingThreads.duplicates(restarted[0], Arrays.stream(ids).flatMapToLong(Arrays::stream)
				.toArray())).isZero();
		}
	}

	private static Process launch(SegmentBackend backend, String name, Path out, int threads, int perThread)
			throws IOException {
		Files.createDirectories(out);
		List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
				"-XX:TieredStopAtLevel=1", "-Xmx256m", "-cp", System.getProperty("java.class.path"),
				SegmentTakerProcess.class.getName(), backend.name(), name, "orders", Integer.toString(threads),
				Integer.toString(perThread), out.toString());
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
