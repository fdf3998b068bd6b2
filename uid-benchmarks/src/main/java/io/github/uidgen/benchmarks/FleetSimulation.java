package io.github.uidgen.benchmarks;

import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.IntPredicate;

import io.github.uidgen.UidException;
import io.github.uidgen.UidGeneratorStatus;
import io.github.uidgen.UidLayout;
import io.github.uidgen.snowflake.DefaultUidGenerator;
import io.github.uidgen.testsupport.Duplicates;
import io.github.uidgen.worker.WorkerAssignment;
import io.github.uidgen.worker.WorkerIdAssigner;
import io.github.uidgen.worker.fleet.FleetSnapshot;
import io.github.uidgen.worker.fleet.WorkerFleet;
import io.github.uidgen.worker.redis.RedisWorkerIdAssigner;

/**
 * A fleet of N instances on one worker store, each a default generator with its own assigner, client and instance ID
 * at the starter's defaults, in one JVM against a throwaway server ({@link FleetStore}): all N start at once, run
 * for a while, the operator reads the fleet, the store restarts on its data and then empty, every instance restarts
 * in waves of a tenth, and instances are added until the default layout's 1,024 worker IDs are taken and one more
 * asks. A probe thread asks every running instance for an ID every 100 ms throughout, counting refusals and keeping
 * every ID, which are checked for duplicates at the end.
 *
 * <p>Figures are printed as Markdown tables, the settings first.
 */
public final class FleetSimulation {

	private static final int WORKER_IDS = (int) (UidLayout.defaults().getMaxWorkerId() + 1);

	/** How long any wait for the fleet to reach a state may last. */
	static final Duration BOUND = Duration.ofMinutes(3);

	/** How often a start's watch samples what piles up in the store: claims, renewals and waits of the moment. */
	private static final Duration START_SAMPLING = Duration.ofMillis(250);

	/**
	 * How often the steady state's watch samples: rarely, as each sample costs the store CPU that the steady state
	 * measures (MariaDB's process list of 1,000 sessions every 250 ms took 14 ms each, up to 5.5 % of its core).
	 */
	private static final Duration STEADY_SAMPLING = Duration.ofSeconds(5);

	/** How many instances start at once in each round of the warm-up. */
	private static final int WARM_UP_INSTANCES = 50;

	/** Where the warm-up's instances keep their worker IDs: apart from the fleet's. */
	private static final String WARM_UP_NAMESPACE = "warm-up";

	/** The row of a start's claims, in the tables of the simultaneous starts. */
	private static final String CLAIM_ROW = "claim (the assigner's assign(), Redis's probation included)";

	/** The row of a start's first IDs, in the tables of the simultaneous starts. */
	private static final String FIRST_ID_ROW = "first ID (the generator built, mark recorded, getUID())";

	private final FleetStore store;

	private final int size;

	private final Duration steady;

	private final Duration outage;

	private final PrintStream out;

	private final String[] instanceIds;

	private final FleetStore.Client[] clients;

	private final AtomicReferenceArray<DefaultUidGenerator> generators;

	private final FleetProbe probe;

	private final List<String> summary = new ArrayList<>();

	/** The fixed wait every claim stands before it returns (Redis's probation), told apart from the store's work. */
	private Duration claimWait = Duration.ZERO;

	/** How many rounds of claims run on the store before anything is measured; see {@link #warmUp()}. */
	private final int warmUpRounds;

	private FleetSimulation(FleetStore store, int size, Duration steady, Duration outage, int warmUpRounds,
			PrintStream out) {
		this.store = store;
		this.size = size;
		this.warmUpRounds = warmUpRounds;
		this.steady = steady;
		this.outage = outage;
		this.out = out;
		this.instanceIds = new String[WORKER_IDS + 1];
		for (int i = 0; i < this.instanceIds.length; i++) {
			this.instanceIds[i] = String.format(Locale.ROOT, "fleet-%04d", i);
		}
		this.clients = new FleetStore.Client[WORKER_IDS + 1];
		this.generators = new AtomicReferenceArray<>(WORKER_IDS + 1);
		this.probe = new FleetProbe(this.generators);
	}

