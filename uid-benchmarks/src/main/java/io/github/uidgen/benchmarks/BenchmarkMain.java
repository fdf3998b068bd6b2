package io.github.uidgen.benchmarks;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * Entry point of the benchmark jar: runs one part of the suite, or all of it, and prints the tables.
 *
 * <pre>
 * java -jar uid-benchmarks.jar all                  # everything, about 23 minutes on 2 cores
 * java -jar uid-benchmarks.jar throughput --threads 1,2,8 --rounds 3 --iterations 3
 * java -jar uid-benchmarks.jar saturation --threads 1,2,8 --ids 24000000 --repeats 3
 * java -jar uid-benchmarks.jar jmh GetUidBenchmark -p contender=UID_CACHED -t 2 -prof stack
 * </pre>
 */
public final class BenchmarkMain {

	private static final String USAGE = """
			usage: java -jar uid-benchmarks.jar <part> [--option value ...]
			parts:
			  all          every part below except jmh, with their defaults
			  throughput   JMH throughput at --threads (1,2,8) of --contenders
			  latency      JMH sample-mode percentiles of getUID at --threads (1)
			  cost         uncontended cost per call of the Snowflake-like generators, paced under their cap
			  meters       paced cost per call of our generators bare and with the starter's meters bound
			  alloc        bytes allocated per getUID and per ring take (JMH -prof gc)
			  saturation   T threads x N IDs from one generator, all kept and checked (--threads, --ids,
			               --capped-ids, --repeats)
			  sustained    T threads take IDs for --seconds (30), counted every 100 ms: burst, then ceiling
			               (--contenders, --threads)
			  memory       retained heap of the cached generators (--repeats)
			  idle         CPU used by started generators left idle for --seconds (60) (--contenders)
			  claims       claim time of each assigner at 0 to 1,000 live leases in its store (--stores,
			               --levels, --claims, --mariadb-url, --postgresql-url, --redis)
			  virtual      1,000 and 10,000 virtual threads against platform threads doing the same work: saturation
			               runs (--contenders, --threads, --ids, --repeats) and JMH (--jmh-contenders); Java 21+
			  mybatis-plus JMH: MyBatis-Plus's nextId through uid against getUID (--rounds, --warmup, --iterations)
			  sharding-inserts  inserts through ShardingSphere-JDBC, key generator UID against SNOWFLAKE, on
			               MariaDB (--threads 4, --seconds 5, --repeats 3, --server-url jdbc:mysql://host:port/?…)
			  segment-keys 10,000 segment keys on Redis: threads, RSS, heap per key, first numbers, steady rate
			               (--keys, --threads, --seconds, --redis, --virtual)
			  startup      time to first ID of the packaged sample, per store, beside the same application without
			               uid, first start and restart (--setups, --variants, --rounds 5, --java, --jvm-options,
			               --sample-jar, --baseline-jar, --mariadb-url, --redis, --work-dir); not part of all
			  fleet        N instances (--instances 1000) on one throwaway store each (--stores redis,zookeeper,db):
			               all start at once, steady state (--steady-seconds 120), fleet read, store restarted on its
			               data and empty (--outage-seconds 10), rolling restart, instance 1,025; not part of all
			  jmh          hands the remaining arguments to JMH's own command line (org.openjdk.jmh.Main)
			JMH options: --rounds (3: each round is one fork of every generator in turn) --warmup (2)
			  --iterations (3, of 1 s each) --log-dir (benchmark-logs)
			all also takes --sustained-seconds (30), --idle-seconds (60) and the claims options
			contenders: %s
			""";

	private BenchmarkMain() {
	}

