package io.github.uidgen.snowflake;

import java.time.Duration;
import java.time.LocalDate;

import io.github.uidgen.UidClock;
import io.github.uidgen.UidLayout;
import io.github.uidgen.UidTimeUnit;
import io.github.uidgen.worker.WorkerIdAssigner;

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

}
