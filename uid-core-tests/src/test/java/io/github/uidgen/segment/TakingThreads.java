package io.github.uidgen.segment;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

import io.github.uidgen.UidGenerator;
import io.github.uidgen.testsupport.Duplicates;

/**
 * Threads that each take IDs from a generator of their own choosing at the same moment, keeping every ID in the
 * order taken, and the checks the segment tests run on them.
 */
final class TakingThreads {

	private TakingThreads() {
	}

	/**
	 * Starts one thread per generator given (a generator may be given several times) and returns each thread's IDs.
	 * @param generators the generator of each thread
	 * @param perThread how many IDs each thread takes
	 * @return the IDs of each thread, in the order taken
	 */
	static long[][] take(UidGenerator[] generators, int perThread) throws InterruptedException {
		long[][] ids = new long[generators.length][perThread];
		CountDownLatch start = new CountDownLatch(1);
		AtomicReference<Throwable> failure = new AtomicReference<>();
		List<Thread> threads = new ArrayList<>();
		for (int t = 0; t < generators.length; t++) {
			UidGenerator generator = generators[t];
			long[] mine = ids[t];
			Thread thread = new Thread(() -> {
				try {
					start.await();
					for (int i = 0; i < perThread; i++) {
						mine[i] = generator.getUID();
					}
				}
				catch (Throwable ex) {
					failure.compareAndSet(null, ex);
				}
			}, "segment-taker-" + t);
			threads.add(thread);
			thread.start();
		}
		start.countDown();
		for (Thread thread : threads) {
			thread.join(120_000);
		}
		if (failure.get() != null) {
			throw new AssertionError("A taker failed", failure.get());
		}
		return ids;
	}

	/**
	 * Finds the first ID not above the one before it.
	 * @param ids the IDs of one thread, in the order taken
	 * @return its index, or -1 when every ID is above the one before
	 */
	static int firstNotIncreasing(long[] ids) {
		for (int i = 1; i < ids.length; i++) {
			if (ids[i] <= ids[i - 1]) {
				return i;
			}
		}
		return -1;
	}

	/**
	 * Counts the IDs that repeat an earlier one, over all threads.
	 * @param ids the IDs of each thread
	 * @return 0 when all are distinct
	 */
	static long duplicates(long[]... ids) {
		return Duplicates.count(ids);
	}

}