	public static void main(String[] args) throws Exception {
		Arguments arguments = new Arguments(args, "stores", "instances", "steady-seconds", "outage-seconds",
				"heartbeat-seconds", "lease-seconds", "zookeeper-listen-backlog", "work-dir", "db-digests",
				"warm-up-rounds", "db-thread-pool");
		List<String> stores = List.of(arguments.get("stores", FleetStore.KINDS).split(","));
		int instances = arguments.getInt("instances", 1000);
		if (instances < 10 || instances > WORKER_IDS) {
			throw new IllegalArgumentException("--instances must lie between 10 and " + WORKER_IDS
					+ " (the default layout's worker IDs); got " + instances);
		}
		Duration steady = Duration.ofSeconds(arguments.getInt("steady-seconds", 120));
		Duration outage = Duration.ofSeconds(arguments.getInt("outage-seconds", 10));
		int heartbeatSeconds = arguments.getInt("heartbeat-seconds", 0);
		FleetStore.heartbeat((heartbeatSeconds > 0) ? Duration.ofSeconds(heartbeatSeconds) : null);
		int leaseSeconds = arguments.getInt("lease-seconds", 0);
		if (leaseSeconds > 60) {
			throw new IllegalArgumentException("--lease-seconds must be at most 60 (the throwaway ZooKeeper's longest "
					+ "session); got " + leaseSeconds);
		}
		FleetStore.lease((leaseSeconds > 0) ? Duration.ofSeconds(leaseSeconds) : null);
		FleetStore.zookeeperListenBacklog(arguments.getInt("zookeeper-listen-backlog", 0));
		FleetStore.mariaDbThreadPool(Boolean.parseBoolean(arguments.get("db-thread-pool", "false")));
		Path workDir = Path.of(arguments.get("work-dir", "target/fleet"));
		// MariaDB's performance_schema, for the statements by digest: it costs the server some CPU.
		boolean digests = Boolean.parseBoolean(arguments.get("db-digests", "false"));
		int warmUpRounds = arguments.getInt("warm-up-rounds", 0);
		Files.createDirectories(workDir);
		PrintStream out = System.out;
		out.printf("# Fleet simulation: %d instances per store, steady state %d s, store outages %d s%s%n%n", instances,
				steady.toSeconds(), outage.toSeconds(),
				(warmUpRounds > 0) ? ", the store and uid's code warmed up first (" + warmUpRounds + " rounds)" : "");
		out.printf("JVM: %s %s, %d cores, -Xmx%d MB; generator: DefaultUidGenerator at its defaults (layout %s)%n%n",
				System.getProperty("java.vm.name"), System.getProperty("java.version"),
				Runtime.getRuntime().availableProcessors(), Runtime.getRuntime().maxMemory() >> 20,
				UidLayout.defaults());
		List<String> rows = new ArrayList<>();
		for (String kind : stores) {
			Path dir = Files.createTempDirectory(workDir.toAbsolutePath(), kind.trim() + "-");
			try (FleetStore store = FleetStore.start(kind.trim(), dir, digests)) {
				FleetSimulation simulation = new FleetSimulation(store, instances, steady, outage, warmUpRounds, out);
				simulation.run();
				rows.add(String.join("|", simulation.summary));
			}
		}
		out.println("## All stores");
		out.println();
		MarkdownTable table = new MarkdownTable("store",
				"floor: connect p99; one write p99; clients idle, CPU; writes at the renewal rate, CPU",
				"claim p50 / p99 / max", "first ID p50 / p99 / max",
				"store CPU, steady", "operations/s", "memory", "fleet read", "rolling restart: refused, slowest",
				"all again at once: claim p99, own back", "instance 1,025", "restart: refused, all renewing after", "restart empty: refused, all renewing after",
				"IDs checked, duplicates")
			.leftAligned(0);
		for (String row : rows) {
			table.row((Object[]) row.split("\\|", -1));
		}
		table.print(out);
		System.exit(0);
	}

	private void run() throws InterruptedException {
		this.out.printf("## %s%n%n%s%n%n", this.store.name(), this.store.describe());
		this.store.awaitInUse(this.out);
		warmUp();
		this.summary.add(this.store.name());
		this.probe.start();
		boolean stopped = false;
		try {
			this.summary.add(new StoreFloor(this.store, this.size, this.instanceIds, floorWindow(), this.out).measure());
			startAllAtOnce();
			int steadyRunning = distinctWorkerIds();
			steadyState("Steady state", true);
			readTheFleet();
			rollingRestart();
			restartAllAtOnce();
			int running = distinctWorkerIds();
			if (running > steadyRunning) {
				// The simultaneous start left instances out and the rolling restart started them: what they all cost.
				steadyState("Steady state again, " + running + " instances running after the rolling restart", false);
			}
			beyondTheLayout();
			// The restarts come last: once Redis has lost its data, newcomers wait the registry-loss margin.
			restart(false);
			restart(true);
		}
		catch (RuntimeException ex) {
			this.out.println("The run stopped: " + ex);
			ex.printStackTrace(this.out);
			stopped = true;
		}
		// Every ID taken is checked before anything is closed: closing waits on a store that may no longer answer.
		this.probe.stop();
		long[] ids = this.probe.ids();
		long duplicates = Duplicates.count(ids);
		this.out.printf("IDs taken by the probe and checked: %,d; duplicates: %d; refused in all: %,d of %,d calls%n%n",
				ids.length, duplicates, this.probe.refused(), this.probe.calls());
		for (String duplicate : this.probe.describeDuplicates(UidLayout.defaults(), 20)) {
			this.out.println("> duplicate " + duplicate);
		}
		this.out.flush();
		if (stopped) {
			// Closing 1,000 clients of a store that is gone waits on each: stop here.
			System.exit(2);
		}
		this.summary.add(String.format(Locale.ROOT, "%,d, %d", ids.length, duplicates));
		closeAll();
	}

