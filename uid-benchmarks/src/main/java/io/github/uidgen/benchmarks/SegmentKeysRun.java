package io.github.uidgen.benchmarks;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;

import io.github.uidgen.segment.SegmentUidGenerator;
import io.github.uidgen.segment.SegmentUidGenerators;
import org.openjdk.jol.info.GraphLayout;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * The measurements of {@link SegmentKeys}, in the child JVM: each result is printed as a {@link ChildJvm#report}
 * line.
 */
final class SegmentKeysRun {

	private static final MemoryMXBean MEMORY = ManagementFactory.getMemoryMXBean();

	private static final int PARALLEL_CALLERS = 8;

	private final int keys;

	private final List<Integer> threads;

	private final int seconds;

	private final String redis;

	private final boolean virtual;

	SegmentKeysRun(int keys, List<Integer> threads, int seconds, String redis, boolean virtual) {
		this.keys = keys;
		this.threads = threads;
		this.seconds = seconds;
		this.redis = redis;
		this.virtual = virtual;
	}

	void run() throws Exception {
		LettuceConnectionFactory factory = SegmentKeys.connect(this.redis);
		String prefix = SegmentKeys.newPrefix();
		try {
			// The connection, the persistence check and the code of a claim, warmed up on keys not measured.
			try (SegmentUidGenerators warmUp = SegmentKeys.generators(factory, prefix + "-warmup", this.virtual)) {
				for (int i = 0; i < 500; i++) {
					warmUp.forKey("warmup-" + i).getUID();
				}
			}
			SegmentKeys.removeKeys(factory, prefix + "-warmup");
			Thread.sleep(500);
			ChildJvm.report("threadKind", this.virtual ? "virtual" : "platform");
			ChildJvm.report("threadsBefore", SegmentKeys.jvmThreads());
			ChildJvm.report("rssBefore", SegmentKeys.rss());
			long heapBefore = settledHeap();

			SegmentUidGenerators generators = SegmentKeys.generators(factory, prefix, this.virtual);
			String[] names = new String[this.keys];
			// Each key's first number, and one INCRBY on a key of its own right after it: the floor, measured
			// interleaved so that both see the same load of a shared machine.
			StringRedisTemplate redis = new StringRedisTemplate(factory);
			long firstNanos = 0;
			long incrbyNanos = 0;
			for (int i = 0; i < this.keys; i++) {
				names[i] = "tenant-" + i;
				long started = System.nanoTime();
				long first = generators.forKey(names[i]).getUID();
				long between = System.nanoTime();
				redis.opsForValue().increment(prefix + "-floor:tenant-" + i, 1000);
				incrbyNanos += System.nanoTime() - between;
				firstNanos += between - started;
				if (first != 1) {
					throw new IllegalStateException("The first number of " + names[i] + " is " + first);
				}
			}
			ChildJvm.report("firstSequentialNanos", firstNanos);
			ChildJvm.report("incrbyNanos", incrbyNanos);
			Thread.sleep(500);
			ChildJvm.report("threadsAfter", SegmentKeys.jvmThreads());
			ChildJvm.report("uidThreads", SegmentKeys.uidThreads());
			ChildJvm.report("rssAfter", SegmentKeys.rss());
			ChildJvm.report("heapPerKey", (settledHeap() - heapBefore) / this.keys);
			ChildJvm.report("jolPerKey", jolPerKey(generators, names));

			ChildJvm.report("firstParallelNanos", firstNumbersAtOnce(factory, prefix + "-parallel"));

			int uidThreadsMax = SegmentKeys.uidThreads();
			for (int threadCount : this.threads) {
				uidThreadsMax = Math.max(uidThreadsMax, steady(generators, names, threadCount));
			}
			ChildJvm.report("uidThreadsMax", uidThreadsMax);
			generators.close();
		}
		finally {
			SegmentKeys.removeKeys(factory, prefix);
			SegmentKeys.removeKeys(factory, prefix + "-parallel");
			SegmentKeys.removeKeys(factory, prefix + "-floor");
			factory.destroy();
		}
	}

	/**
	 * The exact bytes a key adds, walked with JOL: the objects reachable from all keys' generators less those
	 * reachable from half of them (what they share, the store and the threads, counts once in both), per key.
	 */
	private static long jolPerKey(SegmentUidGenerators generators, String[] names) {
		Object[] all = new Object[names.length];
		for (int k = 0; k < names.length; k++) {
			all[k] = generators.forKey(names[k]);
		}
		Object[] half = Arrays.copyOf(all, names.length / 2);
		long allBytes = GraphLayout.parseInstance(all).totalSize();
		long halfBytes = GraphLayout.parseInstance(half).totalSize();
		return (allBytes - halfBytes) / (names.length - half.length);
	}

	/** Takes the first number of as many further keys from eight threads at once; returns the nanoseconds. */
	private long firstNumbersAtOnce(LettuceConnectionFactory factory, String prefix) throws InterruptedException {
		try (SegmentUidGenerators others = SegmentKeys.generators(factory, prefix, this.virtual)) {
			CountDownLatch start = new CountDownLatch(1);
			AtomicReference<Throwable> failure = new AtomicReference<>();
			List<Thread> callers = new ArrayList<>();
			for (int c = 0; c < PARALLEL_CALLERS; c++) {
				int caller = c;
				Thread thread = new Thread(() -> {
					try {
						start.await();
						for (int i = caller; i < this.keys; i += PARALLEL_CALLERS) {
							if (others.forKey("other-" + i).getUID() != 1) {
								throw new IllegalStateException("The first number of other-" + i + " is not 1");
							}
						}
					}
					catch (Throwable ex) {
						failure.compareAndSet(null, ex);
					}
				});
				callers.add(thread);
				thread.start();
			}
			long started = System.nanoTime();
			start.countDown();
			for (Thread thread : callers) {
				thread.join();
			}
			long elapsed = System.nanoTime() - started;
			if (failure.get() != null) {
				throw new IllegalStateException("A caller failed", failure.get());
			}
			return elapsed;
		}
	}

	/**
	 * Runs {@code threadCount} threads that each take one number of every key in turn, 1 s of warm-up then
	 * {@code seconds} measured, keeping every number; checks them and reports the rate. Returns the most uid threads
	 * seen meanwhile.
	 */
	private int steady(SegmentUidGenerators generators, String[] names, int threadCount) throws Exception {
		long[] base = new long[names.length];
		long fetchedBefore = 0;
		for (int k = 0; k < names.length; k++) {
			SegmentUidGenerator generator = generators.forKey(names[k]);
			base[k] = generator.getCurrentSegment().first();
			fetchedBefore += generator.getSegmentsFetched();
		}
		Taker[] takers = new Taker[threadCount];
		AtomicLongArray counts = new AtomicLongArray(threadCount * 16);
		for (int t = 0; t < threadCount; t++) {
			takers[t] = new Taker(generators, names, base, counts, t * 16);
		}
		for (Taker taker : takers) {
			taker.start();
		}
		int uidThreadsMax = 0;
		long warmUpEnd = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
		while (System.nanoTime() < warmUpEnd) {
			uidThreadsMax = Math.max(uidThreadsMax, SegmentKeys.uidThreads());
			Thread.sleep(100);
		}
		long countBefore = total(counts, threadCount);
		long started = System.nanoTime();
		long end = started + TimeUnit.SECONDS.toNanos(this.seconds);
		while (System.nanoTime() < end) {
			uidThreadsMax = Math.max(uidThreadsMax, SegmentKeys.uidThreads());
			Thread.sleep(100);
		}
		long countAfter = total(counts, threadCount);
		long elapsed = System.nanoTime() - started;
		for (Taker taker : takers) {
			taker.stopped = true;
		}
		for (Taker taker : takers) {
			taker.join();
			if (taker.failure != null) {
				throw new IllegalStateException("A taker failed", taker.failure);
			}
		}
		long fetchedAfter = 0;
		for (String name : names) {
			fetchedAfter += generators.forKey(name).getSegmentsFetched();
		}
		long checked = 0;
		long duplicates = 0;
		for (Taker taker : takers) {
			duplicates += taker.notIncreasing;
		}
		for (int k = 0; k < names.length; k++) {
			int size = 0;
			for (Taker taker : takers) {
				size += taker.sizes[k];
			}
			int[] all = new int[size];
			int at = 0;
			for (Taker taker : takers) {
				System.arraycopy(taker.offsets[k], 0, all, at, taker.sizes[k]);
				at += taker.sizes[k];
			}
			Arrays.sort(all);
			for (int i = 1; i < all.length; i++) {
				if (all[i] == all[i - 1]) {
					duplicates++;
				}
			}
			checked += size;
		}
		double rate = (countAfter - countBefore) / (elapsed / 1e9);
		ChildJvm.report("steady", threadCount, rate, checked, duplicates, fetchedAfter - fetchedBefore,
				uidThreadsMax);
		return uidThreadsMax;
	}

	private static long total(AtomicLongArray counts, int threadCount) {
		long sum = 0;
		for (int t = 0; t < threadCount; t++) {
			sum += counts.get(t * 16);
		}
		return sum;
	}

	/** Collects until the used heap stops shrinking, then reports it. */
	private static long settledHeap() throws InterruptedException {
		long previous = Long.MAX_VALUE;
		for (int i = 0; i < 10; i++) {
			System.gc();
			Thread.sleep(50);
			long used = MEMORY.getHeapMemoryUsage().getUsed();
			if (used >= previous && i >= 2) {
				return previous;
			}
			previous = Math.min(previous, used);
		}
		return previous;
	}

	/**
	 * One taking thread: every key in turn, one number each, through {@code forKey} as a service with a sequence per
	 * tenant would; keeps each number as its offset from the key's base and checks that its numbers of a key
	 * increase.
	 */
	private static final class Taker extends Thread {

		private final SegmentUidGenerators generators;

		private final String[] names;

		private final long[] base;

		private final long[] last;

		final int[][] offsets;

		final int[] sizes;

		private final AtomicLongArray counts;

		private final int slot;

		volatile boolean stopped;

		long notIncreasing;

		Throwable failure;

		Taker(SegmentUidGenerators generators, String[] names, long[] base, AtomicLongArray counts, int slot) {
			super("segment-keys-taker");
			this.generators = generators;
			this.names = names;
			this.base = base;
			this.last = new long[names.length];
			this.offsets = new int[names.length][64];
			this.sizes = new int[names.length];
			this.counts = counts;
			this.slot = slot;
		}

		@Override
		public void run() {
			try {
				long count = 0;
				while (!this.stopped) {
					for (int k = 0; k < this.names.length; k++) {
						long uid = this.generators.forKey(this.names[k]).getUID();
						if (uid <= this.last[k]) {
							this.notIncreasing++;
						}
						this.last[k] = uid;
						int size = this.sizes[k];
						if (size == this.offsets[k].length) {
							this.offsets[k] = Arrays.copyOf(this.offsets[k], size * 2);
						}
						this.offsets[k][size] = Math.toIntExact(uid - this.base[k]);
						this.sizes[k] = size + 1;
					}
					count += this.names.length;
					this.counts.lazySet(this.slot, count);
				}
			}
			catch (Throwable ex) {
				this.failure = ex;
			}
		}

	}

}
