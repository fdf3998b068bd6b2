package io.github.uidgen.worker.zookeeper;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

import io.github.uidgen.InvalidSettingException;
import io.github.uidgen.UidLayout;
import io.github.uidgen.worker.AbstractLeaseBuilder;
import io.github.uidgen.worker.AllWorkerIdsLeasedException;
import io.github.uidgen.worker.WorkerAssignment;
import io.github.uidgen.worker.WorkerAssignmentException;
import io.github.uidgen.worker.WorkerIdAssigner;
import io.github.uidgen.worker.WorkerLeaseLostException;
import io.github.uidgen.worker.fleet.WorkerFleet;
import io.github.uidgen.worker.support.ClaimBackOff;
import io.github.uidgen.worker.support.LeaseSettings;
import io.github.uidgen.worker.zookeeper.ClaimCandidates.Candidate;
import io.github.uidgen.worker.zookeeper.WorkerRegistry.Snapshot;
import io.github.uidgen.worker.zookeeper.WorkerRegistry.WorkerNode;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.utils.PathUtils;

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
 * earlier write, whose answer was lost, recognises its token and session and carries on. The claim and the release
 * also rewrite the worker ID's claims znode {@code claims/<id>} in their transaction, over the version read, so the
 * history of claims ({@link #fleet()}) never disagrees with them; a claim replaces the worker ID's owner znode
 * {@code owners/<id>-<instance>} too, so that a later claim finds its instance's previous worker ID in one listing
 * and reads a few dozen worker znodes, not all of them ({@link WorkerOwners}, {@link ClaimCandidates#toRead}).
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

	private static final Pattern NAMESPACE = Pattern.compile("[^/\\s]{1,100}");

	/** Enough for dozens of instances starting in the same instant, each round trying several free IDs. */
	private static final int MAX_CLAIM_ROUNDS = 100;

	private final WorkerRegistry registry;

	private final LeaseSettings lease;

	private final String rootPath;

	private final String namespace;

	private final LayoutZnode layoutZnode;

	private final Duration connectionTimeout;

	private final ClaimCandidates candidates;

	private final WorkerLeases leases;

	private final ZookeeperFleet fleet;

	private ZookeeperWorkerIdAssigner(Builder builder, LeaseSettings lease) {
		this.lease = lease;
		this.rootPath = builder.rootPath;
		this.namespace = builder.namespace;
		this.connectionTimeout = builder.connectionTimeout;
		String basePath = ("/".equals(this.rootPath) ? "" : this.rootPath) + "/" + this.namespace;
		this.registry = new WorkerRegistry(builder.client, basePath);
		this.layoutZnode = new LayoutZnode(builder.client, basePath, this.registry.paths());
		this.candidates = new ClaimCandidates(lease.instanceId());
		this.leases = new WorkerLeases(this.registry, lease);
		this.fleet = new ZookeeperFleet(this.registry, this.connectionTimeout);
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
		// The claim queues itself as a claimant, a create whose mtime is the ensemble's time, sent with the first
		// round's listings. Later rounds count on from that time by this host's monotonic clock, which can only make
		// them think it earlier than it is (the write's mtime precedes its answer). Writing the clock znode every round
		// made a fleet's simultaneous start one long queue of writes.
		Claimant claimant = new Claimant();
		try {
			WorkerRegistry.Listing first = this.registry.start(claimant);
			long clockMillis = first.storeMillis();
			long clockReadNanos = System.nanoTime();
			WorkerAssignment own = takeOwnBack(first, maxWorkerId, maxMarkLead, claimant);
			if (own != null) {
				return own;
			}
			for (int round = 1; round <= MAX_CLAIM_ROUNDS; round++) {
				long storeMillis = clockMillis + (System.nanoTime() - clockReadNanos) / 1_000_000;
				// A round reads a few dozen worker znodes, however large the registry (ClaimCandidates.toRead): this
				// instance's own, those without a lease znode from as many places down as claims queued before it are
				// in flight, and in the first round a few leased ones, where an expired lease is preferred to a new
				// worker ID. A fleet starting at once read the whole registry in every claim.
				WorkerRegistry.Listing listing = (round == 1) ? first : this.registry.again(claimant);
				ClaimCandidates.Reads reads = this.candidates.toRead(listing, maxWorkerId, round);
				Snapshot snapshot = this.registry.read(listing, storeMillis, reads.ids(), reads.unreadBefore(),
						reads.complete(), reads.claimsToo());
				int queued = listing.ahead();
				List<Candidate> candidates = this.candidates.preferred(snapshot, maxWorkerId, maxMarkLead, round, queued);
				if (this.candidates.worthReadingAll(snapshot, candidates, maxMarkLead)) {
					// Nothing fine among what was read: read them all, as a lease may have run out under a live session.
					snapshot = this.registry.snapshot(maxWorkerId, storeMillis);
					candidates = this.candidates.preferred(snapshot, maxWorkerId, maxMarkLead, round, queued);
				}
				if (candidates.isEmpty()) {
					throw allTaken(maxWorkerId, snapshot);
				}
				for (Candidate candidate : candidates) {
					WorkerAssignment assignment = this.leases.tryTake(candidate, snapshot, claimant);
					if (assignment != null) {
						return assignment;
					}
					if (ClaimCandidates.ranked(round)) {
						// A ranked round's first candidate is the worker ID at this claim's place: the next ones are
						// the places of the claims behind it. Lost, the next round reads the registry again.
						break;
					}
				}
				ClaimBackOff.pause(round);
			}
		}
		finally {
			this.registry.leave(claimant);
		}
		throw new WorkerAssignmentException("Could not claim a uid worker ID under " + this.registry.basePath()
				+ " in " + MAX_CLAIM_ROUNDS + " rounds: too many instances claimed at the same moment. Start again.");
	}

	/**
	 * Tries this instance's own worker ID alone, read with its claims and nothing else, where the registry is large
	 * enough for a round to sample it ({@link ClaimCandidates#ownToTryFirst}); {@code null} when there is none to try
	 * or it could not be had, and the rounds go on as they would have.
	 */
	private WorkerAssignment takeOwnBack(WorkerRegistry.Listing first, long maxWorkerId, Duration maxMarkLead,
			Claimant claimant) {
		List<Long> own = this.candidates.ownToTryFirst(first, maxWorkerId);
		if (own.isEmpty()) {
			return null;
		}
		Snapshot snapshot = this.registry.read(first, first.storeMillis(), own, 0, false, own);
		for (Candidate candidate : this.candidates.ownFree(snapshot, maxMarkLead)) {
			WorkerAssignment assignment = this.leases.tryTake(candidate, snapshot, claimant);
			if (assignment != null) {
				return assignment;
			}
		}
		return null;
	}

	private RuntimeException allTaken(long maxWorkerId, Snapshot snapshot) {
		List<WorkerNode> live = snapshot.nodes().stream().filter((node) -> !node.free(snapshot.storeMillis())).toList();
		List<String> holders = live.stream()
			.limit(ClaimCandidates.PER_ROUND)
			.map((node) -> (node.record() != null) ? node.record().instanceId() : "(unreadable znode)")
			.toList();
		return this.lease.allTaken(maxWorkerId, live.size(), holders, "ZooKeeper under " + this.registry.basePath());
	}

	@Override
	public Optional<WorkerAssignment> assignBehind(long maxWorkerId, long latestMarkMillis) {
		this.registry.awaitConnected(this.connectionTimeout);
		for (int round = 1; round <= MAX_CLAIM_ROUNDS; round++) {
			Snapshot snapshot = this.registry.snapshot(maxWorkerId);
			List<Candidate> candidates = this.candidates.behind(snapshot, maxWorkerId, latestMarkMillis);
			if (candidates.isEmpty()) {
				return Optional.empty();
			}
			for (Candidate candidate : candidates) {
				// The take writes over the version read, so the mark cannot have moved since it was checked.
				WorkerAssignment assignment = this.leases.tryTake(candidate, snapshot, null);
				if (assignment != null) {
					return Optional.of(assignment);
				}
			}
			ClaimBackOff.pause(round);
		}
		throw new WorkerAssignmentException("Could not claim a further uid worker ID under " + this.registry.basePath()
				+ " in " + MAX_CLAIM_ROUNDS + " rounds: too many instances claimed at the same moment.");
	}

	@Override
	public void renew(long workerId, long highWaterMarkMillis) {
		this.leases.renew(workerId, highWaterMarkMillis);
	}

	@Override
	public void release(long workerId, long highWaterMarkMillis) {
		this.leases.release(workerId, highWaterMarkMillis);
	}

	@Override
	public Duration renewInterval() {
		return this.lease.heartbeatInterval();
	}

	/**
	 * Returns the lease, or the ZooKeeper session's timeout when that is shorter: nobody else can take the worker ID
	 * before either has run out, and a claim of a lease that ran out starts after its expiry.
	 */
	@Override
	public Duration leaseHold() {
		return Duration.ofMillis(this.leases.holdMillis());
	}

	/**
	 * Reads the namespace's worker znodes and each worker ID's claims znode ({@code claims/<id>}, the newest
	 * {@code claimHistory} claims, written in the transaction of each claim and release); see {@link ZookeeperFleet}.
	 */
	@Override
	public Optional<WorkerFleet> fleet() {
		return Optional.of(this.fleet);
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

	/**
	 * Builds a {@link ZookeeperWorkerIdAssigner}; settings left unset (or set to {@code null}) keep their defaults.
	 */
	public static final class Builder extends AbstractLeaseBuilder<Builder> {

		private final CuratorFramework client;

		private String rootPath = DEFAULT_ROOT_PATH;

		private String namespace = DEFAULT_NAMESPACE;

		private Duration connectionTimeout = DEFAULT_CONNECTION_TIMEOUT;

		private Builder(CuratorFramework client) {
			super(Integer.MAX_VALUE, LeaseSettings.HEARTBEATS_PER_LEASE);
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
				this.connectionTimeout = CuratorCalls.requireConnectionTimeout(connectionTimeout);
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