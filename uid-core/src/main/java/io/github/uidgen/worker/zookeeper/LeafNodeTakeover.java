package io.github.uidgen.worker.zookeeper;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;

import io.github.uidgen.UidClock;
import io.github.uidgen.worker.WorkerAssignment;
import io.github.uidgen.worker.WorkerAssignmentException;
import io.github.uidgen.worker.fleet.ClaimEnd;
import io.github.uidgen.worker.zookeeper.CuratorCalls.Conflict;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes this ip:port's Leaf node over for a {@link LeafNodeWorkerIdAssigner}, or refuses: the rules that keep uid
 * from issuing beside a Leaf server, or another uid process, still running on that ip:port.
 */
final class LeafNodeTakeover {

	/** Logs as the assigner, so one logger setting covers all of the assigner's parts. */
	private static final Logger logger = LoggerFactory.getLogger(LeafNodeWorkerIdAssigner.class);

	private static final Duration LEAF_REPORT_INTERVAL = LeafNodeWorkerIdAssigner.LEAF_REPORT_INTERVAL;

	/**
	 * How long past a node's next report is due before a claim concludes that no Leaf server writes it: a whole
	 * report interval, so a Leaf server still running would have to miss two reports in a row (a long pause) to go
	 * unseen. Leaf reports with a fixed delay after each write, so its reports come a little later than every 3 s.
	 */
	private static final Duration LIVE_CHECK_MARGIN = LEAF_REPORT_INTERVAL;

	private final LeafNodes nodes;

	private final LeafNodeReports reports;

	private final String ip;

	private final String port;

	private final String ipPort;

	private final String instanceId;

	private final UidClock clock;

	private final String host;

	private final int claimHistory;

	LeafNodeTakeover(LeafNodes nodes, LeafNodeReports reports, String ip, String port, String instanceId,
			UidClock clock, String host, int claimHistory) {
		this.nodes = nodes;
		this.reports = reports;
		this.ip = ip;
		this.port = port;
		this.ipPort = ip + ":" + port;
		this.instanceId = instanceId;
		this.clock = clock;
		this.host = host.replace('\n', ' ').replace('\r', ' ');
		this.claimHistory = claimHistory;
	}

	/** Creates the holder znode, or refuses: another uid process on this ip:port holds it. */
	void hold(String token) {
		byte[] data = ("instance=" + this.instanceId + "\ntoken=" + token + "\nhost=" + this.host + "\n")
			.getBytes(StandardCharsets.UTF_8);
		try {
			this.nodes.hold(this.ipPort, data);
		}
		catch (Conflict ex) {
			LeafNodes.Holder other = this.nodes.holder(this.ipPort);
			if (other != null && other.session() == this.nodes.sessionId()) {
				// Left by an earlier claim of this very session (a lease given up without a release).
				this.nodes.unhold(this.ipPort);
				this.nodes.hold(this.ipPort, data);
				return;
			}
			String who = (other != null) ? new String(other.data(), StandardCharsets.UTF_8).replace('\n', ' ').strip()
					: "(gone meanwhile)";
			throw new LeafNodeException(this.nodes.holderPath(this.ipPort), "port", this.port, "Another uid process "
					+ "holds the Leaf node of " + this.ipPort + " (" + who + "): two processes on one ip:port would "
					+ "share its worker ID. Give this instance the ip:port of the Leaf server it replaces, one no other "
					+ "process uses, or stop the other process first.", ex);
		}
	}

