package io.github.uidgen.benchmarks;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static io.github.uidgen.benchmarks.FleetSimulation.ms;

/**
 * The store's floor, uid aside, measured before a fleet simulation's instances start: N clients made as the
 * instances' are ({@link FleetStore#floorClient}), released at one moment, each makes its first round trip (the
 * connection or session); once all have, they are released again and each writes one record of its own; then the
 * store's CPU is read while the clients stay connected and send nothing of their own (a Curator client still pings its
 * session), and again while each writes its record once every renewal interval. No claim at a simultaneous start
 * takes less than the first two; the idle clients' upkeep is what the store spends on a fleet's connections or
 * sessions whatever they write, and renewals cost the store at least the writes' figure.
 */
final class StoreFloor {

	private final FleetStore store;

	private final int size;

	private final String[] instanceIds;

	private final Duration window;

	private final PrintStream out;

	/**
	 * @param store the store
	 * @param size how many clients
	 * @param instanceIds an identity for each
	 * @param window how long the idle clients, and then their writes at the renewal rate, are measured
	 * @param out where the figures are printed
	 */
	StoreFloor(FleetStore store, int size, String[] instanceIds, Duration window, PrintStream out) {
		this.store = store;
		this.size = size;
		this.instanceIds = instanceIds;
		this.window = window;
		this.out = out;
	}