	/**
	 * Runs uid's claims on the store before anything is measured, in a namespace of their own (a lease table of its
	 * own on a database), when asked to: each round starts {@value #WARM_UP_INSTANCES} instances at once, which take
	 * IDs and give their worker IDs back. A store in use has served such requests long before a fleet starts on it,
	 * and each instance of a fleet runs its claim on cores of its own; here the store's server has just been started
	 * (ZooKeeper's a JVM that compiles its code as it serves) and, without this, 1,000 threads run uid's claim code
	 * for the first time on the same two cores, the JVM compiling it meanwhile.
	 */
	private void warmUp() throws InterruptedException {
		if (this.warmUpRounds == 0) {
			return;
		}
		long startNanos = System.nanoTime();
		AtomicInteger claims = new AtomicInteger();
		List<String> failures = new ArrayList<>();
		for (int round = 0; round < this.warmUpRounds; round++) {
			List<Thread> threads = new ArrayList<>();
			for (int i = 0; i < WARM_UP_INSTANCES; i++) {
				String instanceId = String.format(Locale.ROOT, "warm-up-%02d", i);
				Thread thread = new Thread(() -> {
					try (FleetStore.Client client = this.store.client(instanceId, WARM_UP_NAMESPACE);
							DefaultUidGenerator generator = DefaultUidGenerator.builder()
								.workerIdAssigner(client.assigner())
								.build()) {
						for (int id = 0; id < 1000; id++) {
							generator.getUID();
						}
						claims.incrementAndGet();
					}
					catch (RuntimeException ex) {
						synchronized (failures) {
							failures.add(ex.getClass().getSimpleName() + ": " + ex.getMessage());
						}
					}
				}, "fleet-warm-up-" + i);
				thread.setDaemon(true);
				threads.add(thread);
				thread.start();
			}
			for (Thread thread : threads) {
				thread.join(BOUND.toMillis());
			}
		}
		this.out.printf("### Warm-up%n%n%d rounds of %d instances started at once in a namespace of their own (%s), "
				+ "each taking 1,000 IDs and giving its worker ID back: %d claims in %.1f s; failed: %d%s%n%n",
				this.warmUpRounds, WARM_UP_INSTANCES, WARM_UP_NAMESPACE, claims.get(),
				(System.nanoTime() - startNanos) / 1e9, failures.size(),
				failures.isEmpty() ? "" : " (first: " + failures.get(0) + ")");
	}

	/** How long the floor's steady state lasts: half the fleet's, at least 20 s. */
	private Duration floorWindow() {
		Duration half = this.steady.dividedBy(2);
		return (half.compareTo(Duration.ofSeconds(20)) < 0) ? Duration.ofSeconds(20) : half;
	}

	/** Every instance starts at the same moment: claim, and time to a first ID. */
	private void startAllAtOnce() throws InterruptedException {
		FleetStore.Watch watch = this.store.watch(START_SAMPLING);
		long refusedBefore = this.probe.refused();
		Starts starts = startConcurrently(0, this.size);
		if (this.clients[0].assigner() instanceof RedisWorkerIdAssigner redis) {
			this.claimWait = redis.getClaimProbation();
		}
		this.out.println("### All instances start at once");
		this.out.println();
		new MarkdownTable("", "p50", "p99", "max")
			.leftAligned(0)
			.row(quantiles(CLAIM_ROW, starts.claims))
			.row("claim less the probation's fixed wait of " + this.claimWait.toMillis() + " ms",
					ms(less(starts.claims, this.claimWait), 0.5), ms(less(starts.claims, this.claimWait), 0.99),
					ms(less(starts.claims, this.claimWait), 1))
			.row("the layout record before the claim (recordLayout(): a database's first connection and tables, a "
					+ "session's wait)", ms(starts.layouts, 0.5), ms(starts.layouts, 0.99), ms(starts.layouts, 1))
			.row(quantiles(FIRST_ID_ROW, starts.firstIds))
			.print(this.out);
		this.out.printf("%nStarted: %d of %d; failed: %d%s; distinct worker IDs held: %d; calls refused by instances "
				+ "started meanwhile: %s%n%n", starts.started(), this.size, starts.failures.size(),
				starts.failures.isEmpty() ? "" : " (first: " + starts.failures.get(0) + ")", distinctWorkerIds(),
				this.probe.refusedSince(refusedBefore));
		printClaimCalls(starts);
		watch.print(this.out, "the simultaneous start", starts.started());
		long[] work = less(starts.claims, this.claimWait);
		this.summary.add(ms(work, 0.5) + " / " + ms(work, 0.99) + " / " + ms(work, 1)
				+ (this.claimWait.isZero() ? "" : " + " + this.claimWait.toMillis() + " ms probation"));
		this.summary.add(ms(starts.firstIds, 0.5) + " / " + ms(starts.firstIds, 0.99) + " / " + ms(starts.firstIds, 1));
	}

