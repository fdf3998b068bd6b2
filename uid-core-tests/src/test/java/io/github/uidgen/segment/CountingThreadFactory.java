package io.github.uidgen.segment;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/** Makes daemon threads and keeps them, so a test can count and watch the threads a prefetcher started. */
final class CountingThreadFactory implements ThreadFactory {

	private final List<Thread> threads = new CopyOnWriteArrayList<>();

	private final AtomicInteger count = new AtomicInteger();

	@Override
	public Thread newThread(Runnable work) {
		Thread thread = new Thread(work, "counted-" + this.count.incrementAndGet());
		thread.setDaemon(true);
		this.threads.add(thread);
		return thread;
	}

	/**
	 * Returns every thread made so far, in the order made.
	 * @return the threads, alive or not
	 */
	List<Thread> created() {
		return this.threads;
	}

}
