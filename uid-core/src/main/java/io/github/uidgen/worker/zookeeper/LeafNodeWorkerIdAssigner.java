package io.github.uidgen.worker.zookeeper;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

import io.github.uidgen.InvalidSettingException;
import io.github.uidgen.UidClock;
import io.github.uidgen.worker.WorkerAssignment;
import io.github.uidgen.worker.WorkerAssignmentException;
import io.github.uidgen.worker.WorkerIdAssigner;
import io.github.uidgen.worker.WorkerLeaseLostException;
import io.github.uidgen.worker.WorkerStoreUnavailableException;
import io.github.uidgen.worker.support.LeaseSettings;
import io.github.uidgen.worker.support.LeaseTokens;
import io.github.uidgen.worker.zookeeper.CuratorCalls.Conflict;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.utils.PathUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes the worker ID Meituan Leaf gave this host's {@code ip:port}, so a uid instance continues a Leaf snowflake
 * server in place: its IDs (in {@link io.github.uidgen.migration.LeafLayout Leaf's layout}) and those of the Leaf
 * servers still running never meet.
 *
 * <p>Leaf keeps {@code /snowflake/<leaf.name>/forever/<ip>:<port>-<10-digit sequence>}, a persistent sequential node
 * whose sequence is the worker ID and whose data is {@code {"ip":…,"port":"…","timestamp":…}}, rewritten every 3 s by
 * the server on that ip:port. A claim:
 * <ol>
 * <li>creates an ephemeral holder znode {@code /snowflake/<leaf.name>/uid-holders/<ip>:<port>} (Leaf never looks
 * there), so two uid processes on one ip:port never share its worker ID: the second is refused, naming the first;</li>
 * <li>takes this ip:port's node, or creates one as a Leaf server would; a tree that does not exist, data that is not
 * Leaf's JSON, a timestamp further ahead of this host's clock than the generator waits for a mark at start (Leaf
 * only logs one ahead at all), a second node for the same ip:port and a worker ID past the layout's bits (Leaf
 * refuses 1024 and above) are refused with {@link LeafNodeException}; a timestamp less far ahead is waited out, as
 * any other store's mark is;</li>
 * <li>writes its own report over the version read, waits until twice Leaf's report interval (6 s) has passed since
 * the node's timestamp, and reads the node again: a Leaf server still running there would have rewritten it,
 * and the claim is refused. The worker's mark is the node's timestamp plus 3 s, so no ID is issued inside the window
 * in which the last Leaf server there may have issued. A node that a uid instance released and nobody wrote since
 * (the version recorded under {@code uid-released/<ip>:<port>-<sequence>} at the release) needs neither wait: its
 * timestamp covers every ID that instance issued.</li>
 * </ol>
 *
 * <p>Renewals (every 3 s, or more often as the mark requires) rewrite the node over the version last written, while
 * the holder znode exists, with Leaf's JSON whose {@code timestamp} is the current time, or the mark less 3 s when
 * that is later: a Leaf server started there again checks against it, and a uid instance taking the node over waits
 * past it. A node rewritten by another process ends the lease ({@link WorkerLeaseLostException}); a renewal whose
 * answer was lost is recognised by its own data and carries on. The release writes the millisecond after the final
 * mark as the timestamp, since a Leaf server started on the node may issue within the millisecond it reads there,
 * and first waits until this host's clock has reached it (the cached generator issues ahead of the clock): a Leaf
 * server that finds the timestamp ahead of its clock does not wait, it falls back to the worker ID cached in its
 * local file and issues at once, repeating uid's IDs. The wait is bounded by how far ahead of the clock a mark may
 * lie at start (see {@link #assign(long, Duration)}), and at least Leaf's report interval.
 */
public final class LeafNodeWorkerIdAssigner implements WorkerIdAssigner {

	/** How often a Leaf server rewrites its node; the window in which it may have issued past its timestamp. */
	public static final Duration LEAF_REPORT_INTERVAL = Duration.ofSeconds(3);

	/** Default wait for the client to connect before a claim gives up. */
	public static final Duration DEFAULT_CONNECTION_TIMEOUT = Duration.ofSeconds(10);

	/**
	 * How long past a node's next report is due before a claim concludes that no Leaf server writes it: a whole
	 * report interval, so a Leaf server still running would have to miss two reports in a row (a long pause) to go
	 * unseen. Leaf reports with a fixed delay after each write, so its reports come a little later than every 3 s.
	 */
	private static final Duration LIVE_CHECK_MARGIN = LEAF_REPORT_INTERVAL;

	private static final Logger logger = LoggerFactory.getLogger(LeafNodeWorkerIdAssigner.class);

	private static final Pattern LEAF_NAME = Pattern.compile("[^/\\s]{1,200}");

	private static final Pattern IP = Pattern.compile("[0-9A-Za-z.:\\[\\]%_]{1,100}");

	/** A renewal writes again over its own earlier write whose answer was lost; more would mean a hand edit. */
	private static final int MAX_RENEW_ATTEMPTS = 3;

	private final LeafNodes nodes;

	private final String leafName;

	private final String ip;

	private final String port;

	private final String ipPort;

	private final String instanceId;

	private final Duration connectionTimeout;

	private final UidClock clock;

	private volatile Held held;

	/** How far ahead of the clock a node's timestamp may lie for the generator to wait it out; see the claim. */
	private volatile Duration maxMarkLead = LeaseSettings.DEFAULT_MAX_MARK_LEAD;

	private LeafNodeWorkerIdAssigner(Builder builder) {
		this.leafName = builder.leafName;
		this.ip = builder.ip;
		this.port = builder.port;
		this.ipPort = this.ip + ":" + this.port;
		this.instanceId = builder.instanceId;
		this.connectionTimeout = builder.connectionTimeout;
		this.clock = builder.clock;
		this.nodes = new LeafNodes(builder.client, this.leafName);
	}

	/**
	 * Starts building an assigner on a Curator client connected to Leaf's ZooKeeper; the client must be started
	 * before the first claim.
	 * @param client the application's Curator client (its own namespace, if any, comes before {@code /snowflake})
	 * @return a builder
	 */
	public static Builder builder(CuratorFramework client) {
		return new Builder(client);
	}

	/**
	 * Claims the node as {@link #assign(long, Duration)} does, with the lead the other assigners use by default
	 * ({@link LeaseSettings#DEFAULT_MAX_MARK_LEAD}).
	 */
	@Override
	public WorkerAssignment assign(long maxWorkerId) {
		return assign(maxWorkerId, LeaseSettings.DEFAULT_MAX_MARK_LEAD);
	}

	/**
	 * Claims this ip:port's node. A node whose timestamp lies ahead of this host's clock by no more than
	 * {@code maxMarkLead} (the generator's start-up wait plus how far ahead it issues) is taken and its timestamp made
	 * the mark the generator waits out, as with any store; further ahead, it is refused. The release waits, within
	 * the same bound, until the clock has passed the timestamp it writes.
	 */
	@Override
	public WorkerAssignment assign(long maxWorkerId, Duration maxMarkLead) {
		this.maxMarkLead = (maxMarkLead == null || maxMarkLead.isNegative()) ? Duration.ZERO : maxMarkLead;
		this.nodes.awaitConnected(this.connectionTimeout);
		if (!this.nodes.foreverExists()) {
			throw new LeafNodeException(this.nodes.foreverPath(), "leafName", this.leafName, "There is no Leaf "
					+ "snowflake tree at " + this.nodes.foreverPath() + " in ZooKeeper " + this.nodes.connectString()
					+ ". Set the Leaf name to the leaf.name of the Leaf servers this instance continues (their nodes "
					+ "live under /snowflake/<leaf.name>/forever); for a new deployment, use the zookeeper lease mode.",
					null);
		}
		String token = LeaseTokens.newToken();
		hold(token);
		try {
			return claim(maxWorkerId, token);
		}
		catch (RuntimeException ex) {
			try {
				this.nodes.unhold(this.ipPort);
			}
			catch (RuntimeException unholdFailure) {
				ex.addSuppressed(unholdFailure);
			}
			throw ex;
		}
	}

	/** Creates the holder znode, or refuses: another uid process on this ip:port holds it. */
	private void hold(String token) {
		byte[] data = ("instance=" + this.instanceId + "\ntoken=" + token + "\n").getBytes(StandardCharsets.UTF_8);
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

	private WorkerAssignment claim(long maxWorkerId, String token) {
		List<String> mine = this.nodes.nodesOf(this.ipPort);
		if (mine.size() > 1) {
			throw new LeafNodeException(this.nodes.foreverPath(), null, null, "Leaf's tree " + this.nodes.foreverPath()
					+ " has " + mine.size() + " nodes for " + this.ipPort + " (" + mine + "), so a Leaf server there "
					+ "could take either worker ID. Find the one in use (its timestamp moves) and delete the others "
					+ "once the clock has passed their timestamps by a few seconds.", null);
		}
		long now = this.clock.currentTimeMillis();
		boolean created = mine.isEmpty();
		String child = created ? this.nodes.create(this.ipPort, endpoint(now).toJson()) : mine.get(0);
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
		if (!created && ahead > this.maxMarkLead.toMillis()) {
			throw new LeafNodeException(path, null, null, "The Leaf node " + path + " has the timestamp "
					+ Instant.ofEpochMilli(previous.timestamp()) + ", " + ahead + " ms ahead of this host's clock ("
					+ Instant.ofEpochMilli(now) + "), further than a start waits for it (" + this.maxMarkLead.toMillis()
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
		byte[] report = endpoint(timestamp).toJson();
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
			LeafNodes.Read again = this.nodes.read(child);
			if (again == null || again.version() != version) {
				throw liveLeafServer(path, null);
			}
		}
		this.held = new Held(workerId, child, token, version, timestamp, this.nodes.sessionId(), List.of());
		long mark = created ? WorkerAssignment.NO_MARK
				: releasedByUid ? previous.timestamp() : previous.timestamp() + LEAF_REPORT_INTERVAL.toMillis();
		logger.info("uid worker ID {} taken from Leaf's node {} for instance '{}' ({})", workerId, path,
				this.instanceId, created ? "a new node" : (releasedByUid ? "released by uid at " : "Leaf's last report ")
						+ Instant.ofEpochMilli(previous.timestamp()) + ", no ID before " + Instant.ofEpochMilli(mark + 1));
		return new WorkerAssignment(workerId, mark);
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
		long bound = Math.max(this.maxMarkLead.toMillis(), LEAF_REPORT_INTERVAL.toMillis());
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

	private LeafEndpoint endpoint(long timestamp) {
		return new LeafEndpoint(this.ip, this.port, timestamp);
	}

	@Override
	public void renew(long workerId, long highWaterMarkMillis) {
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
				Math.max(this.clock.currentTimeMillis(), highWaterMarkMillis - LEAF_REPORT_INTERVAL.toMillis()));
		Held written = write(lease, timestamp, false);
		this.held = written;
	}

	/**
	 * Writes a report over the version last written, while the holder znode is this session's. A conflict whose
	 * cause is this claim's own earlier write (its answer lost) is written over again.
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
				version = this.nodes.renew(this.ipPort, lease.child(), report, version);
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
				if (attempt == MAX_RENEW_ATTEMPTS) {
					throw new WorkerStoreUnavailableException("The Leaf node " + path + " changed " + attempt
							+ " times while it was written, each time with this instance's own data; trying again at the "
							+ "next renewal.", ex);
				}
				// An earlier write of this claim was applied though its answer was lost: write over it.
				version = now.version();
			}
		}
	}

	@Override
	public void release(long workerId, long highWaterMarkMillis) {
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

	@Override
	public Duration renewInterval() {
		return LEAF_REPORT_INTERVAL;
	}

	@Override
	public String name() {
		return "zookeeper-leaf";
	}

	/**
	 * Returns Leaf's tree this assigner takes its node from.
	 * @return {@code /snowflake/<leaf.name>/forever}
	 */
	public String getForeverPath() {
		return this.nodes.foreverPath();
	}

	public String getLeafName() {
		return this.leafName;
	}

	public String getIp() {
		return this.ip;
	}

	public String getPort() {
		return this.port;
	}

	public String getInstanceId() {
		return this.instanceId;
	}

	@Override
	public String toString() {
		return "LeafNodeWorkerIdAssigner[" + this.nodes.foreverPath() + ", " + this.ipPort + "]";
	}

	/**
	 * The node this assigner holds: its worker ID and name, the claim's token, the version and timestamp last
	 * written, the claim's session, and the reports written since the last confirmed one.
	 */
	private record Held(long workerId, String child, String token, int version, long timestamp, long session,
			List<String> attempted) {

		Held withAttempted(List<String> reports) {
			return new Held(this.workerId, this.child, this.token, this.version, this.timestamp, this.session,
					List.copyOf(reports));
		}

	}

	/**
	 * Builds a {@link LeafNodeWorkerIdAssigner}.
	 */
	public static final class Builder {

		private final CuratorFramework client;

		private String leafName;

		private String ip;

		private String port;

		private String instanceId;

		private Duration connectionTimeout = DEFAULT_CONNECTION_TIMEOUT;

		private UidClock clock = UidClock.SYSTEM;

		private Builder(CuratorFramework client) {
			this.client = Objects.requireNonNull(client, "client");
		}

		/**
		 * Sets Leaf's {@code leaf.name}: the nodes live under {@code /snowflake/<leaf.name>/forever}.
		 * @param leafName the name, without slashes or whitespace
		 * @return this builder
		 */
		public Builder leafName(String leafName) {
			if (leafName == null || !LEAF_NAME.matcher(leafName).matches() || ".".equals(leafName)
					|| "..".equals(leafName)) {
				throw new InvalidSettingException("leafName", leafName, "use the leaf.name of the Leaf servers, "
						+ "for example com.sankuai.leaf.opensource.test (no slashes or whitespace)");
			}
			try {
				PathUtils.validatePath("/snowflake/" + leafName);
			}
			catch (IllegalArgumentException ex) {
				throw new InvalidSettingException("leafName", leafName, "use a name ZooKeeper can hold in a path ("
						+ ex.getMessage() + ")");
			}
			this.leafName = leafName;
			return this;
		}

		/**
		 * Sets the address this host's Leaf node is named after; when not set, the one a Leaf server on this host
		 * reports (its first IPv4 address that is not loopback).
		 * @param ip an address as Leaf reports it, such as 10.0.0.7
		 * @return this builder
		 */
		public Builder ip(String ip) {
			if (ip != null) {
				if (!IP.matcher(ip).matches()) {
					throw new InvalidSettingException("ip", ip, "use the address the Leaf server on this host "
							+ "reported, such as 10.0.0.7 (no dashes: Leaf splits node names at them)");
				}
				this.ip = ip;
			}
			return this;
		}

		/**
		 * Sets the port this host's Leaf node is named after: the {@code leaf.snowflake.port} of the Leaf server
		 * this instance replaces.
		 * @param port 1 to 65535
		 * @return this builder
		 */
		public Builder port(Integer port) {
			if (port != null) {
				if (port < 1 || port > 65_535) {
					throw new InvalidSettingException("port", port, "use the leaf.snowflake.port of the Leaf server "
							+ "this instance replaces, 1 to 65535");
				}
				this.port = Integer.toString(port);
			}
			return this;
		}

		/**
		 * Sets the name this instance gives itself in its holder znode, for messages; the ip:port when not set.
		 * @param instanceId a name without line breaks
		 * @return this builder
		 */
		public Builder instanceId(String instanceId) {
			if (instanceId != null) {
				if (instanceId.isBlank() || instanceId.indexOf('\n') >= 0 || instanceId.indexOf('\r') >= 0) {
					throw new InvalidSettingException("instanceId", instanceId, "use a name without line breaks");
				}
				this.instanceId = instanceId;
			}
			return this;
		}

		/**
		 * Sets how long a claim waits for the client to connect before it fails; 10 s by default.
		 * @param connectionTimeout a positive duration
		 * @return this builder
		 */
		public Builder connectionTimeout(Duration connectionTimeout) {
			if (connectionTimeout != null) {
				if (connectionTimeout.isNegative() || connectionTimeout.isZero()) {
					throw new InvalidSettingException("connectionTimeout", connectionTimeout,
							"use a positive duration, for example 10s");
				}
				this.connectionTimeout = connectionTimeout;
			}
			return this;
		}

		/**
		 * Sets the clock node timestamps are written from and checked against; the system clock when not set.
		 * @param clock the clock
		 * @return this builder
		 */
		public Builder clock(UidClock clock) {
			this.clock = Objects.requireNonNull(clock, "clock");
			return this;
		}

		/**
		 * Builds the assigner; it talks to ZooKeeper only when a worker ID is claimed.
		 * @return the assigner
		 * @throws InvalidSettingException when the Leaf name or the port is missing, or no address can be found
		 */
		public LeafNodeWorkerIdAssigner build() {
			if (this.leafName == null) {
				throw new InvalidSettingException("leafName", null, "set the leaf.name of the Leaf servers this "
						+ "instance continues");
			}
			if (this.port == null) {
				throw new InvalidSettingException("port", null, "set the leaf.snowflake.port of the Leaf server this "
						+ "instance replaces");
			}
			if (this.ip == null) {
				String address = LeafHostAddress.find();
				if (address.isEmpty()) {
					throw new InvalidSettingException("ip", null, "set the address the Leaf server on this host "
							+ "reported: this host has no IPv4 address other than loopback");
				}
				this.ip = address;
			}
			if (this.instanceId == null) {
				this.instanceId = this.ip + ":" + this.port;
			}
			return new LeafNodeWorkerIdAssigner(this);
		}

	}

}
