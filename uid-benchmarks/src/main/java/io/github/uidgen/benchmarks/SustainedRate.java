package io.github.uidgen.benchmarks;

import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;

/**
 * The sustained rate: {@code T} threads take IDs from one generator, back to back, for {@code --seconds} (30), and
 * the IDs taken are counted every 100 ms. A generator that borrows ahead (the cached generator at its defaults may
 * issue up to 10 s of future IDs) shows its burst and then the rate its layout sustains; one that does not shows
 * the layout's ceiling from the start.
 *
 * <p>Nothing is stored, so a run can last as long as wanted: each thread checks that every ID it gets is larger
 * than the one before (a generator promises increasing IDs per thread) and counts those that are not. Duplicates
 * across threads are what the saturation runs check.
 *
 * <p>Each generator and thread count runs in a JVM of its own.
 */
public final class SustainedRate {

	static final String DEFAULT_CONTENDERS = "uid-cached-defaults,uid-default";

	private static final long SAMPLE_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

	/** A thread publishes its count every this many IDs, so counting costs the taking loop nearly nothing. */
	private static final int PUBLISH_EVERY = 256;

	/** Longs between two threads' counters: 128 bytes, so no two share a cache line. */
	private static final int STRIDE = 16;

	private SustainedRate() {
	}

	public static void main(String[] args) throws Exception {
		Arguments arguments = new Arguments(args, "contenders", "threads", "seconds", "child");
		String child = arguments.get("child", null);
		int seconds = arguments.getInt("seconds", 30);
		if (child != null) {
			runChild(Contender.of(child), arguments.getInt("threads", 1), seconds);
			System.exit(0);
		}
		run(arguments.getContenders("contenders", DEFAULT_CONTENDERS), arguments.getInts("threads", "1,2,8"), seconds,
				System.out);
	}

	/**
	 * Runs every contender at every thread count, each in a JVM of its own, and prints the tables.
	 */
	static void run(List<Contender> contenders, List<Integer> threadCounts, int seconds, PrintStream out)
			throws IOException, InterruptedException {
		List<Run> runs = new ArrayList<>();
		for (Contender contender : contenders) {
			for (int threads : threadCounts) {
				System.err.printf("[%tT] sustained: %s, %d thread(s), %d s%n", System.currentTimeMillis(),
						contender.label(), threads, seconds);
				ChildJvm child = ChildJvm.start(contender.label() + " sustained", List.of("-Xms256m", "-Xmx256m"),
						SustainedRate.class, "--child", contender.label(), "--threads", Integer.toString(threads),
						"--seconds", Integer.toString(seconds));
				runs.add(Run.parse(contender, threads, child.results()));
			}
		}
		print(runs, seconds, out);
	}

	private static void print(List<Run> runs, int seconds, PrintStream out) {
		out.printf("## Sustained rate: T threads take IDs from one generator for %d s%n%n", seconds);
		out.printf("Each run in a JVM of its own, with a freshly started generator; the IDs taken are counted every "
				+ "100 ms. \"Ahead of the ceiling\" is the most IDs taken beyond what the layout's ceiling allows since "
				+ "the start (the burst borrowed from future time), and \"burst ended\" when that excess first came "
				+ "within 1%% of its peak; \"second half\" is the rate over the last %d s. Every thread checks "
				+ "that each ID it gets is larger than its previous one.%n%n", seconds / 2);
		MarkdownTable summary = new MarkdownTable("generator", "settings", "threads", "IDs taken", "IDs/s overall",
				"first second", "ahead of the ceiling", "burst ended", "second half, IDs/s", "of ceiling", "threw",
				"not increasing")
			.leftAligned(1);
		for (Run run : runs) {
			long ceiling = run.contender.ceilingPerSecond();
			Sample last = run.samples.get(run.samples.size() - 1);
			Sample half = run.at(last.nanos / 2);
			double secondHalf = run.rate(half, last);
			double firstSecond = run.rate(run.samples.get(0), run.at(TimeUnit.SECONDS.toNanos(1)));
			double peakExcess = 0;
			for (Sample sample : run.samples) {
				peakExcess = Math.max(peakExcess, sample.ids - ceiling * (sample.nanos / 1e9));
			}
			// Once the budget is spent the rate hovers around the ceiling, so the peak itself may come later by
			// chance; the burst ended when the excess first came within 1% of it.
			Sample peak = run.samples.get(0);
			for (Sample sample : run.samples) {
				if (sample.ids - ceiling * (sample.nanos / 1e9) >= 0.99 * peakExcess) {
					peak = sample;
					break;
				}
			}
			boolean burst = ceiling > 0 && peakExcess > ceiling / 100.0;
			summary.row(run.contender.label(), run.contender.settings(), run.threads, String.format("%,d", last.ids),
					MarkdownTable.millions(run.rate(run.samples.get(0), last)), MarkdownTable.millions(firstSecond),
					burst ? String.format("%,.0f", peakExcess) : "none",
					burst ? String.format("%.1f s", peak.nanos / 1e9) : "",
					MarkdownTable.millions(secondHalf),
					(ceiling > 0) ? String.format("%.1f%%", 100 * secondHalf / ceiling) : "",
					String.format("%,d", run.threw), String.format("%,d", run.notIncreasing));
		}
		summary.print(out);
		out.printf("### IDs per second, second by second (millions)%n%n");
		List<String> headers = new ArrayList<>(List.of("second"));
		for (Run run : runs) {
			headers.add(run.contender.label() + ", " + run.threads + "t");
		}
		MarkdownTable timeline = new MarkdownTable(headers.toArray(String[]::new));
		for (int second = 1; second <= seconds; second++) {
			List<Object> row = new ArrayList<>(List.of(second));
			for (Run run : runs) {
				Sample from = run.at(TimeUnit.SECONDS.toNanos(second - 1));
				Sample to = run.at(TimeUnit.SECONDS.toNanos(second));
				row.add((to.nanos > from.nanos) ? String.format("%.2f", run.rate(from, to) / 1e6) : "");
			}
			timeline.row(row.toArray());
		}
		timeline.print(out);
	}

