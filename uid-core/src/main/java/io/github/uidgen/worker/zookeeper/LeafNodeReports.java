package io.github.uidgen.worker.zookeeper;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import io.github.uidgen.UidClock;
import io.github.uidgen.worker.WorkerAssignment;
import io.github.uidgen.worker.WorkerLeaseLostException;
import io.github.uidgen.worker.WorkerStoreUnavailableException;
import io.github.uidgen.worker.fleet.ClaimEnd;
import io.github.uidgen.worker.support.LeaseSettings;
import io.github.uidgen.worker.zookeeper.CuratorCalls.Conflict;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes the reports of the Leaf node a {@link LeafNodeWorkerIdAssigner} holds, as the Leaf server it replaces would:
 * the renewals, and the final report at release, whose timestamp a Leaf server started there later checks against.
 */
final class LeafNodeReports {

	/** Logs as the assigner, so one logger setting covers all of the assigner's parts. */
	private static final Logger logger = LoggerFactory.getLogger(LeafNodeWorkerIdAssigner.class);

	private static final long REPORT_INTERVAL_MILLIS = LeafNodeWorkerIdAssigner.LEAF_REPORT_INTERVAL.toMillis();

	private final LeafNodes nodes;

	private final String ip;

	private final String port;

	private final String ipPort;

	private final UidClock clock;

	private volatile Held held;

	/** How far ahead of the clock a node's timestamp may lie for the generator to wait it out; see the claim. */
	private volatile Duration maxMarkLead = LeaseSettings.DEFAULT_MAX_MARK_LEAD;

	LeafNodeReports(LeafNodes nodes, String ip, String port, UidClock clock) {
		this.nodes = nodes;
		this.ip = ip;
		this.port = port;
		this.ipPort = ip + ":" + port;
		this.clock = clock;
	}

	/** Sets the lead of the latest claim, which also bounds the wait of the release. */
	void maxMarkLead(Duration maxMarkLead) {
		this.maxMarkLead = maxMarkLead;
	}

	Duration maxMarkLead() {
		return this.maxMarkLead;
	}

	/** Starts reporting on a node a claim has just taken. */
	void taken(Held node) {
		this.held = node;
	}

	LeafEndpoint endpoint(long timestamp) {
		return new LeafEndpoint(this.ip, this.port, timestamp);
	}

	void renew(long workerId, long highWaterMarkMillis) {
		Held lease = this.held;
		if (lease == null || lease.workerId() != workerId) {
			throw new WorkerLeaseLostException(workerId, "this assigner holds no Leaf node with it");
		}
		if (this.nodes.sessionId() != lease.session()) {
			this.held = null;
			throw new WorkerLeaseLostException(workerId, "the ZooKeeper session it was claimed in has ended, and "
					+ "with it the holder znode " + this.nodes.holderPath(this.ipPort));
		}
		long timestamp = Math.max(lease.timestamp(),
				Math.max(this.clock.currentTimeMillis(), highWaterMarkMillis - REPORT_INTERVAL_MILLIS));
		Held written = write(lease, timestamp, false);
		this.held = written;
	}

	/**
	 * Writes a report over the version last written, while the holder znode is this session's; the final one closes
	 * the claim in the worker ID's uid claims in the same transaction. A conflict whose cause is this claim's own
	 * earlier write (its answer lost) is written over again.
	 */
	private Held write(Held lease, long timestamp, boolean release) {
		byte[] report = endpoint(timestamp).toJson();
		List<String> attempted = new ArrayList<>(lease.attempted());
		attempted.add(new String(report, StandardCharsets.UTF_8));
		// Kept until a write is confirmed, so a retry after a lost answer can tell its own data from another's.
		this.held = lease.withAttempted(attempted);
		int version = lease.version();
		for (int attempt = 1;; attempt++) {
			try {
				if (release) {
					// The claim's end goes into its history in the final report's own transaction.
					ClaimList.Stored claims = this.nodes.claims(lease.workerId());
					version = this.nodes.renew(this.ipPort, lease.child(), report, version, claims,
							claims.list().closeNewest(ClaimEnd.RELEASED, this.clock.currentTimeMillis()),
							lease.workerId());
				}
				else {
					version = this.nodes.renew(this.ipPort, lease.child(), report, version);
				}
				return new Held(lease.workerId(), lease.child(), lease.token(), version, timestamp, lease.session(),
						List.of());
			}
			catch (Conflict ex) {
				LeafNodes.Holder holder = this.nodes.holder(this.ipPort);
				LeafNodes.Read now = this.nodes.read(lease.child());
				String path = this.nodes.nodePath(lease.child());
				if (holder == null || holder.session() != lease.session()) {
					this.held = null;
					throw new WorkerLeaseLostException(lease.workerId(), "its holder znode "
							+ this.nodes.holderPath(this.ipPort) + " is " + ((holder == null) ? "gone: the ZooKeeper "
									+ "session it was claimed in ended, or the znode was deleted"
									: "another session's"));
				}
				if (now == null || !attempted.contains(new String(now.data(), StandardCharsets.UTF_8))) {
					this.held = null;
					throw new WorkerLeaseLostException(lease.workerId(), "its Leaf node " + path + " was "
							+ ((now == null) ? "deleted" : "rewritten by another process ("
									+ LeafEndpoint.describe(now.data()) + "), most likely a Leaf server started on "
									+ this.ipPort + ", which issues with the same worker ID")
							+ (release ? "" : "; stop that process"));
				}
				if (attempt == CuratorCalls.MAX_OWN_WRITE_ATTEMPTS) {
					throw new WorkerStoreUnavailableException("The Leaf node " + path + " changed " + attempt
							+ " times while it was written, each time with this instance's own data; trying again at the "
							+ "next renewal.", ex);
				}
				// An earlier write of this claim was applied though its answer was lost: write over it.
				version = now.version();
			}
		}
	}