	/**
	 * The fleet holds and renews; the store's CPU, operations and memory, and this JVM's CPU, over the window.
	 * @param title the section's heading
	 * @param summarise whether the figures go into the summary of all stores
	 */
	private void steadyState(String title, boolean summarise) {
		FleetStore.Watch watch = this.store.watch(STEADY_SAMPLING);
		FleetStore.Reading before = this.store.read();
		long refusedBefore = this.probe.refused();
		long jvmBefore = processCpuNanos();
		long startNanos = System.nanoTime();
		FleetStore.sleep(this.steady);
		FleetStore.Reading after = this.store.read();
		long jvmAfter = processCpuNanos();
		double seconds = (System.nanoTime() - startNanos) / 1e9;
		double storeCpu = after.cpuPercentSince(before, seconds);
		double operations = (after.operations() - before.operations()) / seconds;
		double jvmCpu = (jvmAfter - jvmBefore) / 1e7 / seconds;
		this.out.printf("### %s, %d s%n%n", title, this.steady.toSeconds());
		new MarkdownTable("", "value")
			.leftAligned(0)
			.row("store CPU (% of one core)", String.format(Locale.ROOT, "%.2f %%", storeCpu))
			.row(this.store.operationsCounted() + " per second", String.format(Locale.ROOT, "%.0f", operations))
			.row(this.store.memoryMeasured(), String.format(Locale.ROOT, "%.1f MB", after.memoryBytes() / 1e6))
			.row("the simulation's JVM, every instance and the probe (% of one core)",
					String.format(Locale.ROOT, "%.1f %%", jvmCpu))
			.row("calls refused by running instances", this.probe.refusedSince(refusedBefore))
			.print(this.out);
		this.out.println();
		watch.print(this.out, "the steady state", 0);
		if (!summarise) {
			return;
		}
		this.summary.add(String.format(Locale.ROOT, "%.2f %%", storeCpu));
		this.summary.add(String.format(Locale.ROOT, "%.0f", operations));
		this.summary.add(String.format(Locale.ROOT, "%.1f MB", after.memoryBytes() / 1e6));
	}

	/** What {@code /actuator/uid/fleet} reads: every worker ID, and one worker's claim history. */
	private void readTheFleet() {
		Optional<WorkerFleet> fleet = this.clients[0].assigner().fleet();
		if (fleet.isEmpty()) {
			this.summary.add("n/a");
			return;
		}
		long[] reads = new long[5];
		FleetSnapshot snapshot = null;
		for (int i = 0; i < reads.length; i++) {
			long start = System.nanoTime();
			snapshot = fleet.get().read(WORKER_IDS);
			reads[i] = System.nanoTime() - start;
		}
		long workerId = firstRunning().status().worker().id();
		long start = System.nanoTime();
		int claims = fleet.get().history(workerId).claims().size();
		long history = System.nanoTime() - start;
		Arrays.sort(reads);
		this.out.println("### The fleet, read as /actuator/uid/fleet reads it (5 reads)");
		this.out.println();
		new MarkdownTable("", "value")
			.leftAligned(0)
			.row("read of every worker ID, median / max", ms(reads, 0.5) + " / " + ms(reads, 1))
			.row("worker IDs held / known / listed", snapshot.held() + " / " + snapshot.known() + " / "
					+ snapshot.workers().size())
			.row("one worker's claim history", String.format(Locale.ROOT, "%.1f ms, %d claims", history / 1e6, claims))
			.print(this.out);
		this.out.println();
		this.summary.add(ms(reads, 0.5) + ", " + snapshot.held() + " held");
	}

	/** Says, for the first instances whose renewals did not reach the store again, where their connection stands. */
	private void describeNotRenewing(long[] returns) {
		int described = 0;
		for (int i = 0; i < this.size && described < 20; i++) {
			CountingZooKeeper.Counts counts = (this.clients[i] != null) ? this.clients[i].counts() : null;
			if (returns[i] == 0 && counts != null) {
				this.out.printf("Not renewing again: %s: %s%n", this.instanceIds[i], counts.describeConnection());
				described++;
			}
		}
		if (described > 0) {
			this.out.println();
		}
	}

	/**
	 * The store stops for the outage and starts again, on its data or empty: how many calls were refused, and how
	 * long after the store answered again every instance's renewals reached it.
	 */
	private void restart(boolean empty) {
		long refusedBefore = this.probe.refused();
		long callsBefore = this.probe.calls();
		boolean done;
		if (empty) {
			done = this.store.restartEmpty(this.outage);
		}
		else {
			this.store.restart(this.outage);
			done = true;
		}
		if (!done) {
			this.summary.add("n/a");
			return;
		}
		long backNanos = System.nanoTime();
		long[] returns = new long[this.size];
		int renewing = awaitInstances((i) -> {
			if (returns[i] == 0 && isRenewing(this.generators.get(i))) {
				returns[i] = Math.max(1, System.nanoTime() - backNanos);
			}
			return returns[i] != 0;
		});
		long allRenewing = System.nanoTime() - backNanos;
		describeNotRenewing(returns);
		long[] reconnects = new long[this.size];
		for (int i = 0; i < this.size; i++) {
			CountingZooKeeper.Counts counts = (this.clients[i] != null) ? this.clients[i].counts() : null;
			if (counts != null && counts.lastConnectedNanos() > 0) {
				reconnects[i] = Math.max(1, counts.lastConnectedNanos() - backNanos);
			}
		}
		// The probe's next pass shows whether every instance serves.
		long refused = this.probe.refused() - refusedBefore;
		long calls = this.probe.calls() - callsBefore;
		int held = heldInTheStore();
		this.out.printf("### The store restarted %s after %d s down%n%n", empty ? "empty" : "on its data",
				this.outage.toSeconds());
		new MarkdownTable("", "value")
			.leftAligned(0)
			.row("calls refused while it was down and after (of all calls)", String.format(Locale.ROOT, "%,d of %,d",
					refused, calls))
			.row("instances renewing again", renewing + " of " + this.size)
			.row("from the store's return until every instance renewed", String.format(Locale.ROOT, "%.1f s",
					allRenewing / 1e9))
			.row("each instance renewing again after the return, p50 / p90 / p99 / max (polled every 100 ms)",
					ms(returns, 0.5) + " / " + ms(returns, 0.9) + " / " + ms(returns, 0.99) + " / " + ms(returns, 1))
			.row("each client connected again after the return, p50 / p90 / p99 / max (where counted)",
					ms(reconnects, 0.5) + " / " + ms(reconnects, 0.9) + " / " + ms(reconnects, 0.99) + " / "
							+ ms(reconnects, 1))
			.row("the server's restart until it answered (its data loaded), before \"the return\"",
					(this.store.restartNote() != null && !empty) ? this.store.restartNote() : "–")
			.row("worker IDs held in the store afterwards", held)
			.row("distinct worker IDs of the running instances holding a lease", distinctWorkerIds())
			.print(this.out);
		this.out.println();
		this.summary.add(String.format(Locale.ROOT, "%,d, %.1f s", refused, allRenewing / 1e9));
	}