	/**
	 * Runs the four steps and prints them.
	 * @return the figures for the summary of all stores: connect p99; one write p99; the store's CPU with the clients
	 * idle and at the renewal rate
	 */
	String measure() throws InterruptedException {
		long[] connects = new long[this.size];
		long[] writes = new long[this.size];
		WindowCpu idle = WindowCpu.NONE;
		WindowCpu steady = WindowCpu.NONE;
		long steadyCount = 0;
		List<String> failures = new ArrayList<>();
		CountDownLatch ready = new CountDownLatch(this.size);
		CountDownLatch connected = new CountDownLatch(this.size);
		CountDownLatch written = new CountDownLatch(this.size);
		CountDownLatch connect = new CountDownLatch(1);
		CountDownLatch write = new CountDownLatch(1);
		CountDownLatch steadyGo = new CountDownLatch(1);
		CountDownLatch close = new CountDownLatch(1);
		AtomicLong steadyWrites = new AtomicLong();
		long intervalNanos = this.store.renewalInterval().toNanos();
		long[] releaseNanos = new long[2];
		List<Thread> threads = new ArrayList<>();
		for (int i = 0; i < this.size; i++) {
			int index = i;
			Thread thread = new Thread(() -> {
				try (FleetStore.FloorClient client = this.store.floorClient(this.instanceIds[index])) {
					ready.countDown();
					boolean connectCounted = false;
					try {
						connect.await();
						client.connect();
						connects[index] = System.nanoTime() - releaseNanos[0];
						connected.countDown();
						connectCounted = true;
						write.await();
						client.write();
						writes[index] = System.nanoTime() - releaseNanos[1];
					}
					catch (RuntimeException ex) {
						synchronized (failures) {
							failures.add(ex.getClass().getSimpleName() + ": " + ex.getMessage());
						}
					}
					finally {
						if (!connectCounted) {
							connected.countDown();
						}
						written.countDown();
					}
					steadyGo.await();
					if (writes[index] > 0) {
						writeAtIntervals(client, intervalNanos, close, steadyWrites);
					}
					close.await();
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
				finally {
					ZooKeeperWatch.threadEnded();
				}
			}, "fleet-floor-" + index);
			thread.setDaemon(true);
			threads.add(thread);
			thread.start();
		}
		try {
			await(ready, "made their clients");
			releaseNanos[0] = System.nanoTime();
			connect.countDown();
			await(connected, "connected");
			releaseNanos[1] = System.nanoTime();
			write.countDown();
			await(written, "written");
			// The clients connected and idle: what their connections or sessions cost the store by themselves.
			idle = cpuOverWindow(() -> {
			});
			// Steady state: each client writes its record again once every renewal interval, from a random phase.
			steady = cpuOverWindow(steadyGo::countDown);
			steadyCount = steadyWrites.get();
		}
		finally {
			steadyGo.countDown();
			// Each closes its own client, all at once: one by one, 1,000 sessions take minutes to close.
			close.countDown();
			for (Thread thread : threads) {
				thread.join(FleetSimulation.BOUND.toMillis());
			}
		}
		this.out.println("### The store's floor: " + this.size + " clients without uid, at once");
		this.out.println();
		this.out.println("Clients made as the instances' are; released at one moment, each makes its first round trip; "
				+ "once all have, released again, each writes one record of its own. No claim at a simultaneous "
				+ "start takes less than these on this machine.");
		this.out.println();
		new MarkdownTable("", "p50", "p99", "max")
			.leftAligned(0)
			.row("first round trip of a new client (connection or session, one read)", ms(connects, 0.5),
					ms(connects, 0.99), ms(connects, 1))
			.row("one write each, all at once, on connected clients", ms(writes, 0.5), ms(writes, 0.99),
					ms(writes, 1))
			.print(this.out);
		this.out.printf(Locale.ROOT, "%nThen the clients stayed connected, sending nothing of their own, for %.0f s: "
				+ "their upkeep took %.2f %% of one core of the store.%n", idle.seconds(), idle.percent());
		this.out.printf(Locale.ROOT, "%nThen each wrote its record again once every %.1f s (the renewal interval) for "
				+ "%.0f s: %.0f writes a second took %.2f %% of one core of the store (uid's renewals at the same "
				+ "rate: the steady state below).%n", this.store.renewalInterval().toMillis() / 1e3, steady.seconds(),
				steadyCount / Math.max(1e-9, steady.seconds()), steady.percent());
		this.out.printf("%nFailed: %d%s%n%n", failures.size(), failures.isEmpty() ? "" : " (first: "
				+ failures.get(0) + ")");
		return ms(connects, 0.99) + "; " + ms(writes, 0.99)
				+ String.format(Locale.ROOT, "; idle %.2f %%; %.2f %%", idle.percent(), steady.percent());
	}

	/** Reads the store's CPU over one window, the given step taken as the window starts. */
	private WindowCpu cpuOverWindow(Runnable atStart) {
		FleetStore.Reading before = this.store.read();
		long startNanos = System.nanoTime();
		atStart.run();
		FleetStore.sleep(this.window);
		FleetStore.Reading after = this.store.read();
		double seconds = (System.nanoTime() - startNanos) / 1e9;
		return new WindowCpu(seconds, after.cpuPercentSince(before, seconds));
	}

	/** How long a window lasted, and the store's CPU in it as a percentage of one core. */
	private record WindowCpu(double seconds, double percent) {

		static final WindowCpu NONE = new WindowCpu(0, 0);

	}

	/** Writes the client's record once every interval, from a random phase, until told to close. */
	private static void writeAtIntervals(FleetStore.FloorClient client, long intervalNanos, CountDownLatch close,
			AtomicLong writes) throws InterruptedException {
		long next = System.nanoTime() + ThreadLocalRandom.current().nextLong(intervalNanos);
		while (!close.await(Math.max(0, next - System.nanoTime()), TimeUnit.NANOSECONDS)) {
			try {
				client.write();
				writes.incrementAndGet();
			}
			catch (RuntimeException ex) {
				// Counted by what is missing from the rate.
			}
			next += intervalNanos;
		}
	}

	private static void await(CountDownLatch latch, String what) throws InterruptedException {
		if (!latch.await(FleetSimulation.BOUND.toSeconds(), TimeUnit.SECONDS)) {
			throw new IllegalStateException(latch.getCount() + " floor clients had not " + what + " within "
					+ FleetSimulation.BOUND);
		}
	}

}
