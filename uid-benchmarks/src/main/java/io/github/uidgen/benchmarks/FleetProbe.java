package io.github.uidgen.benchmarks;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;

import io.github.uidgen.DecodedUid;
import io.github.uidgen.UidException;
import io.github.uidgen.UidLayout;
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

	/** Which instance gave each ID, and when (epoch milliseconds): said of a duplicate. */
	private int[] instances = new int[1 << 20];

	private long[] takenMillis = new long[1 << 20];

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
			this.instances = Arrays.copyOf(this.instances, this.ids.length);
			this.takenMillis = Arrays.copyOf(this.takenMillis, this.ids.length);
		}
		this.instances[this.count] = index;
		this.takenMillis[this.count] = System.currentTimeMillis();
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

	/**
	 * Describes the first duplicates, once stopped: each ID decoded, and which instances gave it when, so that a
	 * duplicate can be traced in the run's log (each instance logs its worker IDs, lost and claimed again).
	 * @param layout the generators' layout
	 * @param limit how many to describe at most
	 * @return a line for each
	 */
	List<String> describeDuplicates(UidLayout layout, int limit) {
		Integer[] order = new Integer[this.count];
		for (int i = 0; i < this.count; i++) {
			order[i] = i;
		}
		Arrays.sort(order, (a, b) -> Long.compare(this.ids[a], this.ids[b]));
		List<String> lines = new ArrayList<>();
		for (int i = 1; i < this.count && lines.size() < limit; i++) {
			int earlier = order[i - 1];
			int later = order[i];
			if (this.ids[earlier] == this.ids[later]) {
				DecodedUid decoded = layout.decode(this.ids[later]);
				lines.add(String.format(Locale.ROOT, "%d: %s; from instance %d at %s and instance %d at %s",
						this.ids[later], decoded, this.instances[earlier], Instant.ofEpochMilli(this.takenMillis[earlier]),
						this.instances[later], Instant.ofEpochMilli(this.takenMillis[later])));
			}
		}
		return lines;
	}

	/** Every ID taken, once stopped. */
	long[] ids() {
		return Arrays.copyOf(this.ids, this.count);
	}

}
