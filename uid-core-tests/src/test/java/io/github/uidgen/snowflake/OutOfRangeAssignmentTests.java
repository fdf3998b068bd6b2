package io.github.uidgen.snowflake;

import java.util.ArrayList;
import java.util.List;

import io.github.uidgen.UidClock;
import io.github.uidgen.snowflake.TestGenerators.Kind;
import io.github.uidgen.worker.WorkerAssignment;
import io.github.uidgen.worker.WorkerIdAssigner;
import io.github.uidgen.worker.WorkerIdOutOfRangeException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A generator refuses a worker ID its layout cannot hold, and gives the claim back instead of leaving a lease
 * held until it expires.
 */
class OutOfRangeAssignmentTests {

	@ParameterizedTest
	@EnumSource(Kind.class)
	void aWorkerIdBeyondTheLayoutIsRefusedAndReleased(Kind kind) {
		List<Long> released = new ArrayList<>();
		WorkerIdAssigner assigner = new WorkerIdAssigner() {

			@Override
			public WorkerAssignment assign(long maxWorkerId) {
				return WorkerAssignment.fresh(maxWorkerId + 10);
			}

			@Override
			public void renew(long workerId, long highWaterMarkMillis) {
			}

			@Override
			public void release(long workerId, long highWaterMarkMillis) {
				released.add(workerId);
			}

			@Override
			public String name() {
				return "careless";
			}

		};
		long max = TestGenerators.LAYOUT.getMaxWorkerId();
		assertThatExceptionOfType(WorkerIdOutOfRangeException.class)
			.isThrownBy(() -> TestGenerators.build(kind, assigner, UidClock.SYSTEM))
			.withMessageContaining("Worker ID " + (max + 10))
			.withMessageContaining("more worker bits");
		assertThat(released).containsExactly(max + 10);
	}

}
