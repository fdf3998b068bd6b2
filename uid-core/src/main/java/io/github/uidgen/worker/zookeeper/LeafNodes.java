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
 * {@code /snowflake/<leaf.name>/uid-holders/<ip:port>} and the node version each uid release left under
 * {@code uid-released/<ip:port>-<sequence>}, which Leaf servers never look at. ZooKeeper failures become the
 * assigner's exceptions; a version or existence that is not as expected becomes a {@link Conflict}.
 */
final class LeafNodes {

	private static final Pattern SEQUENCE = Pattern.compile("[0-9]{10}");

	/** A node's data and version as read. */
	record Read(byte[] data, int version) {
	}

	/** A holder znode's data and the session that owns it. */
	record Holder(byte[] data, long session) {
	}

	private final CuratorFramework client;

	private final String basePath;

	private final String foreverPath;

	private final String holdersPath;

	private final String releasedPath;

	private final CuratorCalls calls;

	LeafNodes(CuratorFramework client, String leafName) {
		this.client = client;
		this.basePath = ZKPaths.makePath("/snowflake", leafName);
		this.calls = new CuratorCalls(client, this.basePath, "holds Leaf's worker nodes",
				"uid operation on Leaf's worker nodes");
		this.foreverPath = ZKPaths.makePath(this.basePath, "forever");
		this.holdersPath = ZKPaths.makePath(this.basePath, "uid-holders");
		this.releasedPath = ZKPaths.makePath(this.basePath, "uid-released");
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
		for (String child : this.calls.call(() -> this.client.getChildren().forPath(this.foreverPath))) {
			int dash = child.lastIndexOf('-');
			if (dash > 0 && child.substring(0, dash).equals(ipPort)
					&& SEQUENCE.matcher(child.substring(dash + 1)).matches()) {
				nodes.add(child);
			}
		}
		return nodes;
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
			return new Holder(data, stat.getEphemeralOwner());
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

	/** Writes a node over the version last written while the holder znode exists; returns the new version. */
	int renew(String ipPort, String child, byte[] data, int version) {
		String node = nodePath(child);
		List<CuratorOp> ops = this.calls.call(() -> List.of(
				this.client.transactionOp().check().withVersion(0).forPath(holderPath(ipPort)),
				this.client.transactionOp().setData().withVersion(version).forPath(node, data)));
		for (CuratorTransactionResult result : this.calls.call(() -> this.client.transaction().forOperations(ops))) {
			if (node.equals(result.getForPath()) && result.getResultStat() != null) {
				return result.getResultStat().getVersion();
			}
		}
		throw new WorkerAssignmentException("ZooKeeper answered a uid transaction without the stat of " + node);
	}

}
