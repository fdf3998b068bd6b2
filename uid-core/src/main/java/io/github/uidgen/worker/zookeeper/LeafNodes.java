package io.github.uidgen.worker.zookeeper;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;

import io.github.uidgen.worker.WorkerAssignmentException;
import io.github.uidgen.worker.zookeeper.CuratorCalls.Conflict;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.curator.framework.api.transaction.CuratorTransactionResult;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.data.Stat;

/**
 * The ZooKeeper side of {@link LeafNodeWorkerIdAssigner}: Leaf's tree {@code /snowflake/<leaf.name>/forever} with one
 * persistent sequential node per {@code ip:port}, and uid's ephemeral holder znodes beside it under
 * {@code /snowflake/<leaf.name>/uid-holders/<ip:port>}, the node version each uid release left under
 * {@code uid-released/<ip:port>-<sequence>} and each worker ID's uid claims under {@code uid-claims/<sequence>} (a
 * {@link ClaimList}), none of which Leaf servers look at: they read only the children of {@code forever}. ZooKeeper
 * failures become the assigner's exceptions; a version or existence that is not as expected becomes a
 * {@link Conflict}.
 */
final class LeafNodes {

	private static final Pattern SEQUENCE = Pattern.compile("[0-9]{10}");

	/** A node's data and version as read. */
	record Read(byte[] data, int version) {
	}

	/** A holder znode's data, the session that owns it, and when it was created (by the ensemble's clock). */
	record Holder(byte[] data, long session, long createdMillis) {
	}

	private final CuratorFramework client;

	private final String basePath;

	private final String foreverPath;

	private final String holdersPath;

	private final String releasedPath;

	private final String claimsPath;

	private final CuratorCalls calls;

	LeafNodes(CuratorFramework client, String leafName) {
		this.client = client;
		this.basePath = ZKPaths.makePath("/snowflake", leafName);
		this.calls = new CuratorCalls(client, this.basePath, "holds Leaf's worker nodes",
				"uid operation on Leaf's worker nodes");
		this.foreverPath = ZKPaths.makePath(this.basePath, "forever");
		this.holdersPath = ZKPaths.makePath(this.basePath, "uid-holders");
		this.releasedPath = ZKPaths.makePath(this.basePath, "uid-released");
		this.claimsPath = ZKPaths.makePath(this.basePath, "uid-claims");
	}

	String foreverPath() {
		return this.foreverPath;
	}

	String nodePath(String child) {
		return ZKPaths.makePath(this.foreverPath, child);
	}

	String holderPath(String ipPort) {
		return ZKPaths.makePath(this.holdersPath, ipPort);
	}

	void awaitConnected(Duration timeout) {
		this.calls.awaitConnected(timeout);
	}

	long sessionId() {
		return this.calls.sessionId();
	}

	String connectString() {
		return this.calls.connectString();
	}

	boolean foreverExists() {
		return this.calls.call(() -> this.client.checkExists().forPath(this.foreverPath)) != null;
	}

	/**
	 * Returns the nodes of the forever tree named after an ip:port, as Leaf names them: {@code <ip:port>-<10 digits>}.
	 * @param ipPort the ip:port
	 * @return the node names, one unless the tree was edited by hand
	 */
	List<String> nodesOf(String ipPort) {
		List<String> nodes = new ArrayList<>();
		for (String child : allNodes()) {
			if (ipPortOf(child).equals(ipPort)) {
				nodes.add(child);
			}
		}
		return nodes;
	}

	/**
	 * Returns every node of the forever tree named as Leaf names them; none when there is no tree.
	 * @return the node names
	 */
	List<String> allNodes() {
		List<String> nodes = new ArrayList<>();
		for (String child : children(this.foreverPath)) {
			int dash = child.lastIndexOf('-');
			if (dash > 0 && SEQUENCE.matcher(child.substring(dash + 1)).matches()) {
				nodes.add(child);
			}
		}
		return nodes;
	}

	/** Returns the children of a path, none when it does not exist. */
	List<String> children(String path) {
		try {
			return this.calls.call(() -> this.client.getChildren().forPath(path));
		}
		catch (Conflict ex) {
			return List.of();
		}
	}

	String holdersPath() {
		return this.holdersPath;
	}

	String releasedPath() {
		return this.releasedPath;
	}

	/**
	 * Returns the ip:port a node of {@link #allNodes()} is named after.
	 * @param child the node's name
	 * @return the name up to the sequence
	 */
	static String ipPortOf(String child) {
		return child.substring(0, child.lastIndexOf('-'));
	}

	/**
	 * Returns the worker ID Leaf reads from a node's name: its sequence.
	 * @param child a name from {@link #nodesOf(String)}
	 * @return the worker ID
	 */
	static long workerIdOf(String child) {
		return Long.parseLong(child.substring(child.lastIndexOf('-') + 1));
	}

	/** Reads a node of the forever tree; {@code null} when it is gone. */
	Read read(String child) {
		Stat stat = new Stat();
		try {
			byte[] data = this.calls.call(() -> this.client.getData().storingStatIn(stat).forPath(nodePath(child)));
			return new Read(data, stat.getVersion());
		}
		catch (Conflict ex) {
			return null;
		}
	}

