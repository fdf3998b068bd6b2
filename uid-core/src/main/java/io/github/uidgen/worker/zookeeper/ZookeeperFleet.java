package io.github.uidgen.worker.zookeeper;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import io.github.uidgen.UidClock;
import io.github.uidgen.worker.WorkerAssignment;
import io.github.uidgen.worker.fleet.ClaimHistory;
import io.github.uidgen.worker.fleet.FleetSnapshot;
import io.github.uidgen.worker.fleet.FleetWorker;
import io.github.uidgen.worker.fleet.WorkerFleet;
import io.github.uidgen.worker.fleet.WorkerState;
import io.github.uidgen.worker.zookeeper.WorkerRegistry.WorkerNode;

/**
 * Reads the fleet of a {@link ZookeeperWorkerIdAssigner}'s namespace: every worker znode with its lease znode, and
 * each worker ID's claims znode. Reads only (plain {@code getChildren} and {@code getData}, each bounded by the
 * Curator client's timeouts); ZooKeeper takes no lock, so nothing a claim or renewal waits for is held.
 *
 * <p>A lease is judged live as a claim judges it (a token, a lease znode, renewed within its lease duration), but
 * against this host's clock rather than the ensemble's: ZooKeeper tells its time only on a write. A host whose clock
 * is off by some seconds lists a lease that just ran out as held (or the reverse) for those seconds.
 */
final class ZookeeperFleet implements WorkerFleet {

	private final WorkerRegistry registry;

	private final Duration connectionTimeout;

	ZookeeperFleet(WorkerRegistry registry, Duration connectionTimeout) {
		this.registry = registry;
		this.connectionTimeout = connectionTimeout;
	}

	/**
	 * {@inheritDoc}
	 * <p>A worker znode that is not a uid record is listed as held with nothing known of it: a claim never hands
	 * its worker ID out.
	 */
	@Override
	public FleetSnapshot read(int maxWorkers) {
		this.registry.awaitConnected(this.connectionTimeout);
		List<WorkerNode> nodes = this.registry.readAll();
		long now = UidClock.SYSTEM.currentTimeMillis();
		long held = 0;
		List<FleetWorker> workers = new ArrayList<>(Math.min(Math.max(maxWorkers, 0), nodes.size()));
		for (WorkerNode node : nodes) {
			FleetWorker worker = toWorker(node, now);
			if (worker.state() == WorkerState.HELD) {
				held++;
			}
			if (workers.size() < maxWorkers) {
				workers.add(worker);
			}
		}
		return new FleetSnapshot("zookeeper", this.registry.workersPath(), held, nodes.size(), workers);
	}

	private static FleetWorker toWorker(WorkerNode node, long now) {
		WorkerRecord record = node.record();
		if (record == null) {
			return new FleetWorker(node.workerId(), WorkerState.HELD, null, null, null, null,
					WorkerAssignment.NO_MARK);
		}
		WorkerState state = !record.leased() ? WorkerState.RELEASED
				: node.free(now) ? WorkerState.EXPIRED : WorkerState.HELD;
		// A release ends the lease at its write; otherwise it runs out a lease duration after the last renewal.
		long expiry = (state == WorkerState.RELEASED) ? node.modifiedMillis()
				: node.modifiedMillis() + record.leaseMillis();
		return new FleetWorker(node.workerId(), state, record.instanceId(), record.host().isEmpty() ? null
				: record.host(), (record.sinceMillis() < 0) ? null : Instant.ofEpochMilli(record.sinceMillis()),
				Instant.ofEpochMilli(expiry), record.markMillis());
	}

	@Override
	public ClaimHistory history(long workerId) {
		this.registry.awaitConnected(this.connectionTimeout);
		return new ClaimHistory(workerId, this.registry.claims(workerId).list().toWorkerClaims(workerId));
	}

}
