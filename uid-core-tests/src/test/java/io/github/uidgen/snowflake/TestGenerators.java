package io.github.uidgen.snowflake;

import java.time.Duration;
import java.time.LocalDate;
import java.util.Arrays;

import io.github.uidgen.UidClock;
import io.github.uidgen.UidLayout;
import io.github.uidgen.UidTimeUnit;
import io.github.uidgen.testsupport.AssignerBackend;
import io.github.uidgen.worker.WorkerIdAssigner;

import static org.awaitility.Awaitility.await;

/**
 * Generators set up for restart tests: milliseconds with only 4 sequence bits (16 IDs per millisecond), so a
 * tight loop outruns the clock, the default generator waits for new units and the cached one borrows ahead.
 */
final class TestGenerators {

	/** The two generators. */
	enum Kind {

		DEFAULT, CACHED

	}

	static final UidLayout LAYOUT = new UidLayout(UidTimeUnit.MILLISECONDS, LocalDate.of(2025, 1, 1), 41, 6, 4);

	static final Duration MARK_RESERVATION = Duration.ofMillis(200);

	static final Duration MAX_AHEAD = Duration.ofMillis(500);

	static final Duration MAX_STARTUP_WAIT = Duration.ofSeconds(5);

	private TestGenerators() {
	}

	static AbstractUidGenerator build(Kind kind, WorkerIdAssigner assigner, UidClock clock) {
		return build(kind, assigner, clock, true);
	}

	/** Builds a generator that claims a worker ID again after a lost lease, or one that stays stopped. */
	static AbstractUidGenerator build(Kind kind, WorkerIdAssigner assigner, UidClock clock, boolean reclaimLostLease) {
		return switch (kind) {
			case DEFAULT -> DefaultUidGenerator.builder()
				.layout(LAYOUT)
				.clock(clock)
				.workerIdAssigner(assigner)
				.markReservation(MARK_RESERVATION)
				.maxStartupWait(MAX_STARTUP_WAIT)
				.reclaimLostLease(reclaimLostLease)
				.build();
			case CACHED -> CachedUidGenerator.builder()
				.layout(LAYOUT)
				.clock(clock)
				.workerIdAssigner(assigner)
				.markReservation(MARK_RESERVATION)
				.maxStartupWait(MAX_STARTUP_WAIT)
				.maxAhead(MAX_AHEAD)
				.reclaimLostLease(reclaimLostLease)
				.build();
		};
	}

	/** Takes IDs as fast as one thread can. */
	static long[] take(AbstractUidGenerator generator, int count) {
		long[] ids = new long[count];
		for (int i = 0; i < count; i++) {
			ids[i] = generator.getUID();
		}
		return ids;
	}

	/**
	 * Takes IDs in batches until the latest lies ahead of the clock, as a cached generator under demand runs: on a
	 * loaded machine the clock may catch up with one batch, so more are taken, for at most 30 s.
	 * @param generator a cached generator
	 * @param batch how many IDs to take at a time
	 * @return every ID taken, and the clock reading that the latest one lies ahead of
	 */
	static Ahead takeUntilAhead(AbstractUidGenerator generator, int batch) {
		long giveUpAt = System.nanoTime() + Duration.ofSeconds(30).toNanos();
		long[] ids = new long[0];
		while (true) {
			long[] more = take(generator, batch);
			long[] all = Arrays.copyOf(ids, ids.length + more.length);
			System.arraycopy(more, 0, all, ids.length, more.length);
			ids = all;
			long now = System.currentTimeMillis();
			if (LAYOUT.startMillis(maxUnit(ids)) > now || System.nanoTime() - giveUpAt > 0) {
				return new Ahead(ids, now);
			}
		}
	}

	/**
	 * IDs taken, and a clock reading taken after the last of them.
	 * @param ids the IDs
	 * @param clockMillis the clock after the last take
	 */
	record Ahead(long[] ids, long clockMillis) {
	}

	/** The time unit of an ID of {@link #LAYOUT}. */
	static long unitOf(long uid) {
		return uid >>> (LAYOUT.getWorkerBits() + LAYOUT.getSeqBits());
	}

	static long maxUnit(long[] ids) {
		long max = Long.MIN_VALUE;
		for (long id : ids) {
			max = Math.max(max, unitOf(id));
		}
		return max;
	}

	static long minUnit(long[] ids) {
		long min = Long.MAX_VALUE;
		for (long id : ids) {
			min = Math.min(min, unitOf(id));
		}
		return min;
	}

	/**
	 * Kills the generator's threads without a release, then lets its lease run out: once the thread that renews it
	 * has ended, so that no renewal is still on its way to the store, the lease duration passes (a configured
	 * interval, which the store measures by its own clock from the last renewal it applied).
	 * @param threadsFrom a thread ID taken just before the generator was built ({@link #nextThreadId()}): its
	 * threads' IDs are higher
	 */
	static void crash(AssignerBackend backend, AbstractUidGenerator generator, WorkerIdAssigner assigner,
			long threadsFrom) throws InterruptedException {
		generator.simulateCrash();
		backend.afterCrash(assigner, generator.status().worker().id());
		String keeper = "uid-mark-keeper-worker-" + generator.status().worker().id();
		await().atMost(Duration.ofSeconds(60))
			.until(() -> Thread.getAllStackTraces()
				.keySet()
				.stream()
				.noneMatch((thread) -> thread.getId() >= threadsFrom && thread.getName().equals(keeper)));
		if (!backend.leaseDuration().isZero()) {
			Thread.sleep(backend.leaseDuration().plusMillis(150).toMillis());
		}
	}

	/** The ID the next thread created gets, or one below it: thread IDs only grow. */
	static long nextThreadId() {
		return new Thread(() -> {
		}).getId();
	}

}
