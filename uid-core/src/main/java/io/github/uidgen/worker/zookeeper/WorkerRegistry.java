package io.github.uidgen.worker.zookeeper;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

import io.github.uidgen.worker.WorkerAssignment;
import io.github.uidgen.worker.WorkerAssignmentException;
import io.github.uidgen.worker.zookeeper.CuratorCalls.Conflict;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.CuratorEvent;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.curator.framework.api.transaction.CuratorTransactionResult;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.OpResult;
import org.apache.zookeeper.data.Stat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ZooKeeper side of {@link ZookeeperWorkerIdAssigner}: the znodes of one namespace and the transactions that
 * claim, renew and release on them, with ZooKeeper failures turned into the assigner's exceptions.
 *
 * <p>Under {@code <root>/<namespace>}: {@code workers/<id>} (persistent, a {@link WorkerRecord}; its {@code mtime} is
 * the time of the last claim or renewal), {@code leases/<id>} (ephemeral, owned by the holder's session),
 * {@code clock} (written by a release and a further claim, so its {@code mtime} tells the ensemble's time),
 * {@code claims/<id>} (persistent, a {@link ClaimList}: the worker ID's latest claims), {@code owners/<id>-<instance>}
 * (who claimed each worker ID last, see {@link WorkerOwners}) and {@code claimants/c-<sequence>} (the claims in
 * flight). Every change to a worker znode names the version it read ({@code setData} with a version, in a
 * {@code multi} with the lease znode's create or delete and with the claims znode's rewrite over the version read), so
 * two claimants can never both succeed on what they read: the second finds a version moved on and gets a
 * {@link CuratorCalls.Conflict}, and the history never disagrees with the claims it records.
 */
final class WorkerRegistry {

	private static final Logger logger = LoggerFactory.getLogger(ZookeeperWorkerIdAssigner.class);

	private static final byte[] NO_DATA = new byte[0];

	/** One worker ID's znode as read, and whether its ephemeral lease znode existed. */
	record WorkerNode(long workerId, WorkerRecord record, int version, long modifiedMillis, boolean leaseNode) {

		/** Returns whether the znode could not be read as a record (written by something else). */
		boolean corrupt() {
			return this.record == null;
		}

		/**
		 * Returns whether nobody holds the worker ID at a time of the store: released, its holder's session gone, or
		 * not renewed for the holder's lease duration.
		 */
		boolean free(long storeMillis) {
			return this.record != null && (!this.record.leased() || !this.leaseNode
					|| this.modifiedMillis + this.record.leaseMillis() < storeMillis);
		}

		/**
		 * Returns the mark a claim of this free worker ID starts after: the recorded one, and for a lease that was
		 * never released at least its expiry (the last renewal's {@code mtime} plus the holder's lease), as its holder
		 * may have issued on the lease up to then while ZooKeeper did not answer it. A session that ended before its
		 * lease ran out did not time out (ZooKeeper ends a session only once it has not heard from it for longer than
		 * the lease the holder recorded): it was closed or ended by hand while its holder could reach ZooKeeper, and so
		 * issued within its recorded mark; such a claim starts no later than now.
		 * @param storeMillis the ensemble's time of the claim
		 */
		long startMarkMillis(long storeMillis) {
			long mark = this.record.markMillis();
			if (this.record.leased()) {
				long expiry = Math.min(this.modifiedMillis + this.record.leaseMillis(), storeMillis);
				if (mark == WorkerAssignment.NO_MARK || mark < expiry) {
					mark = expiry;
				}
			}
			return mark;
		}

	}

	/**
	 * The worker IDs up to a maximum, read after a write to the clock znode.
	 * @param storeMillis the ensemble's time when the reading started
	 * @param nodes the worker znodes read, by ascending worker ID
	 * @param leaseNodes the worker IDs with a lease znode, some possibly beyond the maximum
	 * @param existing the worker IDs with a worker znode, read or not
	 * @param owners who claimed each worker ID last, as far as the owner znodes tell
	 * @param unreadBefore how many worker znodes without a lease znode, below those read, were left unread
	 * @param complete whether every worker znode up to the maximum was read
	 * @param claims the claims znodes read with the worker znodes, by worker ID
	 */
	record Snapshot(long storeMillis, List<WorkerNode> nodes, Set<Long> leaseNodes, Set<Long> existing,
			WorkerOwners owners, int unreadBefore, boolean complete, Map<Long, ClaimList.Stored> claims) {

		/** A snapshot that read no claims znode. */
		Snapshot(long storeMillis, List<WorkerNode> nodes, Set<Long> leaseNodes, Set<Long> existing,
				WorkerOwners owners, int unreadBefore, boolean complete) {
			this(storeMillis, nodes, leaseNodes, existing, owners, unreadBefore, complete, Map.of());
		}

		/** A snapshot that read every worker znode, with no owner known. */
		Snapshot(long storeMillis, List<WorkerNode> nodes, Set<Long> leaseNodes) {
			this(storeMillis, nodes, leaseNodes,
					nodes.stream().map(WorkerNode::workerId).collect(Collectors.toUnmodifiableSet()),
					WorkerOwners.NONE, 0, true);
		}

	}

	private final CuratorFramework client;

	private final String basePath;

	private final String workersPath;

	private final String leasesPath;

	private final String clockPath;

	private final String claimsPath;

	private final String claimantsPath;

	private final String ownersPath;

	private final CuratorCalls calls;

	private final RequestsAtOnce requests;

	private volatile boolean pathsCreated;

	WorkerRegistry(CuratorFramework client, String basePath) {
		this.client = client;
		this.calls = new CuratorCalls(client, basePath, "hands out uid worker IDs", "uid worker-ID operation");
		this.requests = new RequestsAtOnce(client, this.calls);
		this.basePath = basePath;
		this.workersPath = ZKPaths.makePath(basePath, "workers");
		this.leasesPath = ZKPaths.makePath(basePath, "leases");
		this.clockPath = ZKPaths.makePath(basePath, "clock");
		this.claimsPath = ZKPaths.makePath(basePath, "claims");
		this.claimantsPath = ZKPaths.makePath(basePath, "claimants");
		this.ownersPath = ZKPaths.makePath(basePath, "owners");
	}

	String basePath() {
		return this.basePath;
	}

	String workerPath(long workerId) {
		return ZKPaths.makePath(this.workersPath, Long.toString(workerId));
	}

	String workersPath() {
		return this.workersPath;
	}

	private String claimsPath(long workerId) {
		return ZKPaths.makePath(this.claimsPath, Long.toString(workerId));
	}

	private String leasePath(long workerId) {
		return ZKPaths.makePath(this.leasesPath, Long.toString(workerId));
	}

	void awaitConnected(Duration timeout) {
		this.calls.awaitConnected(timeout);
	}

	/**
	 * Returns the ZooKeeper session the client runs in now; it changes when a session expires.
	 * @return the session ID, 0 while no session is established
	 */
	long sessionId() {
		return this.calls.sessionId();
	}

	/**
	 * Returns the timeout of the ZooKeeper session the client runs in, as the ensemble negotiated it: the ensemble
	 * ends the session, and deletes its lease znodes, no sooner than this after it last heard from the client.
	 * @return milliseconds, 0 when unknown
	 */
	long sessionTimeoutMillis() {
		return this.calls.sessionTimeoutMillis();
	}

	/**
	 * Reads the ensemble's time, then every worker znode up to a maximum and which lease znodes exist: the clock's
	 * write and the listings are sent together, one round trip's wait, and the worker znodes read pipelined after
	 * them, a second one.
	 * @param maxWorkerId the largest worker ID to read
	 * @return the snapshot, whose time is the clock write's {@code mtime}
	 */
	Snapshot snapshot(long maxWorkerId) {
		createPaths();
		Listing listing = list(true);
		return read(listing, listing.storeMillis(), listing.workerIds(maxWorkerId), 0, true);
	}

	/**
	 * Reads every worker znode up to a maximum and which lease znodes exist, at an ensemble time already known.
	 * @param maxWorkerId the largest worker ID to read
	 * @param storeMillis the ensemble's time now, no later than it really is
	 * @return the snapshot
	 */
	Snapshot snapshot(long maxWorkerId, long storeMillis) {
		Listing listing = list(false);
		return read(listing, storeMillis, listing.workerIds(maxWorkerId), 0, true);
	}

	/**
	 * Reads some of the worker znodes listed, pipelined (one round trip's wait).
	 * @param listing the listing they were chosen from
	 * @param storeMillis the ensemble's time now, no later than it really is
	 * @param ids the worker IDs to read, ascending
	 * @param unreadBefore how many worker znodes without a lease znode, below those read, are left unread
	 * @param complete whether the IDs are every one listed up to the claim's maximum
	 * @return the snapshot
	 */
	Snapshot read(Listing listing, long storeMillis, List<Long> ids, int unreadBefore, boolean complete) {
		return read(listing, storeMillis, ids, unreadBefore, complete, List.of());
	}

	/**
	 * Reads some of the worker znodes listed, and the claims znodes of a few of them, pipelined (one round trip's
	 * wait): a claim of the worker ID its instance held rewrites that worker ID's claims, which it read in a round
	 * trip of its own before.
	 * @param listing the listing they were chosen from
	 * @param storeMillis the ensemble's time now, no later than it really is
	 * @param ids the worker IDs to read, ascending
	 * @param unreadBefore how many worker znodes without a lease znode, below those read, are left unread
	 * @param complete whether the IDs are every one listed up to the claim's maximum
	 * @param claimsToo the worker IDs whose claims znodes to read with them
	 * @return the snapshot
	 */
	Snapshot read(Listing listing, long storeMillis, List<Long> ids, int unreadBefore, boolean complete,
			List<Long> claimsToo) {
		Map<Long, ClaimList.Stored> claims = new HashMap<>();
		List<WorkerNode> nodes = readNodes(ids, listing.leaseNodes(), claimsToo, claims);
		return new Snapshot(storeMillis, nodes, listing.leaseNodes(), Set.copyOf(listing.workerIds()),
				listing.owners(), unreadBefore, complete, Map.copyOf(claims));
	}

	/**
	 * Which lease, worker and owner znodes exist, and the ensemble's time when the clock znode was written with them.
	 * @param storeMillis the clock write's {@code mtime}, -1 when it was not written
	 * @param leaseNodes the worker IDs with a lease znode
	 * @param workerIds the worker IDs with a worker znode, ascending
	 * @param owners who claimed each worker ID last
	 * @param ahead how many claims in flight queued before this one, 0 when not listed
	 */
	record Listing(long storeMillis, Set<Long> leaseNodes, List<Long> workerIds, WorkerOwners owners, int ahead) {

		/** The worker IDs with a worker znode up to a maximum, ascending. */
		List<Long> workerIds(long maxWorkerId) {
			return this.workerIds.stream().filter((id) -> id <= maxWorkerId).toList();
		}

	}

	/**
	 * Lists the lease and the worker znodes, and writes the clock znode first when asked, all sent at once on the
	 * session's connection: one round trip's wait where it was three.
	 */
	private Listing list(boolean writeClock) {
		List<RequestsAtOnce.Request> first = new ArrayList<>(1);
		if (writeClock) {
			first.add((callback) -> this.client.setData().inBackground(callback).forPath(this.clockPath, NO_DATA));
		}
		return list(first, null, false);
	}

	/**
	 * Sends the requests given, then lists, for a claimant, the claims in flight, and the lease, worker and owner
	 * znodes, without waiting in between; the first request's answer carries the ensemble's time, if any.
	 * @param checkPaths whether to learn in the same read that the clock and claims znodes are there too
	 * @return the listing; {@code null} when {@code checkPaths} and one of the namespace's paths is missing (a
	 * claimant queued meanwhile is noted in it, to be left)
	 */
	private Listing list(List<RequestsAtOnce.Request> first, Claimant claimant, boolean checkPaths) {
		RequestsAtOnce.Pending sent = this.requests.send(first);
		List<String> paths = new ArrayList<>(4);
		if (claimant != null) {
			paths.add(this.claimantsPath);
		}
		paths.addAll(List.of(this.leasesPath, this.workersPath, this.ownersPath));
		List<List<String>> children = this.requests.childrenAtOnce(paths,
				checkPaths ? List.of(this.clockPath, this.claimsPath) : List.of());
		CuratorEvent[] answers = sent.await("requests before the listings of " + this.basePath);
		if (children == null) {
			if (claimant != null && answers.length > 0
					&& KeeperException.Code.get(answers[0].getResultCode()) == KeeperException.Code.OK) {
				claimant.queued(answers[0].getName());
			}
			return null;
		}
		for (CuratorEvent answer : answers) {
			this.requests.requireOk(answer);
		}
		int at = (claimant != null) ? 1 : 0;
		Set<Long> leaseNodes = new HashSet<>();
		for (String name : children.get(at)) {
			long id = workerIdOf(name);
			if (id >= 0) {
				leaseNodes.add(id);
			}
		}
		List<Long> ids = new ArrayList<>();
		for (String name : children.get(at + 1)) {
			long id = workerIdOf(name);
			if (id >= 0) {
				ids.add(id);
			}
		}
		ids.sort(null);
		long storeMillis = (answers.length > 0) ? answers[0].getStat().getMtime() : -1;
		String own = (claimant != null && claimant.path() == null && answers.length > 0) ? answers[0].getName() : null;
		if (own != null) {
			claimant.queued(own);
		}
		WorkerOwners owners = WorkerOwners.of(children.get(at + 2));
		int ahead = (claimant != null) ? claimant.ahead(children.get(0)) : 0;
		return new Listing(storeMillis, leaseNodes, List.copyOf(ids), owners, ahead);
	}

	/**
	 * Starts a claim: queues it as a claimant (the create's {@code mtime} is the ensemble's time) and lists the lease,
	 * worker and owner znodes and the claims in flight, all sent at once.
	 * @param claimant the claim's place in the queue, filled in here
	 * @return the listing, whose time is the claimant's creation and which counts the claims in flight queued
	 * before it
	 */
	Listing start(Claimant claimant) {
		// The first claim learns in its listing that the namespace's paths are there, as they are in a namespace in
		// use and where its layout was recorded with them; it read the namespace's children first, a round trip.
		Listing listing = queueAndList(claimant, !this.pathsCreated);
		if (listing == null) {
			leave(claimant);
			createPaths();
			listing = queueAndList(claimant, false);
		}
		this.pathsCreated = true;
		return listing;
	}

	private Listing queueAndList(Claimant claimant, boolean checkPaths) {
		String prefix = ZKPaths.makePath(this.claimantsPath, "c-");
		return list(List.of((callback) -> this.client.create()
			.withMode(CreateMode.EPHEMERAL_SEQUENTIAL)
			.inBackground(callback)
			.forPath(prefix, NO_DATA)), claimant, checkPaths);
	}

	/**
	 * Lists, for a round after a lost race, the lease, worker and owner znodes and the claims in flight.
	 * @return the listing, without a time
	 */
	Listing again(Claimant claimant) {
		return list(List.of(), claimant, false);
	}

	/**
	 * Takes a claim out of the queue when it ends without a worker ID (a successful take does it in its transaction):
	 * in the background, retried by Curator until it is done or the session ends, which deletes it too.
	 */
	void leave(Claimant claimant) {
		String path = claimant.path();
		if (path == null) {
			return;
		}
		claimant.dequeued();
		try {
			this.client.delete().guaranteed().inBackground().forPath(path);
		}
		catch (Exception ex) {
			logger.debug("uid claimant znode {} left to its session's end: {}", path, ex.toString());
		}
	}

	/**
	 * Reads worker znodes all at once, pipelined on the session's connection (one round trip's wait, not one per
	 * znode), skipping those gone meanwhile.
	 * @param ids the worker IDs, ascending
	 * @param leaseNodes the worker IDs with a lease znode
	 * @return the nodes, by ascending worker ID
	 */
	private List<WorkerNode> readNodes(List<Long> ids, Set<Long> leaseNodes) {
		return readNodes(ids, leaseNodes, List.of(), new HashMap<>());
	}

	/**
	 * Reads worker znodes, and the claims znodes of some worker IDs after them, all at once, as
	 * {@link #readNodes(List, Set)} does.
	 * @param claimsToo the worker IDs whose claims znodes to read
	 * @param claims where to put those, {@link ClaimList.Stored#NONE} for one that does not exist
	 */
	private List<WorkerNode> readNodes(List<Long> ids, Set<Long> leaseNodes, List<Long> claimsToo,
			Map<Long, ClaimList.Stored> claims) {
		List<RequestsAtOnce.Request> reads = new ArrayList<>(ids.size() + claimsToo.size());
		for (long id : ids) {
			String path = workerPath(id);
			reads.add((callback) -> this.client.getData().inBackground(callback).forPath(path));
		}
		for (long id : claimsToo) {
			String path = claimsPath(id);
			reads.add((callback) -> this.client.getData().inBackground(callback).forPath(path));
		}
		CuratorEvent[] answers = this.requests.pipelined(reads, "reads of the worker znodes under " + this.workersPath);
		List<WorkerNode> nodes = new ArrayList<>(ids.size());
		for (int i = 0; i < ids.size(); i++) {
			CuratorEvent answer = answers[i];
			if (KeeperException.Code.get(answer.getResultCode()) == KeeperException.Code.NONODE) {
				continue;
			}
			this.requests.requireOk(answer);
			nodes.add(node(ids.get(i), answer.getData(), answer.getStat(), leaseNodes.contains(ids.get(i))));
		}
		for (int i = 0; i < claimsToo.size(); i++) {
			CuratorEvent answer = answers[ids.size() + i];
			if (KeeperException.Code.get(answer.getResultCode()) == KeeperException.Code.NONODE) {
				claims.put(claimsToo.get(i), ClaimList.Stored.NONE);
				continue;
			}
			this.requests.requireOk(answer);
			claims.put(claimsToo.get(i),
					new ClaimList.Stored(ClaimList.decode(answer.getData()), answer.getStat().getVersion()));
		}
		return nodes;
	}

	/**
	 * Reads the ensemble's time by writing the clock znode.
	 * @return the write's {@code mtime}
	 */
	long storeMillis() {
		createPaths();
		return this.calls.call(() -> this.client.setData().forPath(this.clockPath, NO_DATA)).getMtime();
	}

	/**
	 * Reads every worker znode and which lease znodes exist, writing nothing, for the fleet's reader.
	 * @return the worker znodes by ascending worker ID, unreadable ones with a {@code null} record
	 */
	List<WorkerNode> readAll() {
		Set<Long> leaseNodes = new HashSet<>();
		for (String name : childrenOf(this.leasesPath)) {
			leaseNodes.add(workerIdOf(name));
		}
		List<Long> ids = new ArrayList<>();
		for (String name : childrenOf(this.workersPath)) {
			long id = workerIdOf(name);
			if (id >= 0) {
				ids.add(id);
			}
		}
		ids.sort(null);
		return readNodes(ids, leaseNodes);
	}

	/** Returns the children of a path, none when it does not exist (no claim was ever made there). */
	private List<String> childrenOf(String path) {
		try {
			return this.calls.call(() -> this.client.getChildren().forPath(path));
		}
		catch (Conflict ex) {
			return List.of();
		}
	}

	/**
	 * Reads a worker ID's claims znode.
	 * @param workerId the worker ID
	 * @return its claims and the znode's version, {@link ClaimList.Stored#NONE} when there is none
	 */
	ClaimList.Stored claims(long workerId) {
		Stat stat = new Stat();
		try {
			byte[] data = this.calls.call(() -> this.client.getData().storingStatIn(stat).forPath(claimsPath(workerId)));
			return new ClaimList.Stored(ClaimList.decode(data), stat.getVersion());
		}
		catch (Conflict ex) {
			return ClaimList.Stored.NONE;
		}
	}

	/**
	 * Reads one worker znode and whether its lease znode exists.
	 * @param workerId the worker ID
	 * @return the node, or {@code null} when there is none
	 */
	WorkerNode read(long workerId) {
		boolean leaseNode = this.calls.call(() -> this.client.checkExists().forPath(leasePath(workerId))) != null;
		return readNode(workerId, leaseNode);
	}

	/**
	 * Returns the ZooKeeper session that owns a worker ID's ephemeral lease znode.
	 * @param workerId the worker ID
	 * @return the session ID, 0 when there is no lease znode
	 */
	long leaseOwner(long workerId) {
		Stat stat = this.calls.call(() -> this.client.checkExists().forPath(leasePath(workerId)));
		return (stat != null) ? stat.getEphemeralOwner() : 0;
	}

	String leaseZnode(long workerId) {
		return leasePath(workerId);
	}

	private WorkerNode readNode(long workerId, boolean leaseNode) {
		Stat stat = new Stat();
		byte[] data;
		try {
			data = this.calls.call(() -> this.client.getData().storingStatIn(stat).forPath(workerPath(workerId)));
		}
		catch (Conflict ex) {
			return null;
		}
		return node(workerId, data, stat, leaseNode);
	}

	/** A worker znode as read; an unreadable record is logged and kept as {@code null}, never handed out. */
	private WorkerNode node(long workerId, byte[] data, Stat stat, boolean leaseNode) {
		WorkerRecord record;
		try {
			record = WorkerRecord.decode(data);
		}
		catch (IllegalArgumentException ex) {
			logger.warn("uid worker znode {} is not a uid worker record ({}); its worker ID is never handed out. "
					+ "Restore it, or delete it only once the clock has passed every ID issued with it.",
					workerPath(workerId), ex.getMessage());
			record = null;
		}
		return new WorkerNode(workerId, record, stat.getVersion(), stat.getMtime(), leaseNode);
	}

	/**
	 * Claims a worker ID in one transaction: deletes a stale lease znode if there was one, creates this session's
	 * ephemeral lease znode, writes the record over the version read (or creates the worker znode), the claims over
	 * the version read (or creates the claims znode), takes the claim out of the queue of claims in flight, and
	 * replaces the worker ID's owner znode with this instance's. When the claims znode was taken for missing and the
	 * transaction fails on its create alone, the claims znode is read and the transaction sent again; so it is,
	 * without it, when the claimant znode alone was gone, and without the owner znodes when they alone were not as
	 * listed (written by hand: they are a hint only).
	 * @param workerId the worker ID
	 * @param read the worker znode as read, {@code null} when there was none
	 * @param staleLeaseNode whether a lease znode existed when read
	 * @param record the record to write
	 * @param claims the claims znode as read, or {@link ClaimList.Stored#NONE} when taken for missing unread
	 * @param history the claims to write over it, the new one first, from the claims read
	 * @param claimant the claim's place in the queue, {@code null} for none
	 * @param previousOwner the name of the worker ID's owner znode as listed, {@code null} when there was none
	 * @return the worker znode's new version
	 * @throws Conflict when another instance changed any of the znodes since it was read
	 */
	int take(long workerId, WorkerNode read, boolean staleLeaseNode, WorkerRecord record, ClaimList.Stored claims,
			UnaryOperator<ClaimList> history, Claimant claimant, String previousOwner) {
		int claimsOp = staleLeaseNode ? 3 : 2;
		ClaimList.Stored stored = claims;
		String owner = WorkerOwners.entry(workerId, record.instanceId());
		boolean owned = owner.equals(previousOwner);
		for (int attempt = 1;; attempt++) {
			String queued = (claimant != null) ? claimant.path() : null;
			int ownersOp = claimsOp + ((queued != null) ? 2 : 1);
			try {
				int version = take(workerId, read, staleLeaseNode, record, stored, history.apply(stored.list()),
						queued, owned ? null : new OwnerChange(previousOwner, owner));
				if (queued != null) {
					claimant.dequeued();
				}
				return version;
			}
			catch (Conflict ex) {
				int failed = failedOperation(ex);
				if (attempt < 3 && failed == claimsOp && stored.version() < 0) {
					stored = claims(workerId);
				}
				else if (attempt < 3 && queued != null && failed == claimsOp + 1) {
					claimant.dequeued();
				}
				else if (attempt < 3 && !owned && failed >= ownersOp) {
					logger.debug("uid owner znodes of worker ID {} not as listed under {}; claimed without them",
							workerId, this.ownersPath);
					owned = true;
				}
				else {
					throw ex;
				}
			}
		}
	}

	/**
	 * A worker ID's owner znode replaced by a take.
	 * @param previous the name of the one listed, {@code null} for none
	 * @param next the name of the claimant's
	 */
	private record OwnerChange(String previous, String next) {
	}

	private int take(long workerId, WorkerNode read, boolean staleLeaseNode, WorkerRecord record,
			ClaimList.Stored claims, ClaimList history, String claimant, OwnerChange owner) {
		List<CuratorOp> ops = new ArrayList<>(7);
		String lease = leasePath(workerId);
		String worker = workerPath(workerId);
		byte[] data = record.encode();
		this.calls.call(() -> {
			if (staleLeaseNode) {
				// Lease znodes are never written after their creation, so their version is always 0.
				ops.add(this.client.transactionOp().delete().withVersion(0).forPath(lease));
			}
			ops.add(this.client.transactionOp()
				.create()
				.withMode(CreateMode.EPHEMERAL)
				.forPath(lease, record.token().getBytes(StandardCharsets.UTF_8)));
			ops.add((read != null) ? this.client.transactionOp().setData().withVersion(read.version()).forPath(worker,
					data) : this.client.transactionOp().create().withMode(CreateMode.PERSISTENT).forPath(worker, data));
			ops.add(claims.writeOp(this.client, claimsPath(workerId), history));
			if (claimant != null) {
				ops.add(this.client.transactionOp().delete().forPath(claimant));
			}
			if (owner != null) {
				if (owner.previous() != null) {
					// Owner znodes are never written after their creation, so their version is always 0.
					ops.add(this.client.transactionOp()
						.delete()
						.withVersion(0)
						.forPath(ZKPaths.makePath(this.ownersPath, owner.previous())));
				}
				ops.add(this.client.transactionOp()
					.create()
					.withMode(CreateMode.PERSISTENT)
					.forPath(ZKPaths.makePath(this.ownersPath, owner.next()), NO_DATA));
			}
			return null;
		});
		List<CuratorTransactionResult> results = this.calls.call(() -> this.client.transaction().forOperations(ops));
		return (read != null) ? workerStat(results, worker).getVersion() : 0;
	}

	/**
	 * Returns which operation of a refused transaction the ensemble refused: the first whose result is an error
	 * (those before it report OK, rolled back; those after it, not run).
	 * @return its index, -1 when the refusal does not tell
	 */
	private static int failedOperation(Conflict conflict) {
		if (!(conflict.getCause() instanceof KeeperException refusal) || refusal.getResults() == null) {
			return -1;
		}
		List<OpResult> results = refusal.getResults();
		for (int i = 0; i < results.size(); i++) {
			if (results.get(i) instanceof OpResult.ErrorResult error
					&& error.getErr() != KeeperException.Code.OK.intValue()) {
				return i;
			}
		}
		return -1;
	}

	/**
	 * Reads the claim token a worker ID's lease znode holds.
	 * @param workerId the worker ID
	 * @return the token, {@code null} when there is no lease znode
	 */
	String leaseToken(long workerId) {
		try {
			return new String(this.calls.call(() -> this.client.getData().forPath(leasePath(workerId))),
					StandardCharsets.UTF_8);
		}
		catch (Conflict ex) {
			return null;
		}
	}

	/**
	 * Writes a held worker's record over the version this claim last wrote, while its lease znode exists.
	 * @return the worker znode's new version
	 * @throws Conflict when another instance took the worker ID or the lease znode is gone
	 */
	int renew(long workerId, WorkerRecord record, int version) {
		String worker = workerPath(workerId);
		List<CuratorOp> ops = this.calls.call(() -> List.of(
				this.client.transactionOp().check().withVersion(0).forPath(leasePath(workerId)),
				this.client.transactionOp().setData().withVersion(version).forPath(worker, record.encode())));
		return workerStat(this.calls.call(() -> this.client.transaction().forOperations(ops)), worker).getVersion();
	}

	/**
	 * Writes the released record over the version this claim last wrote, deleting the lease znode with it when it
	 * still exists, and the claims with the release's claim closed, when they changed, over the version read.
	 * @throws Conflict when another instance took the worker ID, or the lease or claims znode is not as expected
	 */
	void release(long workerId, WorkerRecord record, int version, boolean withLeaseNode, ClaimList.Stored claims,
			ClaimList history) {
		String worker = workerPath(workerId);
		List<CuratorOp> ops = this.calls.call(() -> {
			List<CuratorOp> list = new ArrayList<>(3);
			list.add(this.client.transactionOp().setData().withVersion(version).forPath(worker, record.encode()));
			if (withLeaseNode) {
				list.add(this.client.transactionOp().delete().withVersion(0).forPath(leasePath(workerId)));
			}
			if (!history.equals(claims.list())) {
				list.add(claims.writeOp(this.client, claimsPath(workerId), history));
			}
			return list;
		});
		this.calls.call(() -> this.client.transaction().forOperations(ops));
	}

	private static Stat workerStat(List<CuratorTransactionResult> results, String worker) {
		for (CuratorTransactionResult result : results) {
			if (worker.equals(result.getForPath()) && result.getResultStat() != null) {
				return result.getResultStat();
			}
		}
		throw new WorkerAssignmentException("ZooKeeper answered a uid transaction without the stat of " + worker);
	}

	/**
	 * Creates the namespace's six paths where they are missing, once per assigner, where the first claim's listing
	 * found one missing (a namespace whose layout an older version recorded; a new one gets them with its layout, see
	 * {@link LayoutZnode}) or before a snapshot: one read of the namespace's children where it was a create of each,
	 * a write that the ensemble logs even when it refuses it. The missing ones are created in one transaction: the instances that find a namespace new at the same moment (a fleet's
	 * first start) each send one write, one of which creates them all, where each sent six one after the other, all
	 * but the first instance's refused, and those claims were a fleet's slowest.
	 */
	private void createPaths() {
		if (this.pathsCreated) {
			return;
		}
		List<String> missing = missingPaths();
		if (!missing.isEmpty()) {
			try {
				this.calls.call(() -> this.client.transaction()
					.forOperations(missing.stream().map(this::createPathOp).toList()));
			}
			catch (Conflict ex) {
				// Another instance created them meanwhile, or the namespace itself is missing (no layout recorded
				// before the claim): create what is still missing one by one, parents included.
				for (String path : missingPaths()) {
					try {
						this.calls.call(() -> this.client.create().creatingParentsIfNeeded().forPath(path, NO_DATA));
					}
					catch (Conflict created) {
						// Another instance created it first.
					}
				}
			}
		}
		this.pathsCreated = true;
	}

	/** The namespace's six paths that its children, read now, do not hold. */
	private List<String> missingPaths() {
		List<String> existing = childrenOf(this.basePath);
		return paths().stream().filter((path) -> !existing.contains(ZKPaths.getNodeFromPath(path))).toList();
	}

	/**
	 * Returns the namespace's six paths, under which its znodes live.
	 * @return the paths
	 */
	List<String> paths() {
		return List.of(this.workersPath, this.leasesPath, this.clockPath, this.claimsPath, this.claimantsPath,
				this.ownersPath);
	}

	private CuratorOp createPathOp(String path) {
		return this.calls.call(() -> this.client.transactionOp().create().withMode(CreateMode.PERSISTENT).forPath(path,
				NO_DATA));
	}

	/** Returns the worker ID a child znode is named after, -1 for names that are not one. */
	private static long workerIdOf(String name) {
		try {
			long id = Long.parseLong(name);
			return (id >= 0 && Long.toString(id).equals(name)) ? id : -1;
		}
		catch (NumberFormatException ex) {
			return -1;
		}
	}

}
