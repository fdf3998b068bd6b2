package io.github.uidgen.benchmarks;

import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * One saturation run: {@code threads} threads take {@code idsPerThread} IDs each, back to back, from one shared
 * generator; every ID is kept in a preallocated array and afterwards every one is checked for duplicates.
 *
 * <p>A call that throws is counted and retried, so each thread still ends with its full share of IDs (unless the
 * generator keeps throwing past a deadline, which is then reported as an incomplete run).
 */
final class SaturationRun {

	private static final long DEADLINE_NANOS = TimeUnit.SECONDS.toNanos(120);

	/** Up to this many threads' IDs are merged array by array; beyond it, all are sorted together. */
	private static final int MERGE_LIMIT = 64;

	private final Contender contender;

	private final int threads;

	private final int idsPerThread;

	private final ThreadKind kind;

	SaturationRun(Contender contender, int threads, int idsPerThread) {
		this(contender, threads, idsPerThread, ThreadKind.PLATFORM);
	}

	SaturationRun(Contender contender, int threads, int idsPerThread, ThreadKind kind) {
		this.contender = contender;
		this.threads = threads;
		this.idsPerThread = idsPerThread;
		this.kind = kind;
	}

	/**
	 * Runs once with a freshly started generator, into the given arrays.
	 * @param ids one array of at least {@code idsPerThread} slots per thread, reused between runs
	 * @return the outcome
	 */
	Outcome run(long[][] arrays) throws InterruptedException {
		long[][] ids = Arrays.copyOf(arrays, this.threads);
		long[] threw = new long[this.threads];
		int[] taken = new int[this.threads];
		CountDownLatch ready = new CountDownLatch(this.threads);
		CountDownLatch go = new CountDownLatch(1);
		Thread[] workers = new Thread[this.threads];
		long start;
		long end;
		try (IdSource source = this.contender.open()) {
			for (int t = 0; t < this.threads; t++) {
				int index = t;
				workers[t] = this.kind.newThread(() -> {
					ready.countDown();
					try {
						go.await();
					}
					catch (InterruptedException ex) {
						Thread.currentThread().interrupt();
						return;
					}
					take(source, ids[index], threw, taken, index);
				}, "saturation-" + t);
				workers[t].start();
			}
			ready.await();
			start = System.nanoTime();
			go.countDown();
			for (Thread worker : workers) {
				worker.join();
			}
			end = System.nanoTime();
		}
		long totalThrew = 0;
		long obtained = 0;
		for (int t = 0; t < this.threads; t++) {
			totalThrew += threw[t];
			obtained += taken[t];
		}
		Check check = check(ids, taken);
		return new Outcome(this.contender, this.threads, obtained, end - start, totalThrew, check.duplicates,
				check.negatives, obtained == (long) this.threads * this.idsPerThread);
	}

	private void take(IdSource source, long[] mine, long[] threw, int[] taken, int index) {
		int count = this.idsPerThread;
		long failures = 0;
		long deadline = System.nanoTime() + DEADLINE_NANOS;
		int n = 0;
		while (n < count) {
			try {
				mine[n] = source.nextId();
				n++;
			}
			catch (RuntimeException ex) {
				failures++;
				if ((failures & 0x3FF) == 0 && System.nanoTime() - deadline > 0) {
					break;
				}
			}
		}
		threw[index] = failures;
		taken[index] = n;
	}

	/**
	 * Sorts each thread's IDs, then merges all of them in order, counting every ID equal to the one before it.
	 */
	static Check check(long[][] ids, int[] taken) {
		int k = ids.length;
		if (k > MERGE_LIMIT) {
			return checkAll(ids, taken);
		}
		int[] position = new int[k];
		long negatives = 0;
		for (int t = 0; t < k; t++) {
			Arrays.sort(ids[t], 0, taken[t]);
			for (int i = 0; i < taken[t] && ids[t][i] < 0; i++) {
				negatives++;
			}
		}
		long duplicates = 0;
		boolean first = true;
		long previous = 0;
		for (;;) {
			int next = -1;
			long smallest = Long.MAX_VALUE;
			for (int t = 0; t < k; t++) {
				if (position[t] < taken[t] && (next < 0 || ids[t][position[t]] < smallest)) {
					next = t;
					smallest = ids[t][position[t]];
				}
			}
			if (next < 0) {
				return new Check(duplicates, negatives);
			}
			position[next]++;
			if (!first && smallest == previous) {
				duplicates++;
			}
			first = false;
			previous = smallest;
		}
	}

	/**
	 * With thousands of threads, merging their arrays one ID at a time would scan every array per ID: all IDs go into
	 * one array instead, sorted and compared with their neighbours.
	 */
	private static Check checkAll(long[][] ids, int[] taken) {
		long total = 0;
		for (int t = 0; t < ids.length; t++) {
			total += taken[t];
		}
		long[] all = new long[Math.toIntExact(total)];
		int at = 0;
		for (int t = 0; t < ids.length; t++) {
			System.arraycopy(ids[t], 0, all, at, taken[t]);
			at += taken[t];
		}
		Arrays.parallelSort(all);
		long negatives = 0;
		long duplicates = 0;
		for (int i = 0; i < all.length; i++) {
			if (all[i] < 0) {
				negatives++;
			}
			if (i > 0 && all[i] == all[i - 1]) {
				duplicates++;
			}
		}
		return new Check(duplicates, negatives);
	}

	record Check(long duplicates, long negatives) {
	}

	/**
	 * What one run measured.
	 * @param contender the generator
	 * @param threads taking threads
	 * @param ids IDs obtained
	 * @param nanos wall time from the start signal until the last thread finished
	 * @param threw calls that threw instead of returning an ID
	 * @param duplicates IDs equal to another ID of the same run
	 * @param negatives IDs below zero
	 * @param complete whether every thread got its full share
	 */
	record Outcome(Contender contender, int threads, long ids, long nanos, long threw, long duplicates,
			long negatives, boolean complete) {

		double idsPerSecond() {
			return this.ids * 1e9 / this.nanos;
		}

		String toLine() {
			return String.join("\t", "RESULT", this.contender.name(), Integer.toString(this.threads),
					Long.toString(this.ids), Long.toString(this.nanos), Long.toString(this.threw),
					Long.toString(this.duplicates), Long.toString(this.negatives), Boolean.toString(this.complete));
		}

		static Outcome parse(String line) {
			String[] f = line.split("\t");
			return new Outcome(Contender.valueOf(f[1]), Integer.parseInt(f[2]), Long.parseLong(f[3]),
					Long.parseLong(f[4]), Long.parseLong(f[5]), Long.parseLong(f[6]), Long.parseLong(f[7]),
					Boolean.parseBoolean(f[8]));
		}

	}

}