	public static void main(String[] args) throws Exception {
		if (args.length == 0 || args[0].equals("-h") || args[0].equals("--help")) {
			System.out.printf(USAGE, Contender.labels());
			return;
		}
		String part = args[0];
		String[] rest = Arrays.copyOfRange(args, 1, args.length);
		if (part.equals("jmh")) {
			org.openjdk.jmh.Main.main(rest);
			return;
		}
		if (part.equals("sharding-inserts")) {
			Arguments options = new Arguments(rest, "threads", "seconds", "repeats", "server-url");
			CpuSnapshot before = CpuSnapshot.take();
			String loadBefore = loadAverage();
			ShardingSphereInserts.run(options.get("server-url", ShardingSphereInserts.DEFAULT_URL),
					options.getInt("threads", 4), options.getInt("seconds", 5), options.getInt("repeats", 3),
					System.out);
			printPartCpu(System.out, before, loadBefore);
			System.exit(0);
		}
		if (part.equals("virtual")) {
			CpuSnapshot before = CpuSnapshot.take();
			String loadBefore = loadAverage();
			VirtualThreadRuns.main(rest);
			printPartCpu(System.out, before, loadBefore);
			System.exit(0);
		}
		if (part.equals("startup")) {
			StartupTime.main(rest);
			System.exit(0);
		}
		if (part.equals("fleet")) {
			FleetSimulation.main(rest);
			System.exit(0);
		}
		if (part.equals("memory")) {
			MemoryFootprint.main(rest);
			return;
		}
		if (part.equals("saturation") || part.equals("sustained") || part.equals("idle") || part.equals("claims")
				|| part.equals("segment-keys")) {
			CpuSnapshot before = CpuSnapshot.take();
			String loadBefore = loadAverage();
			switch (part) {
				case "saturation" -> SaturationRunner.main(rest);
				case "sustained" -> SustainedRate.main(rest);
				case "idle" -> IdleCpu.main(rest);
				case "segment-keys" -> SegmentKeys.main(rest);
				default -> ClaimTime.main(rest);
			}
			printPartCpu(System.out, before, loadBefore);
			return;
		}
		Arguments arguments = new Arguments(rest, "rounds", "warmup", "iterations", "log-dir", "threads",
				"contenders", "ids", "capped-ids", "repeats", "sustained-seconds", "idle-seconds", "stores", "levels",
				"claims", "mariadb-url", "postgresql-url", "redis");
		PrintStream out = System.out;
		CpuSnapshot before = CpuSnapshot.take();
		String loadBefore = loadAverage();
		JmhSuite jmh = new JmhSuite(Path.of(arguments.get("log-dir", "benchmark-logs")), arguments.getInt("rounds", 3),
				arguments.getInt("warmup", 2), arguments.getInt("iterations", 3), out);
		switch (part) {
			case "throughput" -> jmh.throughput(arguments.getContenders("contenders", THROUGHPUT_CONTENDERS),
					arguments.getInts("threads", "1,2,8"));
			case "latency" -> jmh.latency(arguments.getContenders("contenders", THROUGHPUT_CONTENDERS),
					arguments.getInt("threads", 1));
			case "cost" -> jmh.pacedCost(arguments.getContenders("contenders", PACED_CONTENDERS));
			case "meters" -> jmh.pacedCost(arguments.getContenders("contenders", METER_CONTENDERS));
			case "alloc" -> jmh.allocation(arguments.getContenders("contenders", ALLOCATION_CONTENDERS),
					arguments.getInt("threads", 1));
			case "mybatis-plus" -> MybatisPlusCost.run(Path.of(arguments.get("log-dir", "benchmark-logs")),
					arguments.getInt("rounds", 3), arguments.getInt("warmup", 2), arguments.getInt("iterations", 3), out);
			case "all" -> {
				all(arguments, jmh, out);
				System.exit(0);
			}
			default -> {
				System.err.printf("Unknown part '%s'.%n", part);
				System.err.printf(USAGE, Contender.labels());
				System.exit(2);
			}
		}
		printPartCpu(out, before, loadBefore);
		System.exit(0);
	}

	/** Says how busy the machine was while a single part ran, so its figures can be judged. */
	private static void printPartCpu(PrintStream out, CpuSnapshot before, String loadBefore) {
		out.printf("Load average (1/5/15 min) before: %s, after: %s. CPU during this part: %s.%n%n", loadBefore,
				loadAverage(), CpuSnapshot.take().since(before));
	}

	static final String THROUGHPUT_CONTENDERS = "uid-cached,uid-cached-defaults,uid-default,uid-segment,baidu-cached,"
			+ "cosid-segment-chain,cosid-snowflake,hutool-snowflake,atomic-long-cas,atomic-long";

	static final String PACED_CONTENDERS = "uid-default,hutool-snowflake,cosid-snowflake";

	/** Our generators at their defaults, each bare and with the starter's meters bound. */
	static final String METER_CONTENDERS = "uid-default,uid-default-metered,uid-cached-defaults,"
			+ "uid-cached-defaults-metered,uid-segment,uid-segment-metered";

	static final String ALLOCATION_CONTENDERS = "uid-default,uid-cached,uid-cached-defaults,uid-segment,baidu-cached,"
			+ "cosid-segment-chain";

