package io.github.uidgen.worker.zookeeper;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.github.uidgen.worker.WorkerAssignmentException;
import io.github.uidgen.worker.WorkerStoreUnavailableException;
import io.github.uidgen.worker.zookeeper.WorkerRegistry.Conflict;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.curator.framework.api.transaction.CuratorTransactionResult;
import org.apache.curator.framework.imps.CuratorFrameworkState;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;

/**
 * The ZooKeeper side of {@link LeafNodeWorkerIdAssigner}: Leaf's tree {@code /snowflake/<leaf.name>/forever} with one
 * persistent sequential node per {@code ip:port}, and uid's ephemeral holder znodes beside it under
 * {@code /snowflake/<leaf.name>/uid-holders/<ip:port>} and the node version each uid release left under
 * {@code uid-released/<ip:port>-<sequence>}, which Leaf servers never look at. ZooKeeper failures become the
 * assigner's exceptions; a version or existence that is not as expected becomes a {@link Conflict}.
 */
final class LeafNodes {

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

	LeafNodes(CuratorFramework client, String leafName) {
		this.client = client;
		this.basePath = ZKPaths.makePath("/snowflake", leafName);
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
		if (this.client.getState() == CuratorFrameworkState.LATENT) {
			throw new WorkerAssignmentException("The CuratorFramework of the zookeeper worker-ID assigner was never "
					+ "started; call start() on it before the generator claims a worker ID.");
		}
		boolean connected;
		try {
			connected = this.client.blockUntilConnected((int) Math.max(1, timeout.toMillis()), TimeUnit.MILLISECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new WorkerAssignmentException("Interrupted while connecting to ZooKeeper", ex);
		}
		if (!connected) {
			throw new WorkerStoreUnavailableException("Cannot reach ZooKeeper at " + connectString() + " within "
					+ timeout.toMillis() + " ms, which holds Leaf's worker nodes; check that it runs and that the "
					+ "connect string is right.", null);
		}
	}

	long sessionId() {
		return call(() -> this.client.getZookeeperClient().getZooKeeper().getSessionId());
	}

	String connectString() {
		try {
			return this.client.getZookeeperClient().getCurrentConnectionString();
		}
		catch (RuntimeException ex) {
			return "(unknown connect string)";
		}
	}

	boolean foreverExists() {
		return call(() -> this.client.checkExists().forPath(this.foreverPath)) != null;
	}

	List<String> children() {
		return call(() -> this.client.getChildren().forPath(this.foreverPath));
	}

	/** Reads a node of the forever tree; {@code null} when it is gone. */
	Read read(String child) {
		Stat stat = new Stat();
		try {
			byte[] data = call(() -> this.client.getData().storingStatIn(stat).forPath(nodePath(child)));
			return new Read(data, stat.getVersion());
		}
		catch (Conflict ex) {
			return null;
		}
	}

	/**
	 * Creates this host's node as Leaf does: persistent sequential, named {@code <ip:port>-<10 digits>}.
	 * @return the new node's name
	 */
	String create(String ipPort, byte[] data) {
		String path = call(() -> this.client.create()
			.withMode(CreateMode.PERSISTENT_SEQUENTIAL)
			.forPath(ZKPaths.makePath(this.foreverPath, ipPort + "-"), data));
		return ZKPaths.getNodeFromPath(path);
	}

	/** Creates this process's ephemeral holder znode; a {@link Conflict} when another holds the ip:port. */
	void hold(String ipPort, byte[] data) {
		call(() -> this.client.create()
			.creatingParentsIfNeeded()
			.withMode(CreateMode.EPHEMERAL)
			.forPath(holderPath(ipPort), data));
	}

	/** Reads a holder znode; {@code null} when there is none. */
	Holder holder(String ipPort) {
		Stat stat = new Stat();
		try {
			byte[] data = call(() -> this.client.getData().storingStatIn(stat).forPath(holderPath(ipPort)));
			return new Holder(data, stat.getEphemeralOwner());
		}
		catch (Conflict ex) {
			return null;
		}
	}

	void unhold(String ipPort) {
		try {
			call(() -> this.client.delete().forPath(holderPath(ipPort)));
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
			byte[] data = call(() -> this.client.getData().forPath(ZKPaths.makePath(this.releasedPath, child)));
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
			call(() -> this.client.setData().forPath(path, data));
		}
		catch (Conflict ex) {
			call(() -> this.client.create().creatingParentsIfNeeded().forPath(path, data));
		}
	}

	/** Writes a node over the version read; returns the new version. */
	int write(String child, byte[] data, int version) {
		return call(() -> this.client.setData().withVersion(version).forPath(nodePath(child), data)).getVersion();
	}

	/** Writes a node over the version last written while the holder znode exists; returns the new version. */
	int renew(String ipPort, String child, byte[] data, int version) {
		String node = nodePath(child);
		List<CuratorOp> ops = call(() -> List.of(
				this.client.transactionOp().check().withVersion(0).forPath(holderPath(ipPort)),
				this.client.transactionOp().setData().withVersion(version).forPath(node, data)));
		for (CuratorTransactionResult result : call(() -> this.client.transaction().forOperations(ops))) {
			if (node.equals(result.getForPath()) && result.getResultStat() != null) {
				return result.getResultStat().getVersion();
			}
		}
		throw new WorkerAssignmentException("ZooKeeper answered a uid transaction without the stat of " + node);
	}

	/** Work with the client that may fail. */
	@FunctionalInterface
	interface ZooKeeperCall<T> {

		T call() throws Exception;

	}

	private <T> T call(ZooKeeperCall<T> call) {
		try {
			return call.call();
		}
		catch (KeeperException.BadVersionException | KeeperException.NoNodeException
				| KeeperException.NodeExistsException ex) {
			throw new Conflict(ex);
		}
		catch (KeeperException.ConnectionLossException | KeeperException.OperationTimeoutException
				| KeeperException.SessionExpiredException | KeeperException.SessionMovedException ex) {
			throw new WorkerStoreUnavailableException("Cannot reach ZooKeeper at " + connectString()
					+ ", which holds Leaf's worker nodes (" + ex.getMessage() + "); check that it runs and that the "
					+ "connect string is right.", ex);
		}
		catch (KeeperException ex) {
			throw new WorkerAssignmentException("ZooKeeper refused a uid operation under " + this.basePath + ": "
					+ ex.getMessage(), ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new WorkerAssignmentException("Interrupted while talking to ZooKeeper", ex);
		}
		catch (RuntimeException ex) {
			throw ex;
		}
		catch (Exception ex) {
			throw new WorkerStoreUnavailableException("ZooKeeper at " + connectString() + " failed a uid operation "
					+ "on Leaf's worker nodes: " + ex, ex);
		}
	}

}
