package io.github.uidgen.snowflake;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;

/**
 * Runs several threads that each take a number of IDs from one supplier at the same moment, and keeps them all.
 */
final class Concurrently {

	private Concurrently() {
	}

	/**
	 * Returns the IDs each thread took, in the order it took them.
	 */
	static long[][] take(LongSupplier source, int threads, int perThread) throws InterruptedException {
		long[][] ids = new long[threads][perThread];
		CountDownLatch start = new CountDownLatch(1);
		AtomicReference<Throwable> failure = new AtomicReference<>();
		List<Thread> workers = new ArrayList<>();
		for (int t = 0; t < threads; t++) {
			long[] mine = ids[t];
			Thread worker = new Thread(() -> {
				try {
					start.await();
					for (int i = 0; i < perThread; i++) {
						mine[i] = source.getAsLong();
					}
				}
				catch (Throwable ex) {
					failure.compareAndSet(null, ex);
				}
			}, "test-taker-" + t);
			workers.add(worker);
			worker.start();
		}
		start.countDown();
		for (Thread worker : workers) {
			worker.join();
		}
		if (failure.get() != null) {
			throw new AssertionError("A taker failed", failure.get());
		}
		return ids;
	}

}
