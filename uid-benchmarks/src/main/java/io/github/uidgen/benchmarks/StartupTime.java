package io.github.uidgen.benchmarks;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Time to first ID: how long the packaged sample takes from launch to the first {@code 200} of {@code GET /uid}, for
 * every store, side by side with the same application without uid ({@code uid-startup-baseline}), first start and
 * restart. Each round starts every setup once, in an order that moves by one place from round to round, so a busy
 * spell of the machine falls on different setups; a figure is the median over the rounds.
 *
 * <p>Before the rounds every setup is started once unmeasured (tables and registries exist afterwards, the jars are in
 * the page cache, the Redis namespace in use has waited its registry-loss margin), and each variant that needs it is
 * prepared: the jar extracted, an archive trained. A round's first start of a store setup comes with an instance ID
 * (or state folder, or segment key) never used before; its restart is the same command again once the first has
 * stopped gracefully, so it takes back its own worker ID. The log of every start is kept, and its milestone lines
 * give the phases of the second table.
 */
public final class StartupTime {

	private static final Duration FIRST_ID_TIMEOUT = Duration.ofMinutes(3);

	private StartupTime() {
	}

	public static void main(String[] args) throws Exception {
		Arguments arguments = new Arguments(args, "setups", "variants", "rounds", "java", "jvm-options", "sample-jar",
				"baseline-jar", "other-sample-jar", "other-label", "mariadb-url", "redis", "work-dir");
		String other = arguments.get("other-sample-jar", null);
		Options options = new Options(StartupSetup.parse(arguments.get("setups", StartupSetup.ALL)),
				StartupVariant.parse(arguments.get("variants", "jar")), arguments.getInt("rounds", 5),
				arguments.get("java", ProcessHandle.current().info().command().orElse("java")),
				List.of(arguments.get("jvm-options", "-Xmx512m").trim().split("\\s+")),
				jar(arguments.get("sample-jar", null), "uid-samples"),
				jar(arguments.get("baseline-jar", null), "uid-startup-baseline"),
				(other != null) ? Path.of(other).toAbsolutePath() : null, arguments.get("other-label", "other"),
				arguments.get("mariadb-url", "jdbc:mysql://127.0.0.1:3306/test"), arguments.get("redis", "127.0.0.1:6379"),
				Path.of(arguments.get("work-dir", "uid-benchmarks/target/startup")).toAbsolutePath());
		run(options, System.out);
	}

	/**
	 * What to run.
	 * @param setups the setups, the plain application first
	 * @param variants how each jar is launched
	 * @param rounds how many first starts and restarts of each
	 * @param java the {@code java} launcher of the instances
	 * @param jvmOptions the options every instance gets
	 * @param sampleJar the sample's executable jar
	 * @param baselineJar the baseline's executable jar
	 * @param otherSampleJar another build of the sample, started beside the first in every round (a commit before a
	 * change, say); {@code null} for none
	 * @param otherLabel what the other build's rows are marked with
	 * @param mariadbUrl the database of the db setups
	 * @param redis {@code host:port} of the Redis of the redis setups
	 * @param workDir where the instances run and their logs stay
	 */
	record Options(List<StartupSetup> setups, List<StartupVariant> variants, int rounds, String java,
			List<String> jvmOptions, Path sampleJar, Path baselineJar, Path otherSampleJar, String otherLabel,
			String mariadbUrl, String redis, Path workDir) {

		Path jar(StartupSetup setup, boolean other) {
			return setup.isBaseline() ? this.baselineJar : other ? this.otherSampleJar : this.sampleJar;
		}

	}

	/** One setup launched one way, from the sample jar or the other build of it. */
	private record Cell(StartupSetup setup, StartupVariant variant, boolean other) {

		Cell(StartupSetup setup, StartupVariant variant) {
			this(setup, variant, false);
		}

		String path() {
			return this.variant.option() + "/" + this.setup.option() + (this.other ? "-other" : "");
		}

		String label(Options options) {
			return this.setup.label() + (this.other ? " [" + options.otherLabel() + "]" : "");
		}

	}

	/** What the rounds measured for one cell: first starts and restarts, and the starts that failed. */
	private static final class Starts {