	/** Every instance restarts, a tenth at a time (a rolling deployment's surge), each on a new client. */
	private void rollingRestart() throws InterruptedException {
		long refusedBefore = this.probe.refused();
		int wave = Math.max(1, this.size / 10);
		long[] restarts = new long[this.size];
		long startNanos = System.nanoTime();
		List<String> failures = new ArrayList<>();
		for (int from = 0; from < this.size; from += wave) {
			int to = Math.min(this.size, from + wave);
			for (int i = from; i < to; i++) {
				DefaultUidGenerator stopped = this.generators.getAndSet(i, null);
				if (stopped != null) {
					stopped.close();
				}
				this.clients[i].close();
			}
			Starts starts = startConcurrently(from, to);
			failures.addAll(starts.failures);
			System.arraycopy(starts.firstIds, 0, restarts, from, to - from);
		}
		long total = System.nanoTime() - startNanos;
		long refused = this.probe.refused() - refusedBefore;
		this.out.printf("### Rolling restart, %d at a time, each on a new client%n%n", wave);
		new MarkdownTable("", "value")
			.leftAligned(0)
			.row("start to first ID, p50 / p99 / max", ms(restarts, 0.5) + " / " + ms(restarts, 0.99) + " / "
					+ ms(restarts, 1))
			.row("the whole rolling restart", String.format(Locale.ROOT, "%.1f s", total / 1e9))
			.row("calls refused (by running instances)", refused)
			.row("restarts that failed", failures.size() + (failures.isEmpty() ? "" : " (first: " + failures.get(0)
					+ ")"))
			.row("distinct worker IDs of the running instances holding a lease", distinctWorkerIds())
			.print(this.out);
		this.out.println();
		this.summary.add(refused + ", " + ms(restarts, 1));
	}

	/** A table row of p50, p99 and max of some durations. */
	private static Object[] quantiles(String label, long[] nanos) {
		return new Object[] { label, ms(nanos, 0.5), ms(nanos, 0.99), ms(nanos, 1) };
	}

	/**
	 * Every instance stops, releasing its worker ID, then all start again at once, each on a new client, as a
	 * deployment that replaces every instance together does: each should find its own worker ID again.
	 */
	private void restartAllAtOnce() throws InterruptedException {
		long[] before = new long[this.size];
		for (int i = 0; i < this.size; i++) {
			DefaultUidGenerator generator = this.generators.get(i);
			before[i] = (generator != null) ? generator.status().worker().id() : -1;
		}
		long stopNanos = System.nanoTime();
		close(0, this.size);
		long stopped = System.nanoTime() - stopNanos;
		long refusedBefore = this.probe.refused();
		FleetStore.Watch watch = this.store.watch(START_SAMPLING);
		Starts starts = startConcurrently(0, this.size);
		int ownBack = 0;
		for (int i = 0; i < this.size; i++) {
			DefaultUidGenerator generator = this.generators.get(i);
			if (generator != null && before[i] >= 0 && generator.status().worker().id() == before[i]) {
				ownBack++;
			}
		}
		this.out.println("### Every instance stopped, then all started again at once, each on a new client");
		this.out.println();
		new MarkdownTable("", "p50", "p99", "max")
			.leftAligned(0)
			.row(quantiles(CLAIM_ROW, starts.claims))
			.row(quantiles(FIRST_ID_ROW, starts.firstIds))
			.print(this.out);
		this.out.printf("%nAll %d stopped (their worker IDs released) in %.1f s, 32 at a time. Started again: %d of %d; "
				+ "failed: %d%s; each its own worker ID back: %d; distinct worker IDs of the running instances holding a "
				+ "lease: %d; calls refused by instances started meanwhile: %s%n%n", this.size, stopped / 1e9,
				starts.started(), this.size, starts.failures.size(),
				starts.failures.isEmpty() ? "" : " (first: " + starts.failures.get(0) + ")", ownBack,
				distinctWorkerIds(), this.probe.refusedSince(refusedBefore));
		printClaimCalls(starts);
		watch.print(this.out, "the start of all at once again", starts.started());
		this.summary.add(ms(starts.claims, 0.99) + ", " + ownBack + " own");
	}

