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
import org.apache.zookeeper.KeeperException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The layout a namespace's worker IDs are used with, in a persistent znode of its own,
 * {@code <root>/<namespace>/layout}, beside {@code workers} and {@code leases}: it is read first, and created only
 * when missing; a create lets exactly one of two racing first starts write it, and the other reads what won.
 */
final class LayoutZnode {

	private static final Logger logger = LoggerFactory.getLogger(ZookeeperWorkerIdAssigner.class);

	/** A znode deleted between a refused create and the read is created again, a few times at most. */
	private static final int MAX_ATTEMPTS = 3;

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
		boolean withPaths = !this.namespacePaths.isEmpty();
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
				if (withPaths) {
					createWithPaths(data);
				}
				else {
					this.calls.call(() -> this.client.create().creatingParentsIfNeeded().forPath(this.path, data));
				}
				logger.info("uid layout recorded in ZooKeeper {}: {}", this.path, own);
				return;
			}
			catch (Conflict exists) {
				// Another start recorded it meanwhile: compare with it. Or the namespace holds some of its paths and no
				// layout (an older version's, or made by hand): the layout alone, the claim makes the rest.
				withPaths = false;
			}
		}
		throw new WorkerAssignmentException("The uid layout znode " + this.path + " was deleted " + MAX_ATTEMPTS
				+ " times while it was being recorded; is something deleting znodes under it?");
	}

	/**
	 * Creates the layout znode and the namespace's paths in one transaction, the namespace's znode first where it is
	 * missing: the instances of a fleet that start at once in a new namespace then find every path there at their
	 * first claim, which learns so in its listing instead of reading the namespace's children first.
	 * @throws Conflict when the layout or one of the paths exists already
	 */
	private void createWithPaths(byte[] data) {
		List<CuratorOp> creates = new ArrayList<>(this.namespacePaths.size() + 1);
		creates.add(create(this.path, data));
		this.namespacePaths.forEach((path) -> creates.add(create(path, new byte[0])));
		try {
			this.calls.call(() -> this.client.transaction().forOperations(creates));
			return;
		}
		catch (Conflict ex) {
			if (!(ex.getCause() instanceof KeeperException.NoNodeException)) {
				throw ex;
			}
		}
		try {
			this.calls.call(() -> this.client.create().creatingParentsIfNeeded().forPath(this.basePath));
		}
		catch (Conflict exists) {
			// Another start made it meanwhile.
		}
		this.calls.call(() -> this.client.transaction().forOperations(creates));
	}

	private CuratorOp create(String path, byte[] data) {
		return this.calls.call(
				() -> this.client.transactionOp().create().withMode(CreateMode.PERSISTENT).forPath(path, data));
	}

}