	private static void runChild(Contender contender, int threads, int seconds) throws InterruptedException {
		AtomicLongArray counts = new AtomicLongArray(threads * STRIDE);
		long[] threw = new long[threads];
		long[] notIncreasing = new long[threads];
		CountDownLatch ready = new CountDownLatch(threads);
		CountDownLatch go = new CountDownLatch(1);
		Thread[] takers = new Thread[threads];
		Stop stop = new Stop();
		try (IdSource source = contender.open()) {
			for (int t = 0; t < threads; t++) {
				int index = t;
				takers[t] = new Thread(() -> {
					ready.countDown();
					try {
						go.await();
					}
					catch (InterruptedException ex) {
						Thread.currentThread().interrupt();
						return;
					}
					take(source, counts, index * STRIDE, threw, notIncreasing, index, stop);
				}, "sustained-" + t);
				takers[t].setDaemon(true);
				takers[t].start();
			}
			ready.await();
			long start = System.nanoTime();
			go.countDown();
			long end = start + TimeUnit.SECONDS.toNanos(seconds);
			for (long next = start + SAMPLE_NANOS;; next += SAMPLE_NANOS) {
				for (long wait = next - System.nanoTime(); wait > 0; wait = next - System.nanoTime()) {
					LockSupport.parkNanos(wait);
				}
				long now = System.nanoTime();
				long ids = 0;
				for (int t = 0; t < threads; t++) {
					ids += counts.get(t * STRIDE);
				}
				ChildJvm.report("SAMPLE", now - start, ids);
				if (now - end >= 0) {
					break;
				}
			}
			stop.requested = true;
			for (Thread taker : takers) {
				taker.join(TimeUnit.SECONDS.toMillis(10));
			}
		}
		long totalThrew = 0;
		long totalNotIncreasing = 0;
		for (int t = 0; t < threads; t++) {
			totalThrew += threw[t];
			totalNotIncreasing += notIncreasing[t];
		}
		ChildJvm.report("CHECKS", totalThrew, totalNotIncreasing);
	}

	private static void take(IdSource source, AtomicLongArray counts, int slot, long[] threw, long[] notIncreasing,
			int index, Stop stop) {
		long taken = 0;
		long failures = 0;
		long disorder = 0;
		long previous = Long.MIN_VALUE;
		while (!stop.requested) {
			for (int i = 0; i < PUBLISH_EVERY; i++) {
				long id;
				try {
					id = source.nextId();
				}
				catch (RuntimeException ex) {
					failures++;
					continue;
				}
				if (id <= previous) {
					disorder++;
				}
				previous = id;
				taken++;
			}
			counts.lazySet(slot, taken);
		}
		threw[index] = failures;
		notIncreasing[index] = disorder;
	}

	/** Tells the taking threads to finish, read once per {@link #PUBLISH_EVERY} IDs. */
	private static final class Stop {

		volatile boolean requested;

	}

	private record Sample(long nanos, long ids) {
	}

	/** One run's samples and checks, as the child reported them. */
	private static final class Run {

		final Contender contender;

		final int threads;

		final List<Sample> samples;

		final long threw;

		final long notIncreasing;

		private Run(Contender contender, int threads, List<Sample> samples, long threw, long notIncreasing) {
			this.contender = contender;
			this.threads = threads;
			this.samples = samples;
			this.threw = threw;
			this.notIncreasing = notIncreasing;
		}

		static Run parse(Contender contender, int threads, List<String[]> lines) {
			List<Sample> samples = new ArrayList<>();
			samples.add(new Sample(0, 0));
			long threw = -1;
			long notIncreasing = -1;
			for (String[] line : lines) {
				if (line[0].equals("SAMPLE")) {
					samples.add(new Sample(Long.parseLong(line[1]), Long.parseLong(line[2])));
				}
				else if (line[0].equals("CHECKS")) {
					threw = Long.parseLong(line[1]);
					notIncreasing = Long.parseLong(line[2]);
				}
			}
			if (samples.size() < 2 || threw < 0) {
				throw new IllegalStateException("The sustained run of " + contender.label() + " reported nothing");
			}
			return new Run(contender, threads, samples, threw, notIncreasing);
		}

		/** The sample taken nearest to a time since the start. */
		Sample at(long nanos) {
			Sample nearest = this.samples.get(0);
			for (Sample sample : this.samples) {
				if (Math.abs(sample.nanos - nanos) < Math.abs(nearest.nanos - nanos)) {
					nearest = sample;
				}
			}
			return nearest;
		}

		double rate(Sample from, Sample to) {
			return (to.nanos > from.nanos) ? (to.ids - from.ids) * 1e9 / (to.nanos - from.nanos) : 0;
		}

	}

}