	/** Instances are added until every worker ID is taken; then one more asks. */
	private void beyondTheLayout() throws InterruptedException {
		long refusedBefore = this.probe.refused();
		Starts fill = startConcurrently(this.size, WORKER_IDS);
		int held = heldInTheStore();
		String refusal;
		long startNanos = System.nanoTime();
		FleetStore.Client client = this.store.client(this.instanceIds[WORKER_IDS]);
		this.clients[WORKER_IDS] = client;
		try {
			DefaultUidGenerator extra = DefaultUidGenerator.builder().workerIdAssigner(client.assigner()).build();
			this.generators.set(WORKER_IDS, extra);
			refusal = "STARTED as worker " + extra.status().worker().id() + ": a duplicate worker ID";
		}
		catch (RuntimeException ex) {
			refusal = ex.getClass().getSimpleName() + ": " + ex.getMessage();
		}
		long refusedAfter = System.nanoTime() - startNanos;
		this.out.printf("### Instance %,d on a layout of %,d worker IDs%n%n", WORKER_IDS + 1, WORKER_IDS);
		this.out.printf("%d more instances started (%d failed); worker IDs held in the store: %d; distinct worker IDs "
				+ "of the running instances holding a lease: %d; calls refused by running instances meanwhile: %s. Instance %,d, after "
				+ "%.1f s:%n%n> %s%n%n", WORKER_IDS - this.size, fill.failures.size(), held, distinctWorkerIds(),
				this.probe.refusedSince(refusedBefore), WORKER_IDS + 1, refusedAfter / 1e9, refusal);
		this.summary.add(refusal.replaceAll(":.*", "") + String.format(Locale.ROOT, " after %.1f s",
				refusedAfter / 1e9));
		// Back to the fleet of N for what follows.
		for (int i = this.size; i <= WORKER_IDS; i++) {
			DefaultUidGenerator generator = this.generators.getAndSet(i, null);
			if (generator != null) {
				generator.close();
			}
			if (this.clients[i] != null) {
				this.clients[i].close();
				this.clients[i] = null;
			}
		}
	}

	/**
	 * Where the store counts its clients' requests: how long the instances waited for their sessions, recorded the
	 * layout, and what each claim sent and waited on.
	 */
	private void printClaimCalls(Starts starts) {
		List<CountingZooKeeper.Snapshot> calls = Arrays.stream(starts.claimCalls)
			.filter((snapshot) -> snapshot != null)
			.toList();
		if (calls.isEmpty() || calls.stream().allMatch((snapshot) -> snapshot.equals(CountingZooKeeper.Snapshot.NONE))) {
			return;
		}
		long beforeRelease = Arrays.stream(starts.sessionWaits).filter((nanos) -> nanos == 1).count();
		long[] waited = Arrays.stream(starts.sessionWaits).filter((nanos) -> nanos > 1).toArray();
		this.out.printf("Where the start's time went: %d of %d sessions were established before the release (each "
				+ "client started when its instance's thread was made), the others %s / %s / %s after it (p50 / p99 / "
				+ "max).%n%n", beforeRelease, starts.sessionWaits.length, ms(waited, 0.5), ms(waited, 0.99),
				ms(waited, 1));
		long[] reads = calls.stream().mapToLong(CountingZooKeeper.Snapshot::reads).toArray();
		long[] writes = calls.stream().mapToLong(CountingZooKeeper.Snapshot::writes).toArray();
		long[] refused = calls.stream().mapToLong(CountingZooKeeper.Snapshot::refusedWrites).toArray();
		long[] waits = calls.stream().mapToLong(CountingZooKeeper.Snapshot::waitNanos).toArray();
		long[] elsewhere = new long[calls.size()];
		int n = 0;
		for (int i = 0; i < starts.claimCalls.length; i++) {
			if (starts.claimCalls[i] != null) {
				elsewhere[n++] = Math.max(1, starts.claims[i] - starts.claimCalls[i].waitNanos());
			}
		}
		new MarkdownTable("per claim", "mean", "p50", "p99", "max")
			.leftAligned(0)
			.row("the layout record before it (recordLayout(), the session's wait included)", "",
					ms(starts.layouts, 0.5), ms(starts.layouts, 0.99), ms(starts.layouts, 1))
			.row("the claim (assign())", "", ms(starts.claims, 0.5), ms(starts.claims, 0.99), ms(starts.claims, 1))
			.row("time waiting on synchronous requests", "", ms(waits, 0.5), ms(waits, 0.99), ms(waits, 1))
			.row("the rest: pipelined reads, back-off pauses, the CPU", "", ms(elsewhere, 0.5), ms(elsewhere, 0.99),
					ms(elsewhere, 1))
			.row("reads sent (getData, getChildren, exists, multi-read)", mean(reads), count(reads, 0.5),
					count(reads, 0.99), count(reads, 1))
			.row("writes sent (create, setData, delete, multi)", mean(writes), count(writes, 0.5),
					count(writes, 0.99), count(writes, 1))
			.row("writes refused (a version or existence not as read: races lost, paths there already)",
					mean(refused), count(refused, 0.5), count(refused, 0.99), count(refused, 1))
			.print(this.out);
		this.out.println();
	}

