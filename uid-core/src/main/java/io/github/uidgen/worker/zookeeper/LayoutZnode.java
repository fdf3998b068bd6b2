package io.github.uidgen.worker.zookeeper;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import io.github.uidgen.UidLayout;
import io.github.uidgen.worker.RecordedLayout;
import io.github.uidgen.worker.WorkerAssignmentException;
import io.github.uidgen.worker.zookeeper.CuratorCalls.Conflict;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.CreateMode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The layout a namespace's worker IDs are used with, in a persistent znode of its own,
 * {@code <root>/<namespace>/layout}, beside {@code workers} and {@code leases}: it is read first, and created only
 * when missing, with the namespace's paths in a new namespace; a create lets exactly one of two racing first starts
 * write it, and the other reads what won.
 */
final class LayoutZnode {

	private static final Logger logger = LoggerFactory.getLogger(ZookeeperWorkerIdAssigner.class);

	/** A znode deleted between a refused create and the read is created again, a few times at most. */
	private static final int MAX_ATTEMPTS = 5;

	private final CuratorFramework client;

	private final CuratorCalls calls;

	private final String basePath;

	private final String path;

	private final List<String> namespacePaths;

	/**
	 * @param client the client
	 * @param basePath the namespace's znode
	 * @param namespacePaths the namespace's further paths, created with the layout in a new namespace
	 */
	LayoutZnode(CuratorFramework client, String basePath, List<String> namespacePaths) {
		this.client = client;
		this.calls = new CuratorCalls(client, basePath, "hands out uid worker IDs", "uid layout record");
		this.basePath = basePath;
		this.path = ZKPaths.makePath(basePath, "layout");
		this.namespacePaths = List.copyOf(namespacePaths);
	}

	String path() {
		return this.path;
	}

	/**
	 * Records the layout when the namespace has none, else refuses another.
	 * @param layout the generator's layout
	 * @throws io.github.uidgen.worker.LayoutMismatchException when the namespace records another layout
	 */
	void record(UidLayout layout) {
		String own = RecordedLayout.of(layout);
		byte[] data = own.getBytes(StandardCharsets.UTF_8);
		// Read first: every start but a namespace's first finds the layout recorded, and a create refused is still a
		// write the ensemble logs (1,000 of them when a fleet starts at once).
		int creates = 0;
		for (int attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
			try {
				byte[] recorded = this.calls.call(() -> this.client.getData().forPath(this.path));
				RecordedLayout.check(new String(recorded, StandardCharsets.UTF_8), layout,
						"ZooKeeper " + this.calls.connectString() + " " + ZKPaths.getPathAndNode(this.path).getPath(),
						"the znode " + this.path);
				return;
			}
			catch (Conflict missing) {
				// Not recorded yet (or deleted meanwhile): record it.
			}
			try {
				create(creates++, data);
				logger.info("uid layout recorded in ZooKeeper {}: {}", this.path, own);
				return;
			}
			catch (Conflict exists) {
				// Another start recorded it meanwhile: compare with it. Or the namespace's znode, or some of its paths,
				// were there without a layout: the next try creates less.
			}
		}
		throw new WorkerAssignmentException("The uid layout znode " + this.path + " was deleted " + MAX_ATTEMPTS
				+ " times while it was being recorded; is something deleting znodes under it?");
	}

	/**
	 * Creates the layout znode, the first time with the namespace's znode and its paths in one transaction, so that
	 * the instances of a fleet starting at once in a new namespace each send one write for the namespace (all refused
	 * but one) and find every path there at their first claim, which learns so in its listing instead of reading the
	 * namespace's children first; the second time (the namespace's znode was there) with the paths alone; then the
	 * layout alone (some paths were there: an older version's namespace, or one made by hand), the claim making the
	 * rest.
	 * @param tried how many creates this start tried before
	 * @throws Conflict when a znode to be created exists already
	 */
	private void create(int tried, byte[] data) {
		if (this.namespacePaths.isEmpty() || tried >= 2) {
			this.calls.call(() -> this.client.create().creatingParentsIfNeeded().forPath(this.path, data));
			return;
		}
		List<CuratorOp> creates = new ArrayList<>(this.namespacePaths.size() + 2);
		if (tried == 0) {
			createParentIfMissing();
			creates.add(create(this.basePath, new byte[0]));
		}
		creates.add(create(this.path, data));
		this.namespacePaths.forEach((path) -> creates.add(create(path, new byte[0])));
		this.calls.call(() -> this.client.transaction().forOperations(creates));
	}

	/** Makes the znodes above the namespace's where missing: read first, as they are there but on a new server. */
	private void createParentIfMissing() {
		String parent = ZKPaths.getPathAndNode(this.basePath).getPath();
		if ("/".equals(parent) || this.calls.call(() -> this.client.checkExists().forPath(parent)) != null) {
			return;
		}
		try {
			this.calls.call(() -> this.client.create().creatingParentsIfNeeded().forPath(parent));
		}
		catch (Conflict exists) {
			// Another start made it meanwhile.
		}
	}

	private CuratorOp create(String path, byte[] data) {
		return this.calls.call(
				() -> this.client.transactionOp().create().withMode(CreateMode.PERSISTENT).forPath(path, data));
	}

}
