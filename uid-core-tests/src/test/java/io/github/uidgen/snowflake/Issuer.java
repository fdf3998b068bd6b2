package io.github.uidgen.snowflake;

import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import io.github.uidgen.UidException;
import io.github.uidgen.UidGenerator;

/**
 * One thread taking IDs from one generator, keeping every ID, until stopped: as fast as it can, or paced (a few IDs
 * about every millisecond, as an application's traffic comes). It either stops at the first refusal, or keeps asking
 * through refusals (an outage the generator should recover from), counting them and noting when the first and the
 * last came.
 */
final class Issuer {

	private final UidGenerator generator;

	private final boolean throughRefusals;

	/** IDs taken before a pause of about a millisecond; 0 for no pause. */
	private final int perTick;

	private final Thread thread;

	private volatile boolean stopped;

	private long[] ids = new long[1 << 16];

	private volatile int count;

	private volatile long refusals;

	private volatile UidException firstRefusal;

	private volatile UidException lastRefusal;

	private volatile long firstRefusalMillis;

	private volatile long lastRefusalMillis;

	private Issuer(UidGenerator generator, String name, boolean throughRefusals, int perTick) {
		this.generator = generator;
		this.throughRefusals = throughRefusals;
		this.perTick = perTick;
		this.thread = new Thread(this::run, "issuer-" + name);
		this.thread.setDaemon(true);
	}

	/** Starts a thread that takes as many IDs as the generator gives and stops at the first refusal. */
	static Issuer untilRefused(UidGenerator generator, String name) {
		Issuer issuer = new Issuer(generator, name, false, flatOutTick(generator));
		issuer.thread.start();
		return issuer;
	}

	/** Starts a thread that takes as many IDs as the generator gives and keeps asking through refusals until stopped. */
	static Issuer throughRefusals(UidGenerator generator, String name) {
		Issuer issuer = new Issuer(generator, name, true, flatOutTick(generator));
		issuer.thread.start();
		return issuer;
	}

	/**
	 * How many IDs a thread taking them as fast as it can takes before it pauses for a millisecond: for a default
	 * generator, one time unit's worth. Once a unit's sequence is used up it spins until the next millisecond, which
	 * would keep a core busy for the whole test (a test of a lease's 30 s cost as much CPU as 30 s of compiling) for
	 * no more IDs than the layout gives anyway. A cached generator, whose take waits for its filler by parking, is
	 * not paced.
	 */
	private static int flatOutTick(UidGenerator generator) {
		return (generator instanceof DefaultUidGenerator defaultGenerator)
				? 1 << defaultGenerator.layout().getSeqBits() : 0;
	}

	/** Starts a thread that takes {@code perTick} IDs about every millisecond, through refusals, until stopped. */
	static Issuer pacedThroughRefusals(UidGenerator generator, String name, int perTick) {
		Issuer issuer = new Issuer(generator, name, true, perTick);
		issuer.thread.start();
		return issuer;
	}

	private void run() {
		int inTick = 0;
		while (!this.stopped) {
			if (this.perTick > 0 && ++inTick > this.perTick) {
				inTick = 1;
				LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
			}
			try {
				long id = this.generator.getUID();
				if (this.count == this.ids.length) {
					this.ids = Arrays.copyOf(this.ids, this.count * 2);
				}
				this.ids[this.count] = id;
				this.count = this.count + 1;
			}
			catch (UidException ex) {
				long now = System.currentTimeMillis();
				if (this.firstRefusal == null) {
					this.firstRefusal = ex;
					this.firstRefusalMillis = now;
				}
				this.lastRefusal = ex;
				this.lastRefusalMillis = now;
				this.refusals = this.refusals + 1;
				if (!this.throughRefusals) {
					return;
				}
				sleep(5);
			}
		}
	}

	private static void sleep(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/** Stops the thread and returns every ID it took. */
	long[] stop() throws InterruptedException {
		this.stopped = true;
		this.thread.join(TimeUnit.SECONDS.toMillis(30));
		if (this.thread.isAlive()) {
			throw new AssertionError(this.thread.getName() + " did not stop within 30 s");
		}
		return ids();
	}

	/** Waits, within a bound, for a thread that stops at the first refusal to have stopped. */
	boolean awaitRefused(Duration bound) throws InterruptedException {
		this.thread.join(bound.toMillis());
		return !this.thread.isAlive();
	}

	/** The IDs taken so far (all of them once stopped). */
	long[] ids() {
		int taken = this.count;
		return Arrays.copyOf(this.ids, taken);
	}

	/** Whether the thread still takes IDs: not stopped, and not stopped by a refusal. */
	boolean isRunning() {
		return this.thread.isAlive();
	}

	int count() {
		return this.count;
	}

	long refusals() {
		return this.refusals;
	}

	UidException firstRefusal() {
		return this.firstRefusal;
	}

	UidException lastRefusal() {
		return this.lastRefusal;
	}

	long firstRefusalMillis() {
		return this.firstRefusalMillis;
	}

	long lastRefusalMillis() {
		return this.lastRefusalMillis;
	}

}