	private static String mean(long[] values) {
		return String.format(Locale.ROOT, "%.1f", Arrays.stream(values).average().orElse(0));
	}

	private static String count(long[] values, double quantile) {
		long[] sorted = Arrays.stream(values).sorted().toArray();
		return (sorted.length == 0) ? "–"
				: Long.toString(sorted[Math.max(0, (int) Math.ceil(quantile * sorted.length) - 1)]);
	}

	/** Nanosecond figures less a fixed wait; zeros (nothing measured) stay zero. */
	private static long[] less(long[] nanos, Duration wait) {
		return Arrays.stream(nanos).map((value) -> (value > 0) ? Math.max(1, value - wait.toNanos()) : 0).toArray();
	}

	/**
	 * The instances that started, the claims timed, the first IDs timed (nanoseconds), the failures; and, where the
	 * store counts its clients' requests, each instance's wait for its session from the moment all were released
	 * (0 when it had it before), its layout record timed, and what its claim sent.
	 */
	private record Starts(long[] claims, long[] firstIds, List<String> failures, long[] sessionWaits, long[] layouts,
			CountingZooKeeper.Snapshot[] claimCalls) {

		int started() {
			return (int) Arrays.stream(this.firstIds).filter((nanos) -> nanos > 0).count();
		}

	}