	/**
	 * Takes the node once {@link #hold(String) held}: checks it, writes this claim's report over it and, unless it is
	 * new or was released by uid, waits out Leaf's window to see that no Leaf server writes it any more.
	 */
	WorkerAssignment claim(long maxWorkerId, String token) {
		Duration maxMarkLead = this.reports.maxMarkLead();
		List<String> mine = this.nodes.nodesOf(this.ipPort);
		if (mine.size() > 1) {
			throw new LeafNodeException(this.nodes.foreverPath(), null, null, "Leaf's tree " + this.nodes.foreverPath()
					+ " has " + mine.size() + " nodes for " + this.ipPort + " (" + mine + "), so a Leaf server there "
					+ "could take either worker ID. Find the one in use (its timestamp moves) and delete the others "
					+ "once the clock has passed their timestamps by a few seconds.", null);
		}
		long now = this.clock.currentTimeMillis();
		boolean created = mine.isEmpty();
		String child = created ? this.nodes.create(this.ipPort, this.reports.endpoint(now).toJson()) : mine.get(0);
		String path = this.nodes.nodePath(child);
		long workerId = LeafNodes.workerIdOf(child);
		if (workerId > maxWorkerId) {
			throw new LeafNodeException(path, null, null, "The Leaf node " + path + " gives worker ID " + workerId
					+ ", which does not fit the layout's worker IDs 0 to " + maxWorkerId + " (Leaf refuses it too: "
					+ "workerID must be 0 to 1023). Run this instance on an ip:port whose node has a lower sequence, "
					+ "or move it to the zookeeper lease mode with a layout of its own.", null);
		}
		LeafNodes.Read read = this.nodes.read(child);
		if (read == null) {
			throw new LeafNodeException(path, null, null, "The Leaf node " + path + " disappeared while it was "
					+ "claimed (deleted by hand?); start again.", null);
		}
		LeafEndpoint previous;
		try {
			previous = LeafEndpoint.parse(read.data());
		}
		catch (IllegalArgumentException ex) {
			throw new LeafNodeException(path, null, null, "The Leaf node " + path + " holds "
					+ LeafEndpoint.describe(read.data()) + ", which is not Leaf's JSON (" + ex.getMessage()
					+ "; expected {\"ip\":\"" + this.ip + "\",\"port\":\"" + this.port + "\",\"timestamp\":<epoch ms>}). "
					+ "Restore its data, or delete the node (a new one, with a new worker ID, is then created).", ex);
		}
		long ahead = previous.timestamp() - now;
		if (!created && ahead > maxMarkLead.toMillis()) {
			throw new LeafNodeException(path, "maxStartupWait", maxMarkLead, "The Leaf node " + path
					+ " has the timestamp " + Instant.ofEpochMilli(previous.timestamp()) + ", " + ahead
					+ " ms ahead of this host's clock ("
					+ Instant.ofEpochMilli(now) + "), further than a start waits for it (" + maxMarkLead.toMillis()
					+ " ms: the generator's maxStartupWait plus its maxAhead): the server that wrote it issued IDs for "
					+ "times still to come here. Start again once the clock has passed it, or fix the clock that is "
					+ "wrong.", null);
		}
		if (!created && ahead > 0) {
			logger.info("Leaf's node {} has the timestamp {}, {} ms ahead of this host's clock: uid issues nothing "
					+ "before the clock has passed it", path, Instant.ofEpochMilli(previous.timestamp()), ahead);
		}
		// Released by a uid instance and written by nobody since: its final report covers every ID it issued, and no
		// Leaf server can be running there.
		boolean releasedByUid = !created && this.nodes.releasedVersion(child) == read.version();
		long timestamp = Math.max(now, previous.timestamp());
		byte[] report = this.reports.endpoint(timestamp).toJson();
		int version;
		try {
			version = this.nodes.write(child, report, read.version());
		}
		catch (Conflict ex) {
			LeafNodes.Read written = this.nodes.read(child);
			if (written == null || !Arrays.equals(written.data(), report)) {
				throw liveLeafServer(path, ex);
			}
			// This write was applied, but its answer was lost and the client retried it.
			version = written.version();
		}
		if (!created && !releasedByUid) {
			awaitQuiet(previous.timestamp() + LEAF_REPORT_INTERVAL.toMillis() + LIVE_CHECK_MARGIN.toMillis());
		}
		long mark = created ? WorkerAssignment.NO_MARK
				: releasedByUid ? previous.timestamp() : previous.timestamp() + LEAF_REPORT_INTERVAL.toMillis();
		confirm(child, workerId, version, created ? WorkerAssignment.NO_MARK : previous.timestamp(), mark);
		this.reports.taken(new LeafNodeReports.Held(workerId, child, token, version, timestamp, this.nodes.sessionId(),
				List.of()));
		logger.info("uid worker ID {} taken from Leaf's node {} for instance '{}' ({})", workerId, path,
				this.instanceId, created ? "a new node" : (releasedByUid ? "released by uid at " : "Leaf's last report ")
						+ Instant.ofEpochMilli(previous.timestamp()) + ", no ID before " + Instant.ofEpochMilli(mark + 1));
		return new WorkerAssignment(workerId, mark);
	}

	/**
	 * Completes the takeover and records it in the worker ID's uid claims, in one transaction that holds only while
	 * the holder znode exists and the node is still at the version this claim's report left: a Leaf server that wrote
	 * it meanwhile fails both. A uid claim left open by a process that never released the node is closed as expired
	 * at the node's last report plus Leaf's window.
	 */
	private void confirm(String child, long workerId, int version, long previousTimestamp, long mark) {
		long from = this.clock.currentTimeMillis();
		ClaimList.Stored claims = this.nodes.claims(workerId);
		ClaimList history = claims.list()
			.closeNewest(ClaimEnd.EXPIRED, (previousTimestamp == WorkerAssignment.NO_MARK) ? from
					: Math.min(from, previousTimestamp + LEAF_REPORT_INTERVAL.toMillis()))
			.open(from, mark, this.host, this.instanceId, this.claimHistory);
		try {
			this.nodes.confirmTakeover(this.ipPort, child, version, workerId, claims, history);
		}
		catch (Conflict ex) {
			LeafNodes.Read again = this.nodes.read(child);
			if (again == null || again.version() != version) {
				throw liveLeafServer(this.nodes.nodePath(child), ex);
			}
			if (!Arrays.equals(this.nodes.claims(workerId).list().encode(), history.encode())) {
				throw new LeafNodeException(this.nodes.holderPath(this.ipPort), null, null, "The holder znode "
						+ this.nodes.holderPath(this.ipPort) + " or the uid claims of worker ID " + workerId
						+ " changed while the node was taken over (deleted or edited by hand?); start again.", ex);
			}
			// Applied, but its answer was lost and the client tried it again.
		}
	}

	private LeafNodeException liveLeafServer(String path, Throwable cause) {
		return new LeafNodeException(path, "port", this.port, "A Leaf server still writes its node " + path
				+ ": it issues IDs with this worker ID. Stop the Leaf server on " + this.ipPort + " first (uid waits "
				+ "until Leaf's 3 s window after its last report has passed, so no ID is repeated), or give this "
				+ "instance another ip:port.", cause);
	}

	private void awaitQuiet(long untilMillis) {
		long wait = untilMillis - this.clock.currentTimeMillis();
		// A server still running writes again within this much real time after its last write, even when its clock
		// runs ahead of this one's (a node timestamp ahead of the clock): no need to wait longer.
		if (wait > 0) {
			try {
				Thread.sleep(Math.min(wait, LEAF_REPORT_INTERVAL.plus(LIVE_CHECK_MARGIN).toMillis()));
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new WorkerAssignmentException("Interrupted while waiting out Leaf's report interval", ex);
			}
		}
	}

}
