package io.github.uidgen.worker.zookeeper;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Pattern;

import io.github.uidgen.InvalidSettingException;
import io.github.uidgen.UidLayout;
import io.github.uidgen.worker.AbstractLeaseBuilder;
import io.github.uidgen.worker.AllWorkerIdsLeasedException;
import io.github.uidgen.worker.WorkerAssignment;
import io.github.uidgen.worker.WorkerAssignmentException;
import io.github.uidgen.worker.WorkerIdAssigner;
import io.github.uidgen.worker.WorkerLeaseLostException;
import io.github.uidgen.worker.WorkerStoreUnavailableException;
import io.github.uidgen.worker.support.LeaseSettings;
import io.github.uidgen.worker.support.LeaseTokens;
import io.github.uidgen.worker.zookeeper.CuratorCalls.Conflict;
import io.github.uidgen.worker.zookeeper.WorkerRegistry.Snapshot;
import io.github.uidgen.worker.zookeeper.WorkerRegistry.WorkerNode;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.utils.PathUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Leases reusable worker IDs from ZooKeeper, through the application's Apache Curator client.
 *
 * <p>Each worker ID has a persistent znode {@code <root>/<namespace>/workers/<id>} holding who claimed it, the
 * claim's token, the claimant's lease duration and the worker's high-water mark (only ever raised), and, while it is
 * held, an ephemeral znode {@code leases/<id>} owned by the holder's ZooKeeper session. A worker ID is free when it
 * was released, when its holder's session ended (ZooKeeper deleted the lease znode), or when its holder has not
 * renewed it for its lease duration. A claim takes this instance's previous worker ID if it is free, else the lowest
 * free one, else the lowest never used; among those it prefers worker IDs whose mark is not far ahead of the clock
 * (see {@link #assign(long, Duration)}). A live lease is never taken. When every ID up to the layout's maximum is
 * leased the claim fails with {@link AllWorkerIdsLeasedException}.
 *
 * <p>Every claim, renewal and release is one ZooKeeper transaction ({@code multi}) that names the version of the
 * worker znode it read, so two claimants can never both win, and a holder that lost its lease can never write the
 * next holder's mark. A renewal fails with {@link WorkerLeaseLostException} when the ZooKeeper session the worker ID
 * was claimed in has ended, or when another instance took it; one that finds the version moved on by its own
 * earlier write, whose answer was lost, recognises its token and session and carries on.
 *
 * <p><strong>The store's clock</strong> is the time the ZooKeeper leader stamps on each write (a znode's
 * {@code mtime}): lease expiry compares the {@code mtime} of a worker znode's last renewal with the {@code mtime} of a
 * write to {@code <root>/<namespace>/clock} made at the start of each claim, so instances whose clocks disagree
 * still agree on who holds what. The high-water mark itself is wall-clock time of the generator that wrote it.
 */
public final class ZookeeperWorkerIdAssigner implements WorkerIdAssigner {

	/** Default root path. */
	public static final String DEFAULT_ROOT_PATH = "/uid";

	/** Default namespace. */
	public static final String DEFAULT_NAMESPACE = "default";

	/** Default lease duration. */
	public static final Duration DEFAULT_LEASE_DURATION = LeaseSettings.DEFAULT_LEASE_DURATION;

	/** Default wait for the client to connect before a claim gives up. */
	public static final Duration DEFAULT_CONNECTION_TIMEOUT = Duration.ofSeconds(10);

	private static final Logger logger = LoggerFactory.getLogger(ZookeeperWorkerIdAssigner.class);

	private static final Pattern NAMESPACE = Pattern.compile("[^/\\s]{1,100}");

	/** Enough for dozens of instances starting in the same instant, each round trying several free IDs. */
	private static final int MAX_CLAIM_ROUNDS = 100;

	private static final int CANDIDATES_PER_ROUND = 8;

	/** A renewal writes again over its own earlier write whose answer was lost; more would mean a hand edit. */
	private static final int MAX_RENEW_ATTEMPTS = 3;

	private final WorkerRegistry registry;

	private final LeaseSettings lease;

	private final String rootPath;

	private final String namespace;

	private final LayoutZnode layoutZnode;

	private final Duration connectionTimeout;

	private final Map<Long, HeldLease> held = new ConcurrentHashMap<>();

	private ZookeeperWorkerIdAssigner(Builder builder, LeaseSettings lease) {
		this.lease = lease;
		this.rootPath = builder.rootPath;
		this.namespace = builder.namespace;
		this.connectionTimeout = builder.connectionTimeout;
		String basePath = ("/".equals(this.rootPath) ? "" : this.rootPath) + "/" + this.namespace;
		this.registry = new WorkerRegistry(builder.client, basePath);
		this.layoutZnode = new LayoutZnode(builder.client, basePath);
	}

	/**
	 * Starts building an assigner on a Curator client; the client must be started before the first claim.
	 * @param client the application's Curator client (its own namespace, if any, comes before the root path)
	 * @return a builder
	 */
	public static Builder builder(CuratorFramework client) {
		return new Builder(client);
	}

	/** Records the layout in the namespace's {@code layout} znode, or refuses another; see {@link LayoutZnode}. */
	@Override
	public void recordLayout(UidLayout layout) {
		this.registry.awaitConnected(this.connectionTimeout);
		this.layoutZnode.record(layout);
	}

	/**
	 * Claims a worker ID, preferring those whose mark lies at most {@link LeaseSettings#DEFAULT_MAX_MARK_LEAD} ahead
	 * of the store's clock, so a restart soon after a crash still gets its own worker ID back; see
	 * {@link #assign(long, Duration)}.
	 */
	@Override
	public WorkerAssignment assign(long maxWorkerId) {
		return assign(maxWorkerId, LeaseSettings.DEFAULT_MAX_MARK_LEAD);
	}

	/**
	 * Claims a worker ID for this instance, preferring worker IDs whose mark is not further ahead of the store's
	 * clock than {@code maxMarkLead}: a host whose clock ran fast may have left a mark minutes in the future, and
	 * whoever claims that worker ID must wait for it or refuse to start. Worker IDs never used count as fine. Only
	 * when nothing else is free is a worker ID with a mark further ahead taken.
	 * @param maxWorkerId the largest worker ID the layout holds
	 * @param maxMarkLead how far past the store's clock a mark may lie for its worker ID to be preferred
	 * @return the worker ID and its high-water mark
	 * @throws AllWorkerIdsLeasedException when every worker ID up to {@code maxWorkerId} is leased
	 * @throws WorkerAssignmentException when no ID can be claimed
	 */
	@Override
	public WorkerAssignment assign(long maxWorkerId, Duration maxMarkLead) {
		Objects.requireNonNull(maxMarkLead, "maxMarkLead");
		this.registry.awaitConnected(this.connectionTimeout);
		for (int round = 1; round <= MAX_CLAIM_ROUNDS; round++) {
			Snapshot snapshot = this.registry.snapshot(maxWorkerId);
			List<Candidate> candidates = candidates(snapshot, maxWorkerId, maxMarkLead);
			if (candidates.isEmpty()) {
				List<WorkerNode> live = snapshot.nodes()
					.stream()
					.filter((node) -> !node.free(snapshot.storeMillis()))
					.toList();
				List<String> holders = live.stream()
					.limit(CANDIDATES_PER_ROUND)
					.map((node) -> (node.record() != null) ? node.record().instanceId() : "(unreadable znode)")
					.toList();
				throw this.lease.allTaken(maxWorkerId, live.size(), holders,
						"ZooKeeper under " + this.registry.basePath());
			}
			for (Candidate candidate : candidates) {
				WorkerAssignment assignment = tryTake(candidate);
				if (assignment != null) {
					return assignment;
				}
			}
			backOff(round);
		}
		throw new WorkerAssignmentException("Could not claim a uid worker ID under " + this.registry.basePath()
				+ " in " + MAX_CLAIM_ROUNDS + " rounds: too many instances claimed at the same moment. Start again.");
	}

	@Override
	public Optional<WorkerAssignment> assignBehind(long maxWorkerId, long latestMarkMillis) {
		this.registry.awaitConnected(this.connectionTimeout);
		for (int round = 1; round <= MAX_CLAIM_ROUNDS; round++) {
			Snapshot snapshot = this.registry.snapshot(maxWorkerId);
			List<Candidate> candidates = candidatesBehind(snapshot, maxWorkerId, latestMarkMillis);
			if (candidates.isEmpty()) {
				return Optional.empty();
			}
			for (Candidate candidate : candidates) {
				// The take writes over the version read, so the mark cannot have moved since it was checked.
				WorkerAssignment assignment = tryTake(candidate);
				if (assignment != null) {
					return Optional.of(assignment);
				}
			}
			backOff(round);
		}
		throw new WorkerAssignmentException("Could not claim a further uid worker ID under " + this.registry.basePath()
				+ " in " + MAX_CLAIM_ROUNDS + " rounds: too many instances claimed at the same moment.");
	}

	/** The lowest free worker IDs whose mark is no later than the bound, then the lowest never used. */
	private List<Candidate> candidatesBehind(Snapshot snapshot, long maxWorkerId, long latestMarkMillis) {
		List<Candidate> candidates = new ArrayList<>();
		for (WorkerNode node : snapshot.nodes()) {
			if (candidates.size() < CANDIDATES_PER_ROUND && node.free(snapshot.storeMillis())
					&& node.record().markMillis() <= latestMarkMillis) {
				candidates.add(new Candidate(node));
			}
		}
		addNeverUsed(snapshot, maxWorkerId, candidates);
		return candidates;
	}

	/** Adds the lowest worker IDs without a znode, up to a round's worth of candidates. */
	private static void addNeverUsed(Snapshot snapshot, long maxWorkerId, List<Candidate> candidates) {
		int next = 0;
		for (long id = 0; id <= maxWorkerId && candidates.size() < CANDIDATES_PER_ROUND; id++) {
			while (next < snapshot.nodes().size() && snapshot.nodes().get(next).workerId() < id) {
				next++;
			}
			if (next >= snapshot.nodes().size() || snapshot.nodes().get(next).workerId() != id) {
				candidates.add(new Candidate(id, null, snapshot.leaseNodes().contains(id)));
			}
		}
	}

	/**
	 * Orders the worker IDs worth trying: this instance's previous one, the lowest free ones, the lowest never used;
	 * then, only if none of those can be had, free ones whose mark lies beyond the lead.
	 */
	private List<Candidate> candidates(Snapshot snapshot, long maxWorkerId, Duration maxMarkLead) {
		long now = snapshot.storeMillis();
		long markLimit = (now > Long.MAX_VALUE - maxMarkLead.toMillis()) ? Long.MAX_VALUE
				: now + maxMarkLead.toMillis();
		WorkerNode own = null;
		List<WorkerNode> free = new ArrayList<>();
		for (WorkerNode node : snapshot.nodes()) {
			if (node.free(now)) {
				free.add(node);
				if (node.record().instanceId().equals(this.lease.instanceId())
						&& (own == null || node.modifiedMillis() > own.modifiedMillis())) {
					own = node;
				}
			}
		}
		List<Candidate> fine = new ArrayList<>();
		List<Candidate> ahead = new ArrayList<>();
		if (own != null) {
			(isAhead(own, markLimit) ? ahead : fine).add(new Candidate(own));
		}
		for (WorkerNode node : free) {
			if (node != own && fine.size() < CANDIDATES_PER_ROUND) {
				(isAhead(node, markLimit) ? ahead : fine).add(new Candidate(node));
			}
		}
		addNeverUsed(snapshot, maxWorkerId, fine);
		fine.addAll(ahead);
		return fine;
	}

	private static boolean isAhead(WorkerNode node, long markLimit) {
		return node.record().markMillis() != WorkerAssignment.NO_MARK && node.record().markMillis() > markLimit;
	}

	/** Tries one candidate; returns {@code null} when another instance got it first. */
	private WorkerAssignment tryTake(Candidate candidate) {
		String token = LeaseTokens.newToken();
		long mark = (candidate.node() != null) ? candidate.node().record().markMillis() : WorkerAssignment.NO_MARK;
		WorkerRecord record = new WorkerRecord(this.lease.instanceId(), token, this.lease.leaseDuration().toMillis(),
				mark);
		long sessionId = this.registry.sessionId();
		int version;
		try {
			version = this.registry.take(candidate.workerId(), candidate.node(), candidate.staleLeaseNode(), record);
		}
		catch (Conflict ex) {
			// The transaction may have been applied and only its answer lost (the client then retried it):
			// nobody but this claim knows the token.
			WorkerNode now = this.registry.read(candidate.workerId());
			if (now == null || !record.equals(now.record()) || !now.leaseNode()) {
				return null;
			}
			version = now.version();
		}
		this.held.put(candidate.workerId(), new HeldLease(record, version, sessionId));
		WorkerAssignment assignment = new WorkerAssignment(candidate.workerId(), mark);
		logger.info("uid worker ID {} leased from ZooKeeper {} for instance '{}' ({}, lease {})",
				candidate.workerId(), this.registry.basePath(), this.lease.instanceId(),
				assignment.hasMark() ? "mark " + Instant.ofEpochMilli(mark) : "no mark", this.lease.leaseDuration());
		return assignment;
	}

	@Override
	public void renew(long workerId, long highWaterMarkMillis) {
		HeldLease lease = this.held.get(workerId);
		if (lease == null) {
			throw new WorkerLeaseLostException(workerId, "this assigner holds no lease on it");
		}
		if (this.registry.sessionId() != lease.sessionId()) {
			this.held.remove(workerId, lease);
			throw new WorkerLeaseLostException(workerId, "the ZooKeeper session it was claimed in has ended, and "
					+ "with it the ephemeral lease znode");
		}
		WorkerRecord record = lease.record().withMarkAtLeast(highWaterMarkMillis);
		int version = lease.version();
		for (int attempt = 1;; attempt++) {
			try {
				version = this.registry.renew(workerId, record, version);
				break;
			}
			catch (Conflict ex) {
				WorkerNode now = this.registry.read(workerId);
				long leaseOwner = this.registry.leaseOwner(workerId);
				if (!heldBy(lease, now, leaseOwner)) {
					this.held.remove(workerId, lease);
					throw new WorkerLeaseLostException(workerId, lostDetail(workerId, lease, now, leaseOwner));
				}
				if (record.equals(now.record())) {
					// This renewal was applied, but its answer was lost and the client retried it.
					version = now.version();
					break;
				}
				// An earlier renewal was applied though its answer was lost: the token and the session are still
				// this claim's, so nobody else took the worker ID. Write again over the version it left.
				if (attempt == MAX_RENEW_ATTEMPTS) {
					throw new WorkerStoreUnavailableException("The znode of uid worker ID " + workerId + " under "
							+ this.registry.basePath() + " changed " + attempt + " times while it was renewed, each "
							+ "time still under this instance's lease; trying again at the next renewal.", ex);
				}
				record = record.withMarkAtLeast(now.record().markMillis());
				version = now.version();
			}
		}
		this.held.replace(workerId, lease, new HeldLease(record, version, lease.sessionId()));
	}

	/** Returns whether a worker znode still carries a lease's token, under a lease znode of the lease's session. */
	private static boolean heldBy(HeldLease lease, WorkerNode now, long leaseOwner) {
		return now != null && now.record() != null && now.record().leased()
				&& lease.record().token().equals(now.record().token())
				&& lease.record().instanceId().equals(now.record().instanceId()) && leaseOwner == lease.sessionId();
	}

	private String lostDetail(long workerId, HeldLease lease, WorkerNode now, long leaseOwner) {
		if (now == null) {
			return "its znode " + this.registry.workerPath(workerId) + " is gone from ZooKeeper (deleted by hand?)";
		}
		if (now.record() == null) {
			return "its znode " + this.registry.workerPath(workerId) + " no longer holds a uid worker record";
		}
		if (!lease.record().token().equals(now.record().token())) {
			return now.record().leased() ? "the lease expired and instance '" + now.record().instanceId()
					+ "' holds it now" : "its lease was released by instance '" + now.record().instanceId() + "'";
		}
		if (leaseOwner == 0) {
			return "its ephemeral lease znode " + this.registry.leaseZnode(workerId) + " is gone: the ZooKeeper "
					+ "session it was claimed in ended, or the znode was deleted";
		}
		return "its lease znode " + this.registry.leaseZnode(workerId) + " belongs to ZooKeeper session 0x"
				+ Long.toHexString(leaseOwner) + ", not to this instance's session 0x"
				+ Long.toHexString(lease.sessionId());
	}

	@Override
	public void release(long workerId, long highWaterMarkMillis) {
		HeldLease lease = this.held.remove(workerId);
		if (lease == null) {
			return;
		}
		WorkerRecord released = lease.record().withMarkAtLeast(highWaterMarkMillis).released();
		try {
			this.registry.release(workerId, released, lease.version(), true);
		}
		catch (Conflict ex) {
			// The lease znode may be gone with an ended session while the worker znode is still this claim's: the
			// final mark must be recorded all the same.
			WorkerNode now = this.registry.read(workerId);
			if (now == null || now.record() == null
					|| !(released.equals(now.record()) || lease.record().token().equals(now.record().token()))) {
				logger.warn("uid worker ID {} was no longer leased by this instance at release", workerId);
				return;
			}
			if (!released.equals(now.record())) {
				try {
					this.registry.release(workerId, released.withMarkAtLeast(now.record().markMillis()), now.version(),
							now.leaseNode());
				}
				catch (Conflict again) {
					logger.warn("uid worker ID {} was taken by another instance while it was released", workerId);
					return;
				}
			}
		}
		logger.info("uid worker ID {} released in ZooKeeper {}", workerId, this.registry.basePath());
	}

	@Override
	public Duration renewInterval() {
		return this.lease.heartbeatInterval();
	}

	@Override
	public String name() {
		return "zookeeper";
	}

	/**
	 * Returns the path every znode of this namespace lives under.
	 * @return {@code <root>/<namespace>}
	 */
	public String getBasePath() {
		return this.registry.basePath();
	}

	public String getRootPath() {
		return this.rootPath;
	}

	public String getNamespace() {
		return this.namespace;
	}

	public Duration getLeaseDuration() {
		return this.lease.leaseDuration();
	}

	public Duration getHeartbeatInterval() {
		return this.lease.heartbeatInterval();
	}

	public Duration getConnectionTimeout() {
		return this.connectionTimeout;
	}

	public String getInstanceId() {
		return this.lease.instanceId();
	}

	@Override
	public String toString() {
		return "ZookeeperWorkerIdAssigner[" + this.registry.basePath() + ", instance '" + this.lease.instanceId()
				+ "']";
	}

	private static void backOff(int round) {
		try {
			Thread.sleep(ThreadLocalRandom.current().nextLong(1, Math.min(50, 2L * round + 3)));
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new WorkerAssignmentException("Interrupted while claiming a uid worker ID", ex);
		}
	}

	/** A worker ID worth trying: its znode as read ({@code null} if never used) and whether a lease znode was seen. */
	private record Candidate(long workerId, WorkerNode node, boolean staleLeaseNode) {

		Candidate(WorkerNode node) {
			this(node.workerId(), node, node.leaseNode());
		}

	}

	/** A lease this assigner holds: the record it last wrote, that write's version, and the claim's session. */
	private record HeldLease(WorkerRecord record, int version, long sessionId) {
	}

	/**
	 * Builds a {@link ZookeeperWorkerIdAssigner}; settings left unset (or set to {@code null}) keep their defaults.
	 */
	public static final class Builder extends AbstractLeaseBuilder<Builder> {

		private final CuratorFramework client;

		private String rootPath = DEFAULT_ROOT_PATH;

		private String namespace = DEFAULT_NAMESPACE;

		private Duration connectionTimeout = DEFAULT_CONNECTION_TIMEOUT;

		private Builder(CuratorFramework client) {
			super(Integer.MAX_VALUE);
			this.client = Objects.requireNonNull(client, "client");
		}

		/**
		 * Sets the path under which every namespace lives; {@value #DEFAULT_ROOT_PATH} by default.
		 * @param rootPath an absolute ZooKeeper path, for example {@code /uid} or {@code /services/ids}
		 * @return this builder
		 */
		public Builder rootPath(String rootPath) {
			if (rootPath != null) {
				try {
					PathUtils.validatePath(rootPath);
				}
				catch (IllegalArgumentException ex) {
					throw new InvalidSettingException("rootPath", rootPath, "use an absolute ZooKeeper path such as "
							+ "/uid, without a trailing slash (" + ex.getMessage() + ")");
				}
				this.rootPath = rootPath;
			}
			return this;
		}

		/**
		 * Sets the namespace: applications sharing one ZooKeeper with different namespaces hand out worker IDs
		 * independently; {@value #DEFAULT_NAMESPACE} by default.
		 * @param namespace up to 100 characters, no slashes or whitespace
		 * @return this builder
		 */
		public Builder namespace(String namespace) {
			if (namespace != null) {
				if (!NAMESPACE.matcher(namespace).matches() || ".".equals(namespace) || "..".equals(namespace)
						|| "zookeeper".equals(namespace)) {
					throw new InvalidSettingException("namespace", namespace,
							"use 1 to 100 characters without slashes or whitespace, for example orders");
				}
				this.namespace = namespace;
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
		 * {@inheritDoc}
		 * <p>ZooKeeper's worker record is line-based, so the instance ID may not span lines.
		 */
		@Override
		public Builder instanceId(String instanceId) {
			if (instanceId != null) {
				requireSingleLine(instanceId);
			}
			return super.instanceId(instanceId);
		}

		/**
		 * Builds the assigner; it talks to ZooKeeper only when a worker ID is claimed.
		 * @return the assigner
		 * @throws InvalidSettingException when the default instance ID spans lines (the record is line-based)
		 */
		public ZookeeperWorkerIdAssigner build() {
			LeaseSettings settings = leaseSettings();
			requireSingleLine(settings.instanceId());
			return new ZookeeperWorkerIdAssigner(this, settings);
		}

		private static void requireSingleLine(String instanceId) {
			if (instanceId.indexOf('\n') >= 0 || instanceId.indexOf('\r') >= 0) {
				throw new InvalidSettingException("instanceId", instanceId, "use an instance ID without line breaks");
			}
		}

	}

}
