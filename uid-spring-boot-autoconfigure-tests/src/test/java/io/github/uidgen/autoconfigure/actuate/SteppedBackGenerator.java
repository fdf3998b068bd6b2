package io.github.uidgen.autoconfigure.actuate;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

import io.github.uidgen.autoconfigure.ManualClock;
import io.github.uidgen.snowflake.DefaultUidGenerator;
import io.github.uidgen.worker.WorkerAssignment;
import io.github.uidgen.worker.WorkerIdAssigner;

/**
 * A default generator whose clock stepped back ten minutes, so that it moved from worker 1 to worker 2, which an
 * assigner of the test's own hands out (the stores themselves are tested in uid-core).
 */
final class SteppedBackGenerator {

	private SteppedBackGenerator() {
	}

	static DefaultUidGenerator build() {
		ManualClock clock = new ManualClock(Instant.now());
		DefaultUidGenerator generator = DefaultUidGenerator.builder()
			.clock(clock)
			.workerIdAssigner(new TwoWorkers())
			.build();
		generator.getUID();
		clock.advance(Duration.ofMinutes(-10));
		generator.getUID();
		return generator;
	}

	/** Hands out worker 1, and worker 2 for a clock behind worker 1's mark. */
	private static final class TwoWorkers implements WorkerIdAssigner {

		@Override
		public WorkerAssignment assign(long maxWorkerId) {
			return WorkerAssignment.fresh(1);
		}

		@Override
		public Optional<WorkerAssignment> assignBehind(long maxWorkerId, long latestMarkMillis) {
			return Optional.of(WorkerAssignment.fresh(2));
		}

		@Override
		public void renew(long workerId, long highWaterMarkMillis) {
		}

		@Override
		public void release(long workerId, long highWaterMarkMillis) {
		}

		@Override
		public String name() {
			return "two-workers";
		}

	}

}
