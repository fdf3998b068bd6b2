package io.github.uidgen.worker.jdbc;

import java.time.Instant;
import java.util.List;
import java.util.function.Supplier;

import io.github.uidgen.worker.WorkerAssignment;
import io.github.uidgen.worker.fleet.ClaimEnd;
import io.github.uidgen.worker.fleet.ClaimHistory;
import io.github.uidgen.worker.fleet.FleetSnapshot;
import io.github.uidgen.worker.fleet.FleetWorker;
import io.github.uidgen.worker.fleet.WorkerClaim;
import io.github.uidgen.worker.fleet.WorkerFleet;
import io.github.uidgen.worker.fleet.WorkerState;

/**
 * Reads the {@code WORKER_NODE} table for {@link DisposableWorkerIdAssigner#fleet()}. Each row is one start and
 * its worker ID, never handed out again, so the table is its own claim history: every worker ID has exactly one
 * claim, which issued every ID of that worker ID. Without leases the table cannot tell a running start from one
 * long stopped, so every worker ID is listed {@link WorkerState#HELD} (taken for ever), with no lease expiry and
 * no mark; the instance is named {@code HOST_NAME:PORT}, as the row records it (the port is {@code pid<n>} when
 * none was configured).
 */
final class WorkerNodeFleet implements WorkerFleet {

	private final JdbcStore store;

	private final Supplier<WorkerNodeTable> table;

	WorkerNodeFleet(JdbcStore store, Supplier<WorkerNodeTable> table) {
		this.store = store;
		this.table = table;
	}

	@Override
	public FleetSnapshot read(int maxWorkers) {
		WorkerNodeTable nodes = this.table.get();
		return this.store.call((jdbc) -> {
			long count = nodes.count(jdbc);
			List<FleetWorker> listed = nodes.list(jdbc, Math.max(0, maxWorkers))
				.stream()
				.map((node) -> new FleetWorker(node.workerId(), WorkerState.HELD, instance(node), node.hostName(),
						created(node), null, WorkerAssignment.NO_MARK))
				.toList();
			return new FleetSnapshot("db", nodes.table(), count, count, listed);
		});
	}

	@Override
	public ClaimHistory history(long workerId) {
		WorkerNodeTable nodes = this.table.get();
		WorkerNodeTable.Node node = this.store.call((jdbc) -> nodes.node(jdbc, workerId));
		if (node == null) {
			return new ClaimHistory(workerId, List.of());
		}
		return new ClaimHistory(workerId, List.of(new WorkerClaim(workerId, instance(node), node.hostName(),
				created(node), null, WorkerAssignment.NO_MARK, ClaimEnd.OPEN)));
	}

	private static String instance(WorkerNodeTable.Node node) {
		return node.hostName() + ":" + node.port();
	}

	private static Instant created(WorkerNodeTable.Node node) {
		return (node.createdMillis() != null) ? Instant.ofEpochMilli(node.createdMillis()) : null;
	}

}
