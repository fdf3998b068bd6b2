package io.github.uidgen.benchmarks;

import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.uidgen.worker.WorkerAssignment;
import io.github.uidgen.worker.WorkerIdAssigner;
import io.github.uidgen.worker.jdbc.DisposableWorkerIdAssigner;

/**
 * How long a start's claim of a worker ID takes, and how that grows with the number of live leases in the store:
 * for each assigner, the store is filled, through the assigner itself (four instances claiming at once), to 0, 100,
 * 500 and 1,000 live leases, and at each level {@code --claims} (20) further claims are timed one by one. Where
 * released worker IDs are reused, those claims are then released and claimed again, timing the claim of a restart
 * that takes a released worker ID back.
 *
 * <p>The layout is the default one (10 worker bits, so worker IDs 0 to 1023: 1,000 leases and the claims fit). Each
 * store is first warmed up with claims in a scratch space, so the figures are not those of the first connection
 * or of cold code. Every space is removed afterwards. A store that cannot be reached is reported as such, and the
 * others still run. The part runs in a JVM of its own.
 */
public final class ClaimTime {

	static final String DEFAULT_LEVELS = "0,100,500,1000";

	private static final long MAX_WORKER_ID = 1023;

	private static final int WARMUP_CLAIMS = 30;

	private static final int FILL_THREADS = 4;

	private ClaimTime() {
	}

	public static void main(String[] args) throws Exception {
		Arguments arguments = new Arguments(args, "stores", "levels", "claims", "mariadb-url", "postgresql-url",
				"redis", "child");
		List<String> stores = List.of(arguments.get("stores", ClaimStore.KINDS).split(","));
		List<Integer> levels = arguments.getInts("levels", DEFAULT_LEVELS);
		int claims = arguments.getInt("claims", 20);
		String mariadb = arguments.get("mariadb-url", "jdbc:mysql://127.0.0.1:3306/test?user=root");
		String postgresql = arguments.get("postgresql-url", "jdbc:postgresql://127.0.0.1:5432/test?user=postgres");
		String redis = arguments.get("redis", "127.0.0.1:6379");
		check(levels, claims);
		if (arguments.get("child", null) != null) {
			for (String store : stores) {
				measure(store.trim(), levels, claims, mariadb, postgresql, redis);
			}
			System.exit(0);
		}
		run(args, levels, System.out);
	}

	private static void check(List<Integer> levels, int claims) {
		int previous = -claims;
		for (int level : levels) {
			if (level < previous + claims) {
				throw new IllegalArgumentException("--levels must grow by at least --claims (" + claims
						+ ") from one to the next, as the claims timed at a level stay leased; got " + levels);
			}
			previous = level;
		}
		if (claims < 1 || previous + claims > MAX_WORKER_ID) {
			throw new IllegalArgumentException("The last level plus --claims must stay below " + MAX_WORKER_ID
					+ ", the default layout's largest worker ID; got " + levels + " and " + claims);
		}
	}

	/**
	 * Runs the part in a JVM of its own with the same options, then prints the table.
	 * @param args the options, passed on
	 */
	static void run(String[] args, List<Integer> levels, PrintStream out) throws IOException, InterruptedException {
		System.err.printf("[%tT] claims: filling each store to %s live leases%n", System.currentTimeMillis(), levels);
		List<String> childArgs = new ArrayList<>(List.of(args));
		childArgs.addAll(List.of("--child", "true"));
		// The disposable assigner warns at every start once its IDs near the layout's end, which the filled table
		// makes it do here on purpose; its warning would be timed with the claims and fill the console.
		ChildJvm child = ChildJvm.start("claim time", List.of("-Xms128m", "-Xmx512m",
				"-Dorg.slf4j.simpleLogger.log." + DisposableWorkerIdAssigner.class.getName() + "=error"),
				ClaimTime.class, childArgs.toArray(String[]::new));
		print(child.results(), out);
	}

	private static void print(List<String[]> results, PrintStream out) {
		out.printf("## Claim time of each assigner against the live leases in its store, milliseconds%n%n");
		out.printf("Each store filled through its assigner (4 instances claiming at once, leases of 1 h, so all stay "
				+ "live) to the number of live "
				+ "leases in the first column; then each claim timed one by one as it adds a lease (\"new worker "
				+ "ID\"), and, where worker IDs are reused, the same claims released and claimed again by the same "
				+ "instance (\"released one back\", a restart). Median, 90th percentile and maximum of the claims at "
				+ "each level; default layout, worker IDs 0 to 1023. Warmed up in a scratch space first. The "
				+ "disposable assigner has no leases: its live leases are the rows of its table, one per start.%n%n");
		MarkdownTable table = new MarkdownTable("store", "live leases", "new worker ID: median", "p90", "max",
				"released one back: median", "p90", "max");
		Map<String, String> settings = new LinkedHashMap<>();
		Map<String, String> notes = new LinkedHashMap<>();
		for (String[] result : results) {
			switch (result[0]) {
				case "STORE" -> settings.put(result[1], result[2]);
				case "LEVEL" -> table.row(result[1], String.format("%,d to %,d", Integer.parseInt(result[2]),
						Integer.parseInt(result[2]) + Integer.parseInt(result[3]) - 1), result[4], result[5], result[6],
						result[7], result[8], result[9]);
				case "FILL" -> notes.put(result[1], result[2]);
				case "UNAVAILABLE" -> notes.put(result[1], "not measured: " + result[2]);
				default -> {
				}
			}
		}
		table.print(out);
		for (Map.Entry<String, String> note : notes.entrySet()) {
			String setting = settings.get(note.getKey());
			out.printf("- `%s`%s: %s%n", note.getKey(), (setting != null) ? " (" + setting + ")" : "",
					note.getValue());
		}
		out.println();
	}