		final List<AppLaunch.Result> first = new ArrayList<>();

		final List<AppLaunch.Result> restart = new ArrayList<>();

		final List<String> failures = new ArrayList<>();

		List<AppLaunch.Result> of(boolean restart) {
			return restart ? this.restart : this.first;
		}

	}

	static void run(Options options, PrintStream out) throws IOException, InterruptedException {
		Instant started = Instant.now();
		CpuSnapshot cpuBefore = CpuSnapshot.take();
		int javaFeature = javaFeature(options.java());
		Files.createDirectories(options.workDir());
		Map<Cell, Starts> results = new LinkedHashMap<>();
		Map<Cell, List<String>> commands = new LinkedHashMap<>();
		try (StartupStores stores = new StartupStores(options.mariadbUrl(), options.redis())) {
			if (options.setups().stream().anyMatch(StartupSetup::needsZookeeper)) {
				stores.startZookeeper();
			}
			List<StartupSetup> available = warmUp(options, stores, out);
			for (StartupVariant variant : options.variants()) {
				for (StartupSetup setup : available) {
					if (!variant.runsOn(javaFeature) || (variant.springAot() && !setup.runsUnderSpringAot())) {
						continue;
					}
					boolean withOther = options.otherSampleJar() != null && !setup.isBaseline();
					for (boolean other : withOther ? new boolean[] { false, true } : new boolean[] { false }) {
						Cell cell = new Cell(setup, variant, other);
						progress("preparing %s", cell.path());
						List<String> training = new ArrayList<>(setup.arguments(stores, -1));
						training.addAll(List.of("--server.port=0", "--management.server.port=0"));
						commands.put(cell, variant.prepare(options.java(), options.jvmOptions(), options.jar(setup, other),
								options.workDir().resolve("prepared").resolve(cell.path()), training));
						results.put(cell, new Starts());
					}
				}
			}
			List<Cell> cells = new ArrayList<>(commands.keySet());
			for (int round = 0; round < options.rounds(); round++) {
				List<Cell> order = new ArrayList<>(cells);
				Collections.rotate(order, -round);
				for (Cell cell : order) {
					startTwice(options, stores, cell, commands.get(cell), round, results.get(cell));
				}
			}
		}
		print(options, results, javaFeature, out);
		out.printf("Rounds: %d. CPU during this part: %s. Total time %s.%n%n", options.rounds(),
				CpuSnapshot.take().since(cpuBefore), Duration.between(started, Instant.now()).truncatedTo(ChronoUnit.SECONDS));
	}

	/** Starts every setup once, unmeasured; a setup whose store cannot be reached is reported and left out. */
	private static List<StartupSetup> warmUp(Options options, StartupStores stores, PrintStream out)
			throws IOException, InterruptedException {
		List<StartupSetup> available = new ArrayList<>();
		for (StartupSetup setup : options.setups()) {
			progress("warm-up start: %s", setup.label());
			List<String> command = new ArrayList<>(List.of(options.java()));
			command.addAll(options.jvmOptions());
			command.addAll(List.of("-jar", options.jar(setup, false).toString()));
			command.addAll(setup.arguments(stores, -1));
			Path dir = options.workDir().resolve("warmup").resolve(setup.option());
			try {
				AppLaunch.run(command, dir, dir.resolve("start.log"), FIRST_ID_TIMEOUT);
				available.add(setup);
			}
			catch (IllegalStateException ex) {
				out.printf("Setup %s left out: its warm-up start failed: %s%n%n", setup.label(), ex.getMessage());
			}
		}
		return available;
	}

	private static void startTwice(Options options, StartupStores stores, Cell cell, List<String> base, int round,
			Starts starts) throws IOException, InterruptedException {
		List<String> command = new ArrayList<>(base);
		command.addAll(cell.setup().arguments(stores, round));
		Path dir = options.workDir().resolve("r" + round).resolve(cell.path());
		for (boolean restart : new boolean[] { false, true }) {
			String kind = restart ? "restart" : "first start";
			try {
				AppLaunch.Result result = AppLaunch.run(command, dir, dir.resolve((restart ? "restart" : "first") + ".log"),
						FIRST_ID_TIMEOUT);
				starts.of(restart).add(result);
				progress("round %d, %s, %s: %.0f ms", round + 1, cell.path(), kind, result.firstIdMillis());
			}
			catch (IllegalStateException ex) {
				starts.failures.add("round " + (round + 1) + ", " + kind + ": " + ex.getMessage());
				progress("round %d, %s, %s failed: %s", round + 1, cell.path(), kind, ex.getMessage());
				return;
			}
		}
	}

