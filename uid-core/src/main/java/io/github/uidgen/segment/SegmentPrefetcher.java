package io.github.uidgen.segment;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.PriorityQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The background threads that claim segments, shared by any number of generators: a fixed few, each parked while no
 * claim is wanted, so that ten thousand keys cost no more threads than one.
 *
 * <p>A generator asks for a claim from inside {@code getUID} (the take at the prefetch point), so asking is
 * lock-free and allocation-free: the generator's {@link PrefetchTask} is pushed onto a stack of requests with one
 * compare-and-set, and one parked thread is unparked. The threads take requests oldest first, then failed claims
 * whose retry is due, under a lock of their own that the asking side never takes. A thread that finds nothing to do
 * parks until it is unparked or the next retry is due: an idle prefetcher makes no wake-ups at all.
 *
 * <p>A claim that hangs (a store, or one node of a Redis Cluster, that does not answer) holds its thread until the
 * store's own timeout. So that the keys it does not concern are not held up behind it, a caller that waits for a
 * segment whose claim has not started {@linkplain #assist() asks for one more thread}, up to a bound; such extra
 * threads end after 30 seconds without work ({@link #EXTRA_KEEP_ALIVE}).
 */
final class SegmentPrefetcher implements AutoCloseable {

	/** How long an extra thread stays without work before it ends, unless a test sets another time. */
	static final Duration EXTRA_KEEP_ALIVE = Duration.ofSeconds(30);

	private static final Logger logger = LoggerFactory.getLogger(SegmentPrefetcher.class);

	private static final VarHandle REQUESTS;

	static {
		try {
			REQUESTS = MethodHandles.lookup().findVarHandle(SegmentPrefetcher.class, "requests", PrefetchTask.class);
		}
		catch (ReflectiveOperationException ex) {
			throw new ExceptionInInitializerError(ex);
		}
	}

	private static final long CLOSE_WAIT_NANOS = TimeUnit.SECONDS.toNanos(5);

	/** How long an extra thread of this prefetcher stays without work before it ends. */
	private final long extraKeepAliveNanos;

	/** Requests not yet taken, newest first, linked through {@link PrefetchTask#queuedNext}. */
	private volatile PrefetchTask requests;

	/** Taken by the prefetch threads only: guards {@link #pending} and {@link #retries}. */
	private final ReentrantLock lock = new ReentrantLock();

	/** Requests moved off the stack, oldest first. */
	private final ArrayDeque<PrefetchTask> pending = new ArrayDeque<>();

	/** Failed claims waiting for their retry, earliest due first. */
	private final PriorityQueue<PrefetchTask> retries = new PriorityQueue<>(
			(a, b) -> Long.signum(a.dueNanos - b.dueNanos));

	private final String namePrefix;

	private final String singleName;

	private final int core;

	private final ThreadFactory threadFactory;

	/** The threads by slot: the first {@code core} run until closed, the others end when idle; null when free. */
	private final AtomicReferenceArray<Thread> threads;

	/** 1 while the thread of that slot is parked or about to park. */
	private final AtomicIntegerArray parked;

	private boolean started;

	private volatile boolean closed;

	private SegmentPrefetcher(String namePrefix, String singleName, int core, int max, long extraKeepAliveNanos,
			ThreadFactory threadFactory) {
		this.namePrefix = namePrefix;
		this.singleName = singleName;
		this.core = core;
		this.extraKeepAliveNanos = extraKeepAliveNanos;
		this.threadFactory = threadFactory;
		this.threads = new AtomicReferenceArray<>(max);
		this.parked = new AtomicIntegerArray(max);
	}

	/**
	 * Creates the prefetcher of one generator: one thread, for one key's claims, which run one at a time.
	 * @param name the thread's name
	 * @param threadFactory makes the thread (for example a virtual one), or {@code null} for a daemon platform thread
	 * @return the prefetcher, not started
	 */
	static SegmentPrefetcher single(String name, ThreadFactory threadFactory) {
		return new SegmentPrefetcher(null, name, 1, 1, 0, threadFactory);
	}

	/**
	 * Creates the prefetcher of a set of generators: {@code size} threads named {@code <prefix>1},
	 * {@code <prefix>2}, ..., and up to {@code max} in all while callers wait for claims that have not started.
	 * @param prefix the start of each thread's name
	 * @param size how many threads run while the prefetcher is open
	 * @param max how many may run at most
	 * @param extraKeepAlive how long a thread beyond {@code size} stays without work before it ends
	 * @param threadFactory makes the threads, or {@code null} for daemon platform threads
	 * @return the prefetcher, not started
	 */
	static SegmentPrefetcher shared(String prefix, int size, int max, Duration extraKeepAlive,
			ThreadFactory threadFactory) {
		return new SegmentPrefetcher(prefix, null, size, Math.max(size, max), extraKeepAlive.toNanos(), threadFactory);
	}

	/** Starts the threads that run while the prefetcher is open, once; later calls do nothing. */
	synchronized void start() {
		if (this.started || this.closed) {
			return;
		}
		this.started = true;
		for (int slot = 0; slot < this.core; slot++) {
			startThread(slot);
		}
	}

	/** Starts a thread in a free slot; under this object's monitor. */
	private void startThread(int slot) {
		Runnable work = () -> work(slot);
		Thread thread = (this.threadFactory != null) ? this.threadFactory.newThread(work) : new Thread(work);
		thread.setName((this.singleName != null) ? this.singleName : this.namePrefix + (slot + 1));
		if (this.threadFactory == null) {
			thread.setDaemon(true);
		}
		this.threads.set(slot, thread);
		thread.start();
	}

	/**
	 * Asks for a task to run as soon as a thread is free. Lock-free and allocation-free; the caller makes sure the
	 * task is not queued already.
	 * @param task the task
	 */
	void request(PrefetchTask task) {
		PrefetchTask head;
		do {
			head = this.requests;
			task.queuedNext = head;
		}
		while (!REQUESTS.compareAndSet(this, head, task));
		wakeOne();
	}

	/**
	 * Runs a task again once {@code dueNanos} is reached; for a claim that failed. Called from a prefetch thread.
	 * @param task the task, not queued otherwise
	 * @param dueNanos when, by {@link System#nanoTime()}
	 */
	void retryAt(PrefetchTask task, long dueNanos) {
		this.lock.lock();
		try {
			task.dueNanos = dueNanos;
			this.retries.add(task);
		}
		finally {
			this.lock.unlock();
		}
		wakeOne();
	}

	/**
	 * Called by a caller that waits for a claim that has not started: when no thread is free to start it (every
	 * one is in a claim, maybe one that hangs), starts one more, within the bound. Not for the hot path.
	 */
	void assist() {
		if (wakeOne()) {
			return;
		}
		synchronized (this) {
			if (!this.started || this.closed) {
				return;
			}
			for (int slot = this.core; slot < this.threads.length(); slot++) {
				if (this.threads.get(slot) == null) {
					logger.debug("Every uid segment prefetch thread is in a claim while a claim waits; starting "
							+ "another ({} at most)", this.threads.length());
					startThread(slot);
					return;
				}
			}
		}
	}

	/**
	 * Returns the most threads this prefetcher runs on.
	 * @return the count
	 */
	int maxThreads() {
		return this.threads.length();
	}

	/** Unparks one parked thread, if one is; returns whether one was. */
	private boolean wakeOne() {
		for (int slot = 0; slot < this.parked.length(); slot++) {
			if (this.parked.get(slot) == 1) {
				Thread thread = this.threads.get(slot);
				if (thread != null) {
					LockSupport.unpark(thread);
					return true;
				}
			}
		}
		return false;
	}

	private void work(int slot) {
		boolean extra = slot >= this.core;
		long idleSince = System.nanoTime();
		while (!this.closed) {
			PrefetchTask task = next();
			if (task != null) {
				runSafely(task);
				idleSince = System.nanoTime();
				continue;
			}
			if (extra && System.nanoTime() - idleSince >= this.extraKeepAliveNanos && endExtra(slot)) {
				return;
			}
			// Announce the park first, then look again: a request pushed meanwhile is either seen here, or its
			// pusher sees this thread parked and unparks it.
			this.parked.set(slot, 1);
			long waitNanos = untilWorkIsDue();
			if (extra) {
				waitNanos = Math.min(waitNanos, Math.max(1, idleSince + this.extraKeepAliveNanos - System.nanoTime()));
			}
			if (waitNanos > 0 && !this.closed) {
				if (waitNanos == Long.MAX_VALUE) {
					LockSupport.park(this);
				}
				else {
					LockSupport.parkNanos(this, waitNanos);
				}
			}
			this.parked.set(slot, 0);
		}
	}

	/**
	 * Frees an idle extra thread's slot; returns false (and keeps the thread) when work came meanwhile. A request
	 * that unparked this thread just before is still seen by the threads that run until closed, which always look
	 * again before they park.
	 */
	private boolean endExtra(int slot) {
		synchronized (this) {
			if (untilWorkIsDue() == 0) {
				return false;
			}
			this.threads.set(slot, null);
		}
		if (untilWorkIsDue() == 0) {
			wakeOne();
		}
		return true;
	}

	/** Takes the oldest request, else a failed claim whose retry is due; {@code null} when neither is there. */
	private PrefetchTask next() {
		PrefetchTask task;
		boolean more;
		this.lock.lock();
		try {
			if (this.pending.isEmpty()) {
				drainRequests();
			}
			// Requests first: they are keys at their prefetch point or callers waiting; a retry of a store that
			// fails (or of one node that hangs) must not hold them up.
			task = this.pending.poll();
			if (task == null) {
				PrefetchTask due = this.retries.peek();
				if (due != null && System.nanoTime() - due.dueNanos >= 0) {
					task = this.retries.poll();
				}
			}
			more = !this.pending.isEmpty() || this.requests != null;
		}
		finally {
			this.lock.unlock();
		}
		if (more) {
			wakeOne();
		}
		return task;
	}

	/** Moves every request off the stack into {@link #pending}, oldest first; under the lock. */
	private void drainRequests() {
		PrefetchTask newest = (PrefetchTask) REQUESTS.getAndSet(this, null);
		for (PrefetchTask task = newest; task != null;) {
			PrefetchTask older = task.queuedNext;
			task.queuedNext = null;
			this.pending.addFirst(task);
			task = older;
		}
	}

	/** Returns 0 when there is work now, else how long until a retry is due, or {@link Long#MAX_VALUE}. */
	private long untilWorkIsDue() {
		if (this.requests != null) {
			return 0;
		}
		this.lock.lock();
		try {
			if (!this.pending.isEmpty()) {
				return 0;
			}
			PrefetchTask due = this.retries.peek();
			return (due != null) ? Math.max(0, due.dueNanos - System.nanoTime()) : Long.MAX_VALUE;
		}
		finally {
			this.lock.unlock();
		}
	}

	private static void runSafely(PrefetchTask task) {
		try {
			task.run();
		}
		catch (RuntimeException | Error ex) {
			logger.error("uid segment prefetch task {} failed", task, ex);
		}
	}

	/**
	 * Stops the threads, waiting at most 5 seconds in all for claims under way to return; queued requests and
	 * retries are dropped.
	 */
	@Override
	public void close() {
		Thread[] running = new Thread[this.threads.length()];
		synchronized (this) {
			this.closed = true;
			for (int slot = 0; slot < running.length; slot++) {
				running[slot] = this.threads.get(slot);
			}
		}
		for (Thread thread : running) {
			if (thread != null) {
				LockSupport.unpark(thread);
			}
		}
		long deadline = System.nanoTime() + CLOSE_WAIT_NANOS;
		for (Thread thread : running) {
			if (thread == null || thread == Thread.currentThread()) {
				continue;
			}
			long left = deadline - System.nanoTime();
			try {
				if (left > 0) {
					thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return;
			}
		}
	}

	@Override
	public String toString() {
		return "SegmentPrefetcher[threads=" + this.core + " to " + this.threads.length() + ", closed=" + this.closed
				+ "]";
	}

}
