package io.github.uidgen.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * How the start-up benchmark launches a jar: as it is, extracted, and with the JVM's and Spring's ahead-of-time help
 * (Spring AOT's generated initialisation, a CDS archive, the JDK 25 AOT cache), each prepared the way Spring Boot and
 * the JDK document it.
 */
enum StartupVariant {

	/** {@code java -jar app.jar}. */
	JAR("java -jar app.jar", false, false, Archive.NONE),

	/** {@code java -jar extracted/app.jar} after {@code java -Djarmode=tools -jar app.jar extract}. */
	EXTRACTED("extracted", true, false, Archive.NONE),

	/** Extracted, with a dynamic CDS archive trained by a start that exits once the context is refreshed. */
	CDS("extracted + CDS", true, false, Archive.CDS),

	/** {@code java -Dspring.aot.enabled=true -jar app.jar}: the initialisation {@code process-aot} generated. */
	SPRING_AOT("Spring AOT", false, true, Archive.NONE),

	/** Extracted, Spring AOT and a CDS archive trained with it. */
	SPRING_AOT_CDS("extracted + Spring AOT + CDS", true, true, Archive.CDS),

	/** Extracted, with a JDK 25 AOT cache ({@code -XX:AOTCache}) trained by a start that exits after refresh. */
	AOT_CACHE("extracted + AOT cache", true, false, Archive.AOT_CACHE),

	/** Extracted, Spring AOT and an AOT cache trained with it. */
	SPRING_AOT_AOT_CACHE("extracted + Spring AOT + AOT cache", true, true, Archive.AOT_CACHE);

	static final String ALL = "jar,extracted,cds,spring-aot,spring-aot-cds,aot-cache,spring-aot-aot-cache";

	private final String label;

	private final boolean extracted;

	private final boolean springAot;

	private final Archive archive;

	StartupVariant(String label, boolean extracted, boolean springAot, Archive archive) {
		this.label = label;
		this.extracted = extracted;
		this.springAot = springAot;
		this.archive = archive;
	}

	String label() {
		return this.label;
	}

	String option() {
		return name().toLowerCase().replace('_', '-');
	}

	boolean springAot() {
		return this.springAot;
	}

	/** Whether the JVM can run this variant: the AOT cache needs JDK 25 ({@code -XX:AOTCache}, JEP 483 and 514). */
	boolean runsOn(int javaFeature) {
		return this.archive != Archive.AOT_CACHE || javaFeature >= 25;
	}

	static List<StartupVariant> parse(String names) {
		List<StartupVariant> variants = new ArrayList<>();
		for (String name : names.split(",")) {
			String wanted = name.trim();
			variants.add(Arrays.stream(values())
				.filter((variant) -> variant.option().equals(wanted))
				.findFirst()
				.orElseThrow(
						() -> new IllegalArgumentException("Unknown variant '" + wanted + "'; variants: " + ALL)));
		}
		return variants;
	}

	/**
	 * Prepares a jar for this variant: extracts it and trains the archive, once per setup (the archive holds the
	 * classes that setup's start loads).
	 * @param java the {@code java} launcher
	 * @param jvmOptions the options every measured start gets
	 * @param jar the executable jar
	 * @param dir a folder of this variant and setup's own
	 * @param training the application arguments of the training start (ports included)
	 * @return the command that starts the application, its arguments still to be added
	 */
	List<String> prepare(String java, List<String> jvmOptions, Path jar, Path dir, List<String> training)
			throws IOException, InterruptedException {
		Files.createDirectories(dir);
		Path target = jar;
		if (this.extracted) {
			Path extractedDir = dir.resolve("extracted");
			if (!Files.exists(extractedDir)) {
				run(dir, List.of(java, "-Djarmode=tools", "-jar", jar.toString(), "extract", "--destination",
						extractedDir.toString()), dir.resolve("extract.log"));
			}
			target = extractedDir.resolve(jar.getFileName());
		}
		List<String> base = new ArrayList<>();
		base.add(java);
		base.addAll(jvmOptions);
		if (this.springAot) {
			base.add("-Dspring.aot.enabled=true");
		}
		List<String> runOptions = new ArrayList<>();
		switch (this.archive) {
			case CDS -> {
				Path archiveFile = dir.resolve("app.jsa");
				train(dir, base, List.of("-XX:ArchiveClassesAtExit=" + archiveFile), target, training);
				runOptions.add("-XX:SharedArchiveFile=" + archiveFile);
			}
			case AOT_CACHE -> {
				Path configuration = dir.resolve("app.aotconf");
				Path cache = dir.resolve("app.aot");
				train(dir, base, List.of("-XX:AOTMode=record", "-XX:AOTConfiguration=" + configuration), target,
						training);
				List<String> create = new ArrayList<>(base);
				create.addAll(List.of("-XX:AOTMode=create", "-XX:AOTConfiguration=" + configuration,
						"-XX:AOTCache=" + cache, "-jar", target.toString()));
				run(dir, create, dir.resolve("aot-create.log"));
				runOptions.add("-XX:AOTCache=" + cache);
			}
			default -> {
			}
		}
		List<String> command = new ArrayList<>(base);
		command.addAll(runOptions);
		command.addAll(List.of("-jar", target.toString()));
		return command;
	}

	/** A training start: the application refreshes its context and exits, as Spring Boot documents for CDS. */
	private static void train(Path dir, List<String> base, List<String> trainingOptions, Path target,
			List<String> arguments) throws IOException, InterruptedException {
		List<String> command = new ArrayList<>(base);
		command.addAll(trainingOptions);
		command.addAll(List.of("-Dspring.context.exit=onRefresh", "-jar", target.toString()));
		command.addAll(arguments);
		Path workDir = dir.resolve("training");
		Files.createDirectories(workDir);
		run(workDir, command, dir.resolve("training.log"));
	}

	private static void run(Path workDir, List<String> command, Path log) throws IOException, InterruptedException {
		Process process = new ProcessBuilder(command).directory(workDir.toFile())
			.redirectErrorStream(true)
			.redirectOutput(log.toFile())
			.start();
		if (!process.waitFor(5, TimeUnit.MINUTES)) {
			process.destroyForcibly();
			throw new IllegalStateException("Timed out: " + String.join(" ", command) + "; see " + log);
		}
		if (process.exitValue() != 0) {
			throw new IllegalStateException("Failed (exit " + process.exitValue() + "): " + String.join(" ", command)
					+ "; see " + log);
		}
	}

	private enum Archive {

		NONE, CDS, AOT_CACHE

	}

}
