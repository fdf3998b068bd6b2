package io.github.uidgen.benchmarks;

import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;

import io.github.uidgen.UidException;
import io.github.uidgen.snowflake.DefaultUidGenerator;

/**
 * Asks every running instance of the fleet simulation for one ID every 100 ms, on a thread of its own: counts the
 * calls and the refusals, and keeps every ID for the duplicate check at the end.
 */
final class FleetProbe {

	private static final long PAUSE_MILLIS = 100;

	private final AtomicReferenceArray<DefaultUidGenerator> generators;

	private final AtomicLong calls = new AtomicLong();

	private final AtomicLong refused = new AtomicLong();

	private volatile String lastRefusal;

	/** Written by the probe's thread only, read once it has stopped. */
	private long[] ids = new long[1 << 20];

	private int count;

	private volatile boolean running;

	private Thread thread;

	FleetProbe(AtomicReferenceArray<DefaultUidGenerator> generators) {
		this.generators = generators;
	}

	void start() {
		this.running = true;
		this.thread = new Thread(this::run, "fleet-probe");
		this.thread.setDaemon(true);
		this.thread.start();
	}

	private void run() {
		while (this.running) {
			for (int i = 0; i < this.generators.length(); i++) {
				DefaultUidGenerator generator = this.generators.get(i);
				if (generator != null) {
					ask(i, generator);
				}
			}
			try {
				Thread.sleep(PAUSE_MILLIS);
			}
			catch (InterruptedException ex) {
				return;
			}
		}
	}

	private void ask(int index, DefaultUidGenerator generator) {
		this.calls.incrementAndGet();
		long id;
		try {
			id = generator.getUID();
		}
		catch (UidException ex) {
			// Closed by a rolling restart between the read of its slot and the call: not a refusal of a running one.
			if (this.generators.get(index) == generator) {
				this.refused.incrementAndGet();
				this.lastRefusal = "instance " + index + ": " + ex.getClass().getSimpleName() + ": " + ex.getMessage();
			}
			return;
		}
		if (this.count == this.ids.length) {
			this.ids = Arrays.copyOf(this.ids, this.ids.length * 2);
		}
		this.ids[this.count++] = id;
	}

	long calls() {
		return this.calls.get();
	}

	long refused() {
		return this.refused.get();
	}

	/**
	 * Says how many calls running instances refused since an earlier count, and the last refusal's reason.
	 * @param before {@link #refused()} then
	 * @return the count, with the reason when there were any
	 */
	String refusedSince(long before) {
		long refused = refused() - before;
		return (refused == 0) ? "0" : String.format(Locale.ROOT, "%,d (the last: %s)", refused, this.lastRefusal);
	}

	/** Stops the probe and waits for its thread. */
	void stop() throws InterruptedException {
		this.running = false;
		this.thread.interrupt();
		this.thread.join(10_000);
	}

	/** Every ID taken, once stopped. */
	long[] ids() {
		return Arrays.copyOf(this.ids, this.count);
	}

}
