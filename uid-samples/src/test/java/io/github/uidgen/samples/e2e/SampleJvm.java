package io.github.uidgen.samples.e2e;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The command line that starts the sample: {@code java -jar} on the packaged jar, with a class-data-sharing
 * archive when one could be made.
 *
 * <p>The fault tests start the sample dozens of times, a dozen at once in the claim storms, on two cores; loading
 * and verifying Spring's classes is most of a start's CPU. So, once per test run, the packaged jar is extracted
 * ({@code -Djarmode=tools extract}, Spring Boot's documented form for CDS) and one training start that exits after
 * the context refresh writes a dynamic CDS archive of the classes it loaded; every start then maps that archive and
 * costs about half the CPU. The application, its classes and its configuration are the packaged jar's own. When
 * anything in the preparation fails, or {@code -Duid.samples.cds=false} is set, the packaged jar runs as is.
 */
final class SampleJvm {

	/**
	 * JVM options that make the sample start on less CPU on a small machine: the C1 compiler only, one compiler
	 * thread, and the serial collector, whose single thread does not compete with the other instances' on two cores.
	 */
	private static final List<String> JVM_OPTIONS = List.of("-XX:TieredStopAtLevel=1", "-XX:CICompilerCount=1",
			"-XX:+UseSerialGC", "-Xshare:auto", "-Xmx256m");

	private static final long PREPARE_TIMEOUT_SECONDS = 120;

	private static Launcher launcher;

	private SampleJvm() {
	}

	/**
	 * Returns the command that starts the sample, up to and including the jar; application arguments follow.
	 * @param jvmOptions further JVM options, such as {@code -Dspring.aot.enabled=true}
	 * @return {@code java <options> -jar <jar>}
	 */
	static List<String> command(List<String> jvmOptions) {
		return launcher().command(jvmOptions);
	}

	private static synchronized Launcher launcher() {
		if (launcher == null) {
			launcher = prepare();
		}
		return launcher;
	}

	private static Launcher prepare() {
		Path jar = E2eSettings.jar();
		Launcher plain = new Launcher(jar, List.of());
		if ("false".equals(System.getProperty("uid.samples.cds"))) {
			return plain;
		}
		try {
			String name = "cds-" + Files.getLastModifiedTime(jar).toMillis();
			Path dir = E2eSettings.newWorkDir(name);
			// The test JVMs side by side share the archive: one makes it while the others wait, instead of each
			// extracting into and training onto the same files at once.
			try (FileChannel channel = FileChannel.open(dir.getParent().resolve(name + ".lock"),
					StandardOpenOption.CREATE, StandardOpenOption.WRITE); FileLock lock = channel.lock()) {
				return prepare(jar, name, dir, plain);
			}
		}
		catch (IOException | RuntimeException ex) {
			System.err.println("Could not prepare a CDS archive (" + ex + "); starting the sample from " + jar);
		}
		return plain;
	}

	/** Extracts the jar and trains the archive unless an earlier test JVM of this build already did. */
	private static Launcher prepare(Path jar, String name, Path dir, Launcher plain) throws IOException {
		removeOlderArchives(dir.getParent(), name);
		Path extracted = dir.resolve("app");
		Path thinJar = extracted.resolve(jar.getFileName());
		Path extractedMarker = dir.resolve("extracted");
		Path archive = dir.resolve("sample.jsa");
		if (!Files.exists(extractedMarker)) {
			run(dir, "extract", List.of(java(), "-Djarmode=tools", "-jar", jar.toString(), "extract",
					"--force", "--destination", extracted.toString()));
			Files.createFile(extractedMarker);
		}
		if (!Files.isRegularFile(archive)) {
			Path training = Files.createDirectories(dir.resolve("training"));
			Launcher trainer = new Launcher(thinJar, List.of("-XX:ArchiveClassesAtExit=" + archive));
			List<String> train = new ArrayList<>(trainer.command(List.of("-Dspring.context.exit=onRefresh")));
			train.add("--server.port=0");
			train.add("--management.server.port=0");
			run(training, "training", train);
		}
		if (Files.isRegularFile(archive)) {
			return new Launcher(thinJar, List.of("-XX:SharedArchiveFile=" + archive));
		}
		System.err.println("No CDS archive was written; starting the sample from " + jar);
		return plain;
	}

	/** Archives of earlier builds of the jar are useless (and 45 MB each). */
	private static void removeOlderArchives(Path base, String current) throws IOException {
		try (Stream<Path> dirs = Files.list(base)) {
			for (Path old : dirs.filter((dir) -> Files.isDirectory(dir)
					&& dir.getFileName().toString().startsWith("cds-")
					&& !dir.getFileName().toString().equals(current)).toList()) {
				try (Stream<Path> files = Files.walk(old)) {
					for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
						Files.delete(file);
					}
				}
			}
		}
	}

	private static String java() {
		return Path.of(System.getProperty("java.home"), "bin", "java").toString();
	}

	private static void run(Path dir, String name, List<String> command) throws IOException {
		Path log = dir.resolve(name + ".log");
		Process process = new ProcessBuilder(command).directory(dir.toFile())
			.redirectErrorStream(true)
			.redirectOutput(log.toFile())
			.start();
		try {
			if (!process.waitFor(PREPARE_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
				process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
				throw new IllegalStateException(name + " did not finish within " + PREPARE_TIMEOUT_SECONDS
						+ " s; see " + log);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			process.destroyForcibly();
			throw new IllegalStateException("Interrupted during " + name, ex);
		}
		if (process.exitValue() != 0) {
			throw new IllegalStateException(name + " exited with " + process.exitValue() + "; see " + log);
		}
	}

	/**
	 * How the sample is started: which jar, with which options of this run's own.
	 *
	 * @param jar the fat jar, or the thin jar of the extracted one
	 * @param options options such as the CDS archive
	 */
	private record Launcher(Path jar, List<String> options) {

		List<String> command(List<String> jvmOptions) {
			List<String> command = new ArrayList<>();
			command.add(java());
			command.addAll(JVM_OPTIONS);
			command.addAll(this.options);
			command.addAll(jvmOptions);
			command.add("-jar");
			command.add(this.jar.toString());
			return command;
		}

	}

}