	private static void print(Options options, Map<Cell, Starts> results, int javaFeature, PrintStream out) {
		out.printf("### Time to first ID: launch to the first 200 of GET /uid, seconds (median of %d)%n%n",
				options.rounds());
		if (options.otherSampleJar() != null) {
			out.printf("Rows marked [%s] ran %s, started in the same rounds.%n%n", options.otherLabel(),
					options.otherSampleJar());
		}
		out.printf("JVM: %s (Java %d), options %s; sample %s, baseline %s. \"Over plain\" is the difference of the "
				+ "medians from the application without uid in the same profile (the default one for static and "
				+ "zookeeper, mysql for the db setups, redis for the redis setups).%n%n", options.java(), javaFeature,
				String.join(" ", options.jvmOptions()), options.sampleJar(), options.baselineJar().getFileName());
		for (StartupVariant variant : options.variants()) {
			if (results.keySet().stream().noneMatch((cell) -> cell.variant() == variant)) {
				out.printf("Variant %s: not run (it needs Java 25, or no setup started).%n%n", variant.label());
				continue;
			}
			out.printf("#### %s%n%n", variant.label());
			MarkdownTable table = new MarkdownTable("setup", "settings", "first start", "min – max", "over plain",
					"restart", "min – max", "over plain")
				.leftAligned(1);
			for (Map.Entry<Cell, Starts> entry : results.entrySet()) {
				if (entry.getKey().variant() != variant) {
					continue;
				}
				Starts starts = entry.getValue();
				Starts baseline = results.getOrDefault(new Cell(entry.getKey().setup().baseline(), variant), new Starts());
				table.row(entry.getKey().label(options), entry.getKey().setup().settings(),
						seconds(starts.first), range(starts.first), over(starts.first, baseline.first),
						seconds(starts.restart), range(starts.restart), over(starts.restart, baseline.restart));
			}
			table.print(out);
			printPhases(options, variant, results, out);
		}
		if (options.variants().size() > 1) {
			printVariants(options, results, out);
		}
		for (Map.Entry<Cell, Starts> entry : results.entrySet()) {
			for (String failure : entry.getValue().failures) {
				out.printf("- %s failed: %s%n", entry.getKey().path(), failure);
			}
		}
		out.println();
	}

	/** When each milestone line was logged, medians over the rounds, first start and restart. */
	private static void printPhases(Options options, StartupVariant variant, Map<Cell, Starts> results,
			PrintStream out) {
		List<String> headers = new ArrayList<>(List.of("setup", "start"));
		headers.addAll(AppLaunch.MILESTONES.keySet());
		headers.add("first ID");
		headers.add("CPU s to first ID");
		MarkdownTable table = new MarkdownTable(headers.toArray(String[]::new)).leftAligned(1);
		for (Map.Entry<Cell, Starts> entry : results.entrySet()) {
			if (entry.getKey().variant() != variant) {
				continue;
			}
			for (boolean restart : new boolean[] { false, true }) {
				List<AppLaunch.Result> starts = entry.getValue().of(restart);
				if (starts.isEmpty()) {
					continue;
				}
				List<Object> row = new ArrayList<>(List.of(entry.getKey().label(options),
						restart ? "restart" : "first start"));
				for (String milestone : AppLaunch.MILESTONES.keySet()) {
					List<Double> at = starts.stream()
						.map((start) -> start.milestones().get(milestone))
						.filter((value) -> value != null)
						.toList();
					row.add(at.isEmpty() ? "" : String.format("%.2f", new Samples(at).median() / 1000));
				}
				row.add(seconds(starts));
				row.add(String.format("%.2f",
						new Samples(starts.stream().map(AppLaunch.Result::cpuMillis).toList()).median() / 1000));
				table.row(row.toArray());
			}
		}
		out.printf("When each line was logged, seconds after launch (medians; \"worker ID claimed\" is the assigner's "
				+ "line, which the segment generator and the plain application do not write), and the CPU time the "
				+ "process had used by its first ID (all threads, user and system; 2 cores):%n%n");
		table.print(out);
	}