	/**
	 * Starts instances {@code from} (inclusive) to {@code to} (exclusive) on threads of their own, each with a new
	 * client, all released at one moment once every client is made.
	 */
	private Starts startConcurrently(int from, int to) throws InterruptedException {
		int count = to - from;
		long[] claims = new long[count];
		long[] firstIds = new long[count];
		List<String> failures = new ArrayList<>();
		CountDownLatch ready = new CountDownLatch(count);
		CountDownLatch go = new CountDownLatch(1);
		long[] goNanos = new long[1];
		long[] layouts = new long[count];
		CountingZooKeeper.Snapshot[] claimCalls = new CountingZooKeeper.Snapshot[count];
		CountingZooKeeper.Counts[] counts = new CountingZooKeeper.Counts[count];
		List<Thread> threads = new ArrayList<>();
		for (int i = from; i < to; i++) {
			int index = i;
			Thread thread = new Thread(() -> {
				FleetStore.Client client = this.store.client(this.instanceIds[index]);
				this.clients[index] = client;
				counts[index - from] = client.counts();
				TimedClaims timed = new TimedClaims(client.assigner(), client.counts());
				ready.countDown();
				try {
					go.await();
					DefaultUidGenerator generator = DefaultUidGenerator.builder().workerIdAssigner(timed).build();
					generator.getUID();
					firstIds[index - from] = System.nanoTime() - goNanos[0];
					claims[index - from] = timed.firstClaimNanos;
					layouts[index - from] = timed.layoutNanos;
					claimCalls[index - from] = timed.claimCalls;
					this.generators.set(index, generator);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
				catch (RuntimeException ex) {
					synchronized (failures) {
						failures.add(ex.getClass().getSimpleName() + ": " + ex.getMessage());
					}
				}
				finally {
					ZooKeeperWatch.threadEnded();
				}
			}, "fleet-start-" + index);
			thread.setDaemon(true);
			threads.add(thread);
			thread.start();
		}
		if (!ready.await(BOUND.toSeconds(), TimeUnit.SECONDS)) {
			throw new IllegalStateException("The clients of " + count + " instances were not made within " + BOUND);
		}
		goNanos[0] = System.nanoTime();
		go.countDown();
		for (Thread thread : threads) {
			thread.join(BOUND.toMillis());
		}
		long[] sessionWaits = new long[count];
		for (int i = 0; i < count; i++) {
			long connected = (counts[i] != null) ? counts[i].connectedNanos() : 0;
			// 1 ns stands for a session established before the release, so that it counts among the quantiles.
			sessionWaits[i] = (connected == 0) ? 0 : Math.max(1, connected - goNanos[0]);
		}
		return new Starts(claims, firstIds, failures, sessionWaits, layouts, claimCalls);
	}

	/**
	 * Times the first layout record and the first claim of the assigner it wraps, and counts what the claim sent where
	 * the client counts it; passes every call on.
	 */
	private static final class TimedClaims implements WorkerIdAssigner {

		private final WorkerIdAssigner assigner;

		private final CountingZooKeeper.Counts counts;

		private volatile long firstClaimNanos;

		private volatile long layoutNanos;

		private volatile CountingZooKeeper.Snapshot claimCalls;

		TimedClaims(WorkerIdAssigner assigner, CountingZooKeeper.Counts counts) {
			this.assigner = assigner;
			this.counts = counts;
		}

		@Override
		public void recordLayout(UidLayout layout) {
			long start = System.nanoTime();
			this.assigner.recordLayout(layout);
			if (this.layoutNanos == 0) {
				this.layoutNanos = System.nanoTime() - start;
			}
		}

		@Override
		public WorkerAssignment assign(long maxWorkerId) {
			return assign(maxWorkerId, null);
		}

		@Override
		public WorkerAssignment assign(long maxWorkerId, Duration maxMarkLead) {
			CountingZooKeeper.Snapshot before = calls();
			long start = System.nanoTime();
			WorkerAssignment assignment = (maxMarkLead != null) ? this.assigner.assign(maxWorkerId, maxMarkLead)
					: this.assigner.assign(maxWorkerId);
			if (this.firstClaimNanos == 0) {
				this.firstClaimNanos = System.nanoTime() - start;
				this.claimCalls = calls().minus(before);
			}
			return assignment;
		}

		private CountingZooKeeper.Snapshot calls() {
			return (this.counts != null) ? this.counts.snapshot() : CountingZooKeeper.Snapshot.NONE;
		}

		@Override
		public Optional<WorkerAssignment> assignBehind(long maxWorkerId, long latestMarkMillis) {
			return this.assigner.assignBehind(maxWorkerId, latestMarkMillis);
		}

		@Override
		public void renew(long workerId, long highWaterMarkMillis) {
			this.assigner.renew(workerId, highWaterMarkMillis);
		}

		@Override
		public void release(long workerId, long highWaterMarkMillis) {
			this.assigner.release(workerId, highWaterMarkMillis);
		}

		@Override
		public Duration renewInterval() {
			return this.assigner.renewInterval();
		}

		@Override
		public Duration leaseHold() {
			return this.assigner.leaseHold();
		}

		@Override
		public Optional<WorkerFleet> fleet() {
			return this.assigner.fleet();
		}

		@Override
		public String name() {
			return this.assigner.name();
		}

	}

	/** Whether a generator's store answers its renewals and it may issue. */
	private static boolean isRenewing(DefaultUidGenerator generator) {
		if (generator == null) {
			return false;
		}
		UidGeneratorStatus status = generator.status();
		return status.failure() == null && status.worker() != null && status.worker().storeSilent() != null
				&& status.worker().storeSilent().isZero();
	}

	/** Waits, within {@link #BOUND}, until every instance of the fleet passes; returns how many do. */
	private int awaitInstances(IntPredicate passes) {
		long deadline = System.nanoTime() + BOUND.toNanos();
		int passing = 0;
		while (System.nanoTime() < deadline) {
			passing = 0;
			int running = 0;
			for (int i = 0; i < this.size; i++) {
				if (this.generators.get(i) != null) {
					running++;
					if (passes.test(i)) {
						passing++;
					}
				}
			}
			if (passing == running) {
				return passing;
			}
			FleetStore.sleep(Duration.ofMillis(100));
		}
		return passing;
	}

	private DefaultUidGenerator firstRunning() {
		for (int i = 0; i < this.generators.length(); i++) {
			DefaultUidGenerator generator = this.generators.get(i);
			if (generator != null) {
				return generator;
			}
		}
		throw new IllegalStateException("No instance of the fleet runs");
	}

	private int heldInTheStore() {
		try {
			return this.clients[0].assigner().fleet().map((fleet) -> (int) fleet.read(WORKER_IDS).held()).orElse(-1);
		}
		catch (UidException ex) {
			return -1;
		}
	}

	/**
	 * Counts the worker IDs of the running instances that hold their lease, negative by as many as share one. An
	 * instance whose lease was lost still reports the worker ID it lost (and issues nothing on it) until its claim
	 * again succeeds, so it is left out: counted, a worker ID another instance took since looked shared.
	 */
	private int distinctWorkerIds() {
		Set<Long> ids = new HashSet<>();
		int holding = 0;
		for (int i = 0; i < this.generators.length(); i++) {
			DefaultUidGenerator generator = this.generators.get(i);
			if (generator != null && !generator.status().worker().leaseLost()) {
				holding++;
				ids.add(generator.status().worker().id());
			}
		}
		return (ids.size() == holding) ? holding : -(holding - ids.size());
	}

	/** Closes every instance; see {@link #close(int, int)}. */
	private void closeAll() throws InterruptedException {
		close(0, this.generators.length());
	}

	/**
	 * Closes instances, 32 at a time, for at most two minutes: each close releases its worker ID, which waits out the
	 * client's timeout where the store no longer answers (one by one, 1,000 closes took hours).
	 */
	private void close(int from, int to) throws InterruptedException {
		ExecutorService closing = Executors.newFixedThreadPool(32);
		for (int i = from; i < to; i++) {
			int index = i;
			closing.execute(() -> {
				DefaultUidGenerator generator = this.generators.getAndSet(index, null);
				if (generator != null) {
					generator.close();
				}
				if (this.clients[index] != null) {
					this.clients[index].close();
				}
			});
		}
		closing.shutdown();
		if (!closing.awaitTermination(2, TimeUnit.MINUTES)) {
			this.out.println("Not every instance closed within 2 minutes; the rest are left to the JVM's exit.");
			closing.shutdownNow();
			return;
		}
	}


	private static long processCpuNanos() {
		return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
			.getProcessCpuTime();
	}

	/** A quantile of nanosecond figures, in milliseconds; the zeros (nothing measured) left out. */
	static String ms(long[] nanos, double quantile) {
		long[] measured = Arrays.stream(nanos).filter((value) -> value > 0).sorted().toArray();
		if (measured.length == 0) {
			return "–";
		}
		int index = Math.max(0, (int) Math.ceil(quantile * measured.length) - 1);
		return String.format(Locale.ROOT, "%,.0f ms", measured[index] / 1e6);
	}

}