	private static void measure(String kind, List<Integer> levels, int claims, String mariadb, String postgresql,
			String redis) {
		System.err.printf("[%tT] claims: %s%n", System.currentTimeMillis(), kind);
		long started = System.nanoTime();
		long fillNanos = 0;
		try (ClaimStore store = ClaimStore.open(kind, mariadb, postgresql, redis)) {
			ChildJvm.report("STORE", kind, store.settings());
			try (ClaimStore.Space scratch = store.newSpace()) {
				WorkerIdAssigner warmup = scratch.assigner("uid-bench-warmup");
				for (int i = 0; i < WARMUP_CLAIMS; i++) {
					warmup.assign(MAX_WORKER_ID);
				}
			}
			try (ClaimStore.Space space = store.newSpace()) {
				List<WorkerIdAssigner> fillers = new ArrayList<>();
				for (int i = 1; i <= FILL_THREADS; i++) {
					fillers.add(space.assigner("uid-bench-filler-" + i));
				}
				WorkerIdAssigner claimer = space.assigner("uid-bench-claimer");
				int live = 0;
				int filled = 0;
				for (int level : levels) {
					long fillStart = System.nanoTime();
					fill(fillers, level - live);
					fillNanos += System.nanoTime() - fillStart;
					filled += level - live;
					live = level;
					long[] workerIds = new long[claims];
					double[] fresh = new double[claims];
					for (int i = 0; i < claims; i++) {
						long start = System.nanoTime();
						workerIds[i] = claimer.assign(MAX_WORKER_ID).workerId();
						fresh[i] = (System.nanoTime() - start) / 1e6;
					}
					live += claims;
					double[] again = null;
					if (store.reusesReleased()) {
						for (long workerId : workerIds) {
							claimer.release(workerId, WorkerAssignment.NO_MARK);
						}
						again = new double[claims];
						for (int i = 0; i < claims; i++) {
							long start = System.nanoTime();
							claimer.assign(MAX_WORKER_ID);
							again[i] = (System.nanoTime() - start) / 1e6;
						}
					}
					ChildJvm.report("LEVEL", kind, level, claims, median(fresh), p90(fresh), max(fresh),
							(again != null) ? median(again) : "", (again != null) ? p90(again) : "",
							(again != null) ? max(again) : "");
				}
				ChildJvm.report("FILL", kind,
						String.format("%,d live leases at the end (%,d filled in %.1f s by %d threads, %,d timed); "
								+ "%.0f s for the whole store", live, filled, fillNanos / 1e9, FILL_THREADS,
								live - filled, (System.nanoTime() - started) / 1e9));
			}
		}
		catch (RuntimeException ex) {
			String message = String.valueOf(ex.getMessage()).replaceAll("\\s+", " ");
			System.err.printf("claims: %s failed: %s%n", kind, ex);
			ChildJvm.report("UNAVAILABLE", kind, message.substring(0, Math.min(300, message.length())));
		}
	}

	/**
	 * Adds leases with several instances claiming at once, as at a fleet's start; a store whose claim reads every
	 * lease (ZooKeeper) would otherwise take minutes to fill.
	 */
	private static void fill(List<WorkerIdAssigner> fillers, int leases) {
		if (leases <= 0) {
			return;
		}
		AtomicInteger remaining = new AtomicInteger(leases);
		ExecutorService pool = Executors.newFixedThreadPool(fillers.size());
		try {
			List<Future<?>> running = new ArrayList<>();
			for (WorkerIdAssigner filler : fillers) {
				running.add(pool.submit(() -> {
					while (remaining.getAndDecrement() > 0) {
						filler.assign(MAX_WORKER_ID);
					}
				}));
			}
			for (Future<?> filling : running) {
				filling.get(10, TimeUnit.MINUTES);
			}
		}
		catch (ExecutionException ex) {
			throw (ex.getCause() instanceof RuntimeException runtime) ? runtime : new IllegalStateException(ex);
		}
		catch (InterruptedException | TimeoutException ex) {
			throw new IllegalStateException("Filling the store did not finish", ex);
		}
		finally {
			pool.shutdownNow();
		}
	}

	private static String median(double[] values) {
		return percentile(values, 50);
	}

	private static String p90(double[] values) {
		return percentile(values, 90);
	}

	private static String max(double[] values) {
		return String.format("%.2f", Arrays.stream(values).max().orElse(0));
	}

	/** The nearest-rank percentile. */
	private static String percentile(double[] values, double percentile) {
		double[] sorted = values.clone();
		Arrays.sort(sorted);
		int rank = (int) Math.ceil(percentile / 100 * sorted.length);
		return String.format("%.2f", sorted[Math.max(0, rank - 1)]);
	}

}