	/** Each setup under every variant, against the plain {@code java -jar}. */
	private static void printVariants(Options options, Map<Cell, Starts> results, PrintStream out) {
		out.printf("#### Every variant side by side%n%n");
		MarkdownTable table = new MarkdownTable("setup", "variant", "first start", "÷ java -jar", "restart",
				"÷ java -jar")
			.leftAligned(1);
		for (StartupSetup setup : options.setups()) {
			Starts jar = results.get(new Cell(setup, StartupVariant.JAR));
			for (StartupVariant variant : options.variants()) {
				Starts starts = results.get(new Cell(setup, variant));
				if (starts == null || starts.first.isEmpty()) {
					continue;
				}
				table.row(setup.label(), variant.label(), seconds(starts.first), ratio(starts.first, jar, false),
						seconds(starts.restart), ratio(starts.restart, jar, true));
			}
		}
		table.print(out);
	}

	private static String ratio(List<AppLaunch.Result> starts, Starts jar, boolean restart) {
		if (jar == null || jar.of(restart).isEmpty() || starts.isEmpty()) {
			return "";
		}
		return String.format("%.2f", median(starts) / median(jar.of(restart)));
	}

	private static double median(List<AppLaunch.Result> starts) {
		return new Samples(starts.stream().map(AppLaunch.Result::firstIdMillis).toList()).median();
	}

	private static String seconds(List<AppLaunch.Result> starts) {
		return starts.isEmpty() ? "failed" : String.format("%.2f", median(starts) / 1000);
	}

	private static String range(List<AppLaunch.Result> starts) {
		if (starts.isEmpty()) {
			return "";
		}
		Samples samples = new Samples(starts.stream().map(AppLaunch.Result::firstIdMillis).toList());
		return String.format("%.2f – %.2f", samples.min() / 1000, samples.max() / 1000);
	}

	private static String over(List<AppLaunch.Result> starts, List<AppLaunch.Result> plain) {
		if (starts.isEmpty() || plain.isEmpty() || starts == plain) {
			return "—";
		}
		return String.format("%+.2f", (median(starts) - median(plain)) / 1000);
	}

	/** The newest executable jar a module's build left in its {@code target} folder. */
	private static Path jar(String given, String module) throws IOException {
		if (given != null) {
			return Path.of(given).toAbsolutePath();
		}
		Path target = Path.of(module, "target");
		if (!Files.isDirectory(target)) {
			throw new IllegalArgumentException("No " + target + ": build it first (mvn -B -q -pl uid-benchmarks,"
					+ "uid-samples,uid-startup-baseline -am package -DskipTests), or give --sample-jar/--baseline-jar");
		}
		try (Stream<Path> files = Files.list(target)) {
			return files.filter((file) -> file.getFileName().toString().startsWith(module + "-")
					&& file.getFileName().toString().endsWith(".jar"))
				.findFirst()
				.orElseThrow(() -> new IllegalArgumentException("No " + module + " jar in " + target))
				.toAbsolutePath();
		}
	}

	/** The feature release of a {@code java} launcher, from its {@code -version} output. */
	private static int javaFeature(String java) throws IOException, InterruptedException {
		Process process = new ProcessBuilder(java, "-XshowSettings:properties", "-version").redirectErrorStream(true)
			.start();
		String output = new String(process.getInputStream().readAllBytes());
		process.waitFor();
		for (String line : output.split("\n")) {
			String trimmed = line.trim();
			if (trimmed.startsWith("java.specification.version = ")) {
				return Integer.parseInt(trimmed.substring("java.specification.version = ".length()).trim());
			}
		}
		throw new IllegalStateException("Cannot tell the version of " + java + ": " + output);
	}

	private static void progress(String format, Object... args) {
		System.err.printf("[%tT] startup: %s%n", System.currentTimeMillis(), String.format(format, args));
	}

}
