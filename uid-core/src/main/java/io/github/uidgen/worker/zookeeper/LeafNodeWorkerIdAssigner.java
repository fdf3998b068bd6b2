package io.github.uidgen.worker.zookeeper;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

import io.github.uidgen.InvalidSettingException;
import io.github.uidgen.UidClock;
import io.github.uidgen.worker.WorkerAssignment;
import io.github.uidgen.worker.WorkerIdAssigner;
import io.github.uidgen.worker.WorkerLeaseLostException;
import io.github.uidgen.worker.fleet.WorkerFleet;
import io.github.uidgen.worker.support.HostEnvironment;
import io.github.uidgen.worker.support.LeaseSettings;
import io.github.uidgen.worker.support.LeaseTokens;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.utils.PathUtils;

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
 *
 * <p>uid's own claims of each worker ID are kept under {@code /snowflake/<leaf.name>/uid-claims/<worker ID>}, outside
 * the tree Leaf reads: the takeover records its claim in the transaction that confirms it (the holder znode there and
 * the node still at the version its report left), and the final report closes it in its own transaction.
 */
public final class LeafNodeWorkerIdAssigner implements WorkerIdAssigner {

	/** How often a Leaf server rewrites its node; the window in which it may have issued past its timestamp. */
	public static final Duration LEAF_REPORT_INTERVAL = Duration.ofSeconds(3);

	/** Default wait for the client to connect before a claim gives up. */
	public static final Duration DEFAULT_CONNECTION_TIMEOUT = Duration.ofSeconds(10);

	private static final Pattern LEAF_NAME = Pattern.compile("[^/\\s]{1,200}");

	private static final Pattern IP = Pattern.compile("[0-9A-Za-z.:\\[\\]%_]{1,100}");

	private final LeafNodes nodes;

	private final String leafName;

	private final String ip;

	private final String port;

	private final String ipPort;

	private final String instanceId;

	private final Duration connectionTimeout;

	private final LeafNodeReports reports;

	private final LeafNodeTakeover takeover;

	private final LeafNodeFleet fleet;

	private LeafNodeWorkerIdAssigner(Builder builder) {
		this.leafName = builder.leafName;
		this.ip = builder.ip;
		this.port = builder.port;
		this.ipPort = this.ip + ":" + this.port;
		this.instanceId = builder.instanceId;
		this.connectionTimeout = builder.connectionTimeout;
		this.nodes = new LeafNodes(builder.client, this.leafName);
		this.reports = new LeafNodeReports(this.nodes, this.ip, this.port, builder.clock);
		this.takeover = new LeafNodeTakeover(this.nodes, this.reports, this.ip, this.port, this.instanceId,
				builder.clock, HostEnvironment.current().hostName(), builder.claimHistory);
		this.fleet = new LeafNodeFleet(this.nodes, this.connectionTimeout, builder.clock);
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
		this.reports.maxMarkLead((maxMarkLead == null || maxMarkLead.isNegative()) ? Duration.ZERO : maxMarkLead);
		this.nodes.awaitConnected(this.connectionTimeout);
		if (!this.nodes.foreverExists()) {
			throw new LeafNodeException(this.nodes.foreverPath(), "leafName", this.leafName, "There is no Leaf "
					+ "snowflake tree at " + this.nodes.foreverPath() + " in ZooKeeper " + this.nodes.connectString()
					+ ". Set the Leaf name to the leaf.name of the Leaf servers this instance continues (their nodes "
					+ "live under /snowflake/<leaf.name>/forever); for a new deployment, use the zookeeper lease mode.",
					null);
		}
		String token = LeaseTokens.newToken();
		this.takeover.hold(token);
		try {
			return this.takeover.claim(maxWorkerId, token);
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

	@Override
	public void renew(long workerId, long highWaterMarkMillis) {
		this.reports.renew(workerId, highWaterMarkMillis);
	}

	@Override
	public void release(long workerId, long highWaterMarkMillis) {
		this.reports.release(workerId, highWaterMarkMillis);
	}

	@Override
	public Duration renewInterval() {
		return LEAF_REPORT_INTERVAL;
	}

	/**
	 * Reads every node of Leaf's tree, held by uid or by a Leaf server, and the uid claims of each worker ID (kept
	 * under {@code /snowflake/<leaf.name>/uid-claims/<worker ID>}, outside the tree Leaf reads); see
	 * {@link LeafNodeFleet} for what each field means for a Leaf node.
	 */
	@Override
	public Optional<WorkerFleet> fleet() {
		return Optional.of(this.fleet);
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

		private int claimHistory = LeaseSettings.DEFAULT_CLAIM_HISTORY;

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
				this.connectionTimeout = CuratorCalls.requireConnectionTimeout(connectionTimeout);
			}
			return this;
		}

		/**
		 * Sets how many uid claims of each worker ID are kept (instance, host, from, to and the mark each found), so
		 * an operator can tell which instance issued an ID; {@value LeaseSettings#DEFAULT_CLAIM_HISTORY} when not
		 * set. Each claim prunes the oldest beyond this in the transaction that takes the node over. A Leaf server's
		 * own tenure of a node is not recorded: Leaf writes no history.
		 * @param claimHistory from 1 to {@value LeaseSettings#MAX_CLAIM_HISTORY}
		 * @return this builder
		 */
		public Builder claimHistory(int claimHistory) {
			if (claimHistory < 1 || claimHistory > LeaseSettings.MAX_CLAIM_HISTORY) {
				throw new InvalidSettingException("claimHistory", claimHistory, "keep from 1 to "
						+ LeaseSettings.MAX_CLAIM_HISTORY + " claims per worker ID, for example "
						+ LeaseSettings.DEFAULT_CLAIM_HISTORY);
			}
			this.claimHistory = claimHistory;
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