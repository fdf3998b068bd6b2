package io.github.uidgen.test.assigners;

import java.nio.file.Path;

import io.github.uidgen.test.AbstractWorkerIdAssignerContractTests;
import io.github.uidgen.worker.StaticWorkerIdAssigner;
import io.github.uidgen.worker.WorkerIdAssigner;
import org.junit.jupiter.api.io.TempDir;

/**
 * The contract for the static assigner: every "instance" is configured with the same worker ID and state file,
 * so a restart reads back its mark and only one of several concurrent claimants can hold the file.
 */
class StaticWorkerIdAssignerContractTests extends AbstractWorkerIdAssignerContractTests {

	private static final long WORKER_ID = 2;

	@TempDir
	Path folder;

	@Override
	protected WorkerIdAssigner newAssigner(String instanceId) {
		return new StaticWorkerIdAssigner(WORKER_ID, this.folder.resolve("state").resolve("worker-2.state"));
	}

	@Override
	protected WorkerIdAssigner overflowingAssigner(long maxWorkerId) {
		return new StaticWorkerIdAssigner(maxWorkerId + 1, this.folder.resolve("worker-big.state"));
	}

	@Override
	protected int concurrentWinnersOf(int claimants) {
		return 1;
	}

}
