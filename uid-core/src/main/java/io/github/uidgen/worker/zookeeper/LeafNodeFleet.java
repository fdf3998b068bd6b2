package io.github.uidgen.worker.zookeeper;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import io.github.uidgen.UidClock;
import io.github.uidgen.worker.WorkerAssignment;
import io.github.uidgen.worker.fleet.ClaimHistory;
import io.github.uidgen.worker.fleet.FleetSnapshot;
import io.github.uidgen.worker.fleet.FleetWorker;
import io.github.uidgen.worker.fleet.WorkerFleet;
import io.github.uidgen.worker.fleet.WorkerState;

/**
 * Reads Leaf's worker nodes for a {@link LeafNodeWorkerIdAssigner}: every node of
 * {@code /snowflake/<leaf.name>/forever}, whoever holds it, and the uid claims of each worker ID. Reads only, each
 * bounded by the Curator client's timeouts.
 *
 * <p>Leaf's nodes have no lease, so the fields mean this: the worker ID is the node's sequence; a node is held when
 * a uid process holds its holder znode (its instance ID and host name are listed, and since when it holds it) or
 * when its timestamp is recent enough that a claim would still wait for it (a Leaf server reporting, or one stopped
 * within the last 6 s: listed under Leaf's own names, its ip:port as the instance and its ip as the host, with no
 * claim time, which Leaf does not record); released when uid's last release left it unwritten since (however recent
 * its final report); expired otherwise (a Leaf server, or a uid process, that stopped without a release uid recorded). The mark is the node's
 * timestamp, and the lease expiry the time after which a claim would find the node quiet: the timestamp plus twice
 * Leaf's report interval. Judged by this host's clock, as the claim judges it.
 */
final class LeafNodeFleet implements WorkerFleet {

	/** How long after a node's timestamp a claim still takes a Leaf server to be writing it. */
	private static final long QUIET_AFTER_MILLIS = 2 * LeafNodeWorkerIdAssigner.LEAF_REPORT_INTERVAL.toMillis();

	private final LeafNodes nodes;

	private final Duration connectionTimeout;

	private final UidClock clock;

	LeafNodeFleet(LeafNodes nodes, Duration connectionTimeout, UidClock clock) {
		this.nodes = nodes;
		this.connectionTimeout = connectionTimeout;
		this.clock = clock;
	}

	@Override
	public FleetSnapshot read(int maxWorkers) {
		this.nodes.awaitConnected(this.connectionTimeout);
		List<String> children = new ArrayList<>(this.nodes.allNodes());
		children.sort(Comparator.comparingLong(LeafNodes::workerIdOf));
		Set<String> holders = new HashSet<>(this.nodes.children(this.nodes.holdersPath()));
		Set<String> releases = new HashSet<>(this.nodes.children(this.nodes.releasedPath()));
		long now = this.clock.currentTimeMillis();
		long held = 0;
		long known = 0;
		List<FleetWorker> workers = new ArrayList<>();
		for (String child : children) {
			FleetWorker worker = read(child, holders, releases, now);
			if (worker == null) {
				continue;
			}
			known++;
			if (worker.state() == WorkerState.HELD) {
				held++;
			}
			if (workers.size() < maxWorkers) {
				workers.add(worker);
			}
		}
		return new FleetSnapshot("zookeeper-leaf", this.nodes.foreverPath(), held, known, workers);
	}

	/** Reads one node; {@code null} when it went away meanwhile. */
	private FleetWorker read(String child, Set<String> holders, Set<String> releases, long now) {
		long workerId = LeafNodes.workerIdOf(child);
		String ipPort = LeafNodes.ipPortOf(child);
		LeafNodes.Read read = this.nodes.read(child);
		if (read == null) {
			return null;
		}
		LeafEndpoint endpoint;
		try {
			endpoint = LeafEndpoint.parse(read.data());
		}
		catch (IllegalArgumentException ex) {
			// Neither uid nor a Leaf server can take a node that is not Leaf's JSON: its worker ID is out of use.
			return new FleetWorker(workerId, WorkerState.HELD, ipPort, null, null, null, WorkerAssignment.NO_MARK);
		}
		Instant quietAt = Instant.ofEpochMilli(endpoint.timestamp() + QUIET_AFTER_MILLIS);
		LeafNodes.Holder holder = holders.contains(ipPort) ? this.nodes.holder(ipPort) : null;
		if (holder != null) {
			String data = new String(holder.data(), StandardCharsets.UTF_8);
			return new FleetWorker(workerId, WorkerState.HELD, field(data, "instance", ipPort),
					field(data, "host", endpoint.ip()), Instant.ofEpochMilli(holder.createdMillis()), quietAt,
					endpoint.timestamp());
		}
		// Released by uid and written by nobody since, however recent its final report; else a recent report is a
		// Leaf server's, as a claim would take it.
		WorkerState state = (releases.contains(child) && this.nodes.releasedVersion(child) == read.version())
				? WorkerState.RELEASED
				: (endpoint.timestamp() + QUIET_AFTER_MILLIS > now) ? WorkerState.HELD : WorkerState.EXPIRED;
		return new FleetWorker(workerId, state, ipPort, endpoint.ip(), null,
				(state == WorkerState.RELEASED) ? Instant.ofEpochMilli(endpoint.timestamp()) : quietAt,
				endpoint.timestamp());
	}

	/** Returns a {@code key=value} line's value from a holder znode's data. */
	private static String field(String data, String key, String otherwise) {
		for (String line : data.split("\n")) {
			if (line.startsWith(key + "=") && line.length() > key.length() + 1) {
				return line.substring(key.length() + 1);
			}
		}
		return otherwise;
	}

	@Override
	public ClaimHistory history(long workerId) {
		this.nodes.awaitConnected(this.connectionTimeout);
		return new ClaimHistory(workerId, this.nodes.claims(workerId).list().toWorkerClaims(workerId));
	}

}