	/**
	 * Creates this host's node as Leaf does: persistent sequential, named {@code <ip:port>-<10 digits>}. Curator
	 * tries a create whose answer was lost again, which can leave a second node: the ip:port's nodes other than the
	 * one answered that hold this very data were made by this call, nobody was told of them, and they are deleted, so
	 * the ip:port keeps one node (Leaf would not know which of two to take, and uid refuses two).
	 * @return the new node's name
	 */
	String create(String ipPort, byte[] data) {
		String child = ZKPaths.getNodeFromPath(this.calls.call(() -> this.client.create()
			.withMode(CreateMode.PERSISTENT_SEQUENTIAL)
			.forPath(ZKPaths.makePath(this.foreverPath, ipPort + "-"), data)));
		for (String other : nodesOf(ipPort)) {
			Read read = other.equals(child) ? null : read(other);
			if (read != null && Arrays.equals(read.data(), data)) {
				try {
					this.calls.call(() -> this.client.delete().withVersion(read.version()).forPath(nodePath(other)));
				}
				catch (Conflict ex) {
					// Written or deleted meanwhile: not this call's to delete.
				}
			}
		}
		return child;
	}

	/** Creates this process's ephemeral holder znode; a {@link Conflict} when another holds the ip:port. */
	void hold(String ipPort, byte[] data) {
		this.calls.call(() -> this.client.create()
			.creatingParentsIfNeeded()
			.withMode(CreateMode.EPHEMERAL)
			.forPath(holderPath(ipPort), data));
	}

	/** Reads a holder znode; {@code null} when there is none. */
	Holder holder(String ipPort) {
		Stat stat = new Stat();
		try {
			byte[] data = this.calls.call(() -> this.client.getData().storingStatIn(stat).forPath(holderPath(ipPort)));
			return new Holder(data, stat.getEphemeralOwner(), stat.getCtime());
		}
		catch (Conflict ex) {
			return null;
		}
	}

	void unhold(String ipPort) {
		try {
			this.calls.call(() -> this.client.delete().forPath(holderPath(ipPort)));
		}
		catch (Conflict ex) {
			// Gone already.
		}
	}

	/**
	 * Returns the version a uid instance left a node at when it released it. Kept per node, not per ip:port: a node
	 * deleted and made again by a Leaf server may reach the same version.
	 * @param child the node's name, {@code <ip:port>-<sequence>}
	 * @return the version, or -1 when no release is recorded
	 */
	int releasedVersion(String child) {
		try {
			byte[] data = this.calls.call(() -> this.client.getData().forPath(ZKPaths.makePath(this.releasedPath, child)));
			return Integer.parseInt(new String(data, StandardCharsets.UTF_8).strip());
		}
		catch (Conflict | NumberFormatException ex) {
			return -1;
		}
	}

	/** Records the version a release left a node at, so the next uid claim knows nobody wrote since. */
	void recordRelease(String child, int version) {
		String path = ZKPaths.makePath(this.releasedPath, child);
		byte[] data = Integer.toString(version).getBytes(StandardCharsets.UTF_8);
		try {
			this.calls.call(() -> this.client.setData().forPath(path, data));
		}
		catch (Conflict ex) {
			this.calls.call(() -> this.client.create().creatingParentsIfNeeded().forPath(path, data));
		}
	}

	/** Writes a node over the version read; returns the new version. */
	int write(String child, byte[] data, int version) {
		return this.calls.call(() -> this.client.setData().withVersion(version).forPath(nodePath(child), data)).getVersion();
	}

	/**
	 * Reads the uid claims of a worker ID.
	 * @param workerId the worker ID, the node's sequence
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

	private String claimsPath(long workerId) {
		return ZKPaths.makePath(this.claimsPath, Long.toString(workerId));
	}

	/**
	 * Completes a takeover in one transaction: while the holder znode exists and the node is still at the version
	 * the claim's report left, writes the claims with the new one over the version read.
	 * @throws Conflict when the holder znode is gone, another process wrote the node, or the claims changed
	 */
	void confirmTakeover(String ipPort, String child, int version, long workerId, ClaimList.Stored claims,
			ClaimList history) {
		createPath(this.claimsPath);
		List<CuratorOp> ops = this.calls.call(() -> List.of(
				this.client.transactionOp().check().withVersion(0).forPath(holderPath(ipPort)),
				this.client.transactionOp().check().withVersion(version).forPath(nodePath(child)),
				claims.writeOp(this.client, claimsPath(workerId), history)));
		this.calls.call(() -> this.client.transaction().forOperations(ops));
	}

	private void createPath(String path) {
		try {
			this.calls.call(() -> this.client.create().creatingParentsIfNeeded().forPath(path, new byte[0]));
		}
		catch (Conflict ex) {
			// There already.
		}
	}

	/** Writes a node over the version last written while the holder znode exists; returns the new version. */
	int renew(String ipPort, String child, byte[] data, int version) {
		return renew(ipPort, child, data, version, ClaimList.Stored.NONE, ClaimList.EMPTY, -1);
	}

	/**
	 * Writes a node over the version last written while the holder znode exists, and with it a worker ID's claims
	 * over the version read when they changed; returns the node's new version.
	 */
	int renew(String ipPort, String child, byte[] data, int version, ClaimList.Stored claims, ClaimList history,
			long workerId) {
		String node = nodePath(child);
		List<CuratorOp> ops = this.calls.call(() -> {
			List<CuratorOp> list = new ArrayList<>(3);
			list.add(this.client.transactionOp().check().withVersion(0).forPath(holderPath(ipPort)));
			list.add(this.client.transactionOp().setData().withVersion(version).forPath(node, data));
			if (!history.equals(claims.list())) {
				list.add(claims.writeOp(this.client, claimsPath(workerId), history));
			}
			return list;
		});
		for (CuratorTransactionResult result : this.calls.call(() -> this.client.transaction().forOperations(ops))) {
			if (node.equals(result.getForPath()) && result.getResultStat() != null) {
				return result.getResultStat().getVersion();
			}
		}
		throw new WorkerAssignmentException("ZooKeeper answered a uid transaction without the stat of " + node);
	}

}