	void release(long workerId, long highWaterMarkMillis) {
		Held lease = this.held;
		if (lease == null || lease.workerId() != workerId) {
			return;
		}
		// A Leaf server started on the node issues from the reported millisecond on: report the one after the mark.
		long timestamp = (highWaterMarkMillis == WorkerAssignment.NO_MARK) ? lease.timestamp()
				: Math.max(lease.timestamp(), highWaterMarkMillis + 1);
		awaitClockAt(timestamp, this.nodes.nodePath(lease.child()));
		try {
			Held released = write(lease, timestamp, true);
			this.nodes.recordRelease(lease.child(), released.version());
			logger.info("uid worker ID {} released: Leaf's node {} reports {}", workerId,
					this.nodes.nodePath(lease.child()), Instant.ofEpochMilli(timestamp));
		}
		catch (RuntimeException ex) {
			logger.warn("uid worker ID {} could not record its final report in Leaf's node {}: {}", workerId,
					this.nodes.nodePath(lease.child()), ex.getMessage());
		}
		finally {
			this.held = null;
			try {
				LeafNodes.Holder holder = this.nodes.holder(this.ipPort);
				if (holder != null && holder.session() == lease.session()) {
					this.nodes.unhold(this.ipPort);
				}
			}
			catch (RuntimeException ex) {
				logger.warn("uid could not delete its holder znode {}: {}", this.nodes.holderPath(this.ipPort),
						ex.getMessage());
			}
		}
	}

	/**
	 * Waits, within the claim's bound, until this host's clock reads the final report's timestamp: Leaf accepts a
	 * node only when its timestamp is not ahead of its clock, and otherwise issues with its cached worker ID anyway.
	 */
	private void awaitClockAt(long timestamp, String path) {
		long now = this.clock.currentTimeMillis();
		long ahead = timestamp - now;
		if (ahead <= 0) {
			return;
		}
		// At least one report interval, so a claim made with no lead still waits out its last millisecond.
		long bound = Math.max(this.maxMarkLead.toMillis(), REPORT_INTERVAL_MILLIS);
		if (ahead <= bound) {
			logger.info("uid waits {} ms, until the clock has passed its last ID, before writing its final report to "
					+ "Leaf's node {}: a Leaf server started there then issues after every ID uid issued", ahead, path);
			long started = System.nanoTime();
			long deadline = started + Duration.ofMillis(bound).toNanos();
			try {
				while ((now = this.clock.currentTimeMillis()) < timestamp && System.nanoTime() - deadline < 0) {
					Thread.sleep(Math.max(1, Math.min(50, timestamp - now)));
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			if (this.clock.currentTimeMillis() >= timestamp) {
				logger.info("uid waited {} ms for the clock to pass its last ID", Duration
					.ofNanos(System.nanoTime() - started)
					.toMillis());
				return;
			}
		}
		logger.warn("uid writes {} as the final report of Leaf's node {}, {} ms ahead of this host's clock (it issued "
				+ "IDs up to then): do not start a Leaf server on {} before the clock has passed it, since Leaf then "
				+ "refuses the node (CheckLastTimeException) and issues with the worker ID of its local file, repeating "
				+ "uid's IDs", Instant.ofEpochMilli(timestamp), path, timestamp - this.clock.currentTimeMillis(),
				this.ipPort);
	}

	/**
	 * The node this assigner holds: its worker ID and name, the claim's token, the version and timestamp last
	 * written, the claim's session, and the reports written since the last confirmed one.
	 */
	record Held(long workerId, String child, String token, int version, long timestamp, long session,
			List<String> attempted) {

		Held withAttempted(List<String> reports) {
			return new Held(this.workerId, this.child, this.token, this.version, this.timestamp, this.session,
					List.copyOf(reports));
		}

	}

}