	private static void all(Arguments arguments, JmhSuite jmh, PrintStream out) throws Exception {
		Instant start = Instant.now();
		String loadBefore = loadAverage();
		String idleBefore = CpuSnapshot.sample(3000);
		CpuSnapshot cpuAtStart = CpuSnapshot.take();
		printMachine(out, idleBefore);
		CpuSnapshot part = CpuSnapshot.take();
		jmh.throughput(arguments.getContenders("contenders", THROUGHPUT_CONTENDERS),
				arguments.getInts("threads", "1,2,8"));
		part = printCpu(out, part);
		SaturationRunner.run(arguments.getContenders("contenders", SaturationRunner.DEFAULT_CONTENDERS),
				arguments.getInts("threads", "1,2,8"), arguments.getInt("ids", 24_000_000),
				arguments.getInt("capped-ids", 8_000_000), arguments.getInt("repeats", 3), out);
		part = printCpu(out, part);
		SustainedRate.run(Contender.valueOfAll(SustainedRate.DEFAULT_CONTENDERS), arguments.getInts("threads", "1,2,8"),
				arguments.getInt("sustained-seconds", 30), out);
		part = printCpu(out, part);
		jmh.latency(Contender.valueOfAll(THROUGHPUT_CONTENDERS), 1);
		part = printCpu(out, part);
		// One paced run for both tables: the cost per call against the peers, and the price of the meters.
		jmh.pacedCost(new ArrayList<>(new LinkedHashSet<>(Contender.valueOfAll(PACED_CONTENDERS + ","
				+ METER_CONTENDERS))));
		part = printCpu(out, part);
		jmh.allocation(Contender.valueOfAll(ALLOCATION_CONTENDERS), 1);
		memoryInChildJvm(out);
		part = printCpu(out, part);
		IdleCpu.run(Contender.valueOfAll(IdleCpu.DEFAULT_CONTENDERS), arguments.getInt("idle-seconds", 60), out);
		part = printCpu(out, part);
		ClaimTime.run(arguments.passOn("stores", "levels", "claims", "mariadb-url", "postgresql-url", "redis")
			.toArray(String[]::new), arguments.getInts("levels", ClaimTime.DEFAULT_LEVELS), out);
		part = printCpu(out, part);
		MybatisPlusCost.run(Path.of(arguments.get("log-dir", "benchmark-logs")), arguments.getInt("rounds", 3),
				arguments.getInt("warmup", 2), arguments.getInt("iterations", 3), out);
		part = printCpu(out, part);
		ShardingSphereInserts.run(ShardingSphereInserts.DEFAULT_URL, 4, 5, 3, out);
		part = printCpu(out, part);
		SegmentKeys.run(SegmentKeys.DEFAULT_KEYS, arguments.getInts("threads", SegmentKeys.DEFAULT_THREADS), 4,
				arguments.get("redis", "127.0.0.1:6379"), false, out);
		printCpu(out, part);
		out.printf("Load average (1/5/15 min) before: %s, after: %s. CPU over the whole run (ours included): %s. "
				+ "Total time %s.%n", loadBefore, loadAverage(), CpuSnapshot.take().since(cpuAtStart),
				Duration.between(start, Instant.now()).truncatedTo(ChronoUnit.SECONDS));
	}

	private static CpuSnapshot printCpu(PrintStream out, CpuSnapshot since) {
		CpuSnapshot now = CpuSnapshot.take();
		out.printf("CPU during this part: %s.%n%n", now.since(since));
		return now;
	}

	private static void memoryInChildJvm(PrintStream out) throws IOException, InterruptedException {
		String java = ProcessHandle.current().info().command().orElse("java");
		Process process = new ProcessBuilder(java, "-Xms512m", "-Xmx512m", "-Djdk.attach.allowAttachSelf=true",
				"-cp", System.getProperty("java.class.path"), MemoryFootprint.class.getName())
			.redirectError(ProcessBuilder.Redirect.INHERIT)
			.start();
		out.print(new String(process.getInputStream().readAllBytes()));
		if (process.waitFor() != 0) {
			throw new IllegalStateException("The memory measurement failed");
		}
	}

	private static void printMachine(PrintStream out, String idleBefore) throws IOException {
		out.printf("# uid benchmarks%n%n");
		out.printf("- date: %s%n", Instant.now().truncatedTo(ChronoUnit.SECONDS));
		out.printf("- machine: %d cores (availableProcessors), CPU %s%n", Runtime.getRuntime().availableProcessors(),
				cpuModel());
		out.printf("- JDK: %s %s (%s)%n", System.getProperty("java.vm.name"), System.getProperty("java.runtime.version"),
				System.getProperty("java.vm.vendor"));
		out.printf("- OS: %s %s%n", System.getProperty("os.name"), System.getProperty("os.version"));
		out.printf("- load average at start (1/5/15 min): %s; CPU in the 3 s before the run: %s%n%n", loadAverage(),
				idleBefore);
		out.println("Generators:");
		for (Contender contender : Contender.values()) {
			out.printf("- `%s`: %s%n", contender.label(), contender.description());
		}
		out.println();
	}

	private static String cpuModel() throws IOException {
		Path cpuinfo = Path.of("/proc/cpuinfo");
		if (!Files.isReadable(cpuinfo)) {
			return System.getProperty("os.arch");
		}
		List<String> lines = Files.readAllLines(cpuinfo);
		return lines.stream()
			.filter(line -> line.startsWith("model name"))
			.map(line -> line.substring(line.indexOf(':') + 1).trim())
			.findFirst()
			.orElse(System.getProperty("os.arch"));
	}

	private static String loadAverage() {
		try {
			String[] parts = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
			return parts[0] + " / " + parts[1] + " / " + parts[2];
		}
		catch (IOException | RuntimeException ex) {
			return "unknown";
		}
	}

}
