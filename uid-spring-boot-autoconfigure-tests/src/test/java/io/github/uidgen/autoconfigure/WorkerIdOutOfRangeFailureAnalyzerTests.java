package io.github.uidgen.autoconfigure;

import io.github.uidgen.worker.FixedWorkerIdAssigner;
import io.github.uidgen.worker.WorkerIdOutOfRangeException;
import org.junit.jupiter.api.Test;

import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * Tests for {@link WorkerIdOutOfRangeFailureAnalyzer}.
 */
class WorkerIdOutOfRangeFailureAnalyzerTests {

	private final MockEnvironment environment = new MockEnvironment();

	private final WorkerIdOutOfRangeFailureAnalyzer analyzer = new WorkerIdOutOfRangeFailureAnalyzer(
			this.environment);

	private final WorkerIdOutOfRangeException cause = catchThrowableOfType(WorkerIdOutOfRangeException.class,
			() -> new FixedWorkerIdAssigner(9).assign(3));

	@Test
	void staticWorkerIdNamesUidWorkerId() {
		this.environment.setProperty("uid.worker.id", "9");
		FailureAnalysis analysis = this.analyzer.analyze(this.cause);
		assertThat(analysis.getDescription()).contains("uid.worker.id 9 does not fit")
			.contains("worker IDs 0 to 3")
			.contains("Property: uid.worker.id")
			.contains("Value: 9");
		assertThat(analysis.getAction()).contains("Set uid.worker.id to a worker ID from 0 to 3")
			.contains("uid.worker-bits");
	}

	@Test
	void usedUpDisposableTableSuggestsTheLeaseMode() {
		this.environment.setProperty("uid.worker.assigner", "db");
		this.environment.setProperty("uid.worker.db.mode", "disposable");
		this.environment.setProperty("uid.worker-bits", "2");
		WorkerIdOutOfRangeException usedUp = new WorkerIdOutOfRangeException(4, 3,
				"WORKER_NODE would hand out worker ID 4, one per start and never reused; the start is refused and "
						+ "its row rolled back.");
		FailureAnalysis analysis = this.analyzer.analyze(usedUp);
		assertThat(analysis.getDescription()).contains("db worker-ID assigner found no worker ID from 0 to 3")
			.contains("WORKER_NODE would hand out worker ID 4")
			.contains("Property: uid.worker-bits")
			.contains("Value: 2");
		assertThat(analysis.getAction()).contains("uid.worker.db.mode to lease").contains("uid.worker-bits");
	}

	@Test
	void everyLeasedWorkerIdSuggestsMoreWorkerBits() {
		this.environment.setProperty("uid.worker.assigner", "redis");
		WorkerIdOutOfRangeException full = new WorkerIdOutOfRangeException(4, 3,
				"all 4 worker IDs are taken (4 live leases).");
		FailureAnalysis analysis = this.analyzer.analyze(full);
		assertThat(analysis.getDescription()).contains("redis worker-ID assigner found no worker ID from 0 to 3")
			.contains("4 live leases")
			.contains("Value: 10");
		assertThat(analysis.getAction()).contains("Raise uid.worker-bits").contains("fewer instances");
	}

}
