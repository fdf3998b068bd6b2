package io.github.uidgen.benchmarks;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.StreamSupport;

import org.apache.curator.utils.ZookeeperFactory;
import org.apache.zookeeper.AsyncCallback;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.OpResult;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Stat;

/**
 * A ZooKeeper client handle that counts the requests Curator sends through it, for the fleet simulation: reads and
 * writes, the writes the ensemble refused (a version or existence not as expected: a lost race), and the time the
 * calling thread waited on synchronous ones. Curator's own tracer leaves out the calls that fail, which are the ones
 * a claim that lost a race makes. Only the overloads the others delegate to are counted (those taking a watch flag
 * call the ones taking a watcher).
 */
final class CountingZooKeeper extends ZooKeeper {

	/** What one client sent; the counts only grow. */
	static final class Counts {

		private final AtomicLong reads = new AtomicLong();

		private final AtomicLong writes = new AtomicLong();

		private final AtomicLong refusedWrites = new AtomicLong();

		private final AtomicLong waitNanos = new AtomicLong();

		private volatile long connectedNanos;

		private volatile long lastConnectedNanos;

		/** The handle Curator made last (it makes a new one after a session ended), and how many it made. */
		private volatile ZooKeeper handle;

		private final AtomicLong handles = new AtomicLong();

		/** Curator's connection state, as its listener was last told. */
		private volatile String state = "none yet";

		/** Notes that the client's session was established or re-established ({@link System#nanoTime()}). */
		void connected() {
			long now = System.nanoTime();
			if (this.connectedNanos == 0) {
				this.connectedNanos = now;
			}
			this.lastConnectedNanos = now;
		}

		/** When the client first had its session, 0 while it never had one. */
		long connectedNanos() {
			return this.connectedNanos;
		}

		/** When the client last connected, after a lost connection or at first. */
		long lastConnectedNanos() {
			return this.lastConnectedNanos;
		}

		void handleMade(ZooKeeper made) {
			this.handle = made;
			this.handles.incrementAndGet();
		}

		void state(String curatorState) {
			this.state = curatorState;
		}

		/**
		 * Says where the client's connection stands, for an instance that does not serve again after the store's
		 * return: Curator's last state, its handles, the last one's state and session.
		 */
		String describeConnection() {
			ZooKeeper last = this.handle;
			String handleState = (last != null)
					? last.getState() + ", session 0x" + Long.toHexString(last.getSessionId()) : "none";
			long since = this.lastConnectedNanos;
			return "Curator's last state " + this.state + "; " + this.handles.get()
					+ " ZooKeeper handles made, the last " + handleState + "; last connected "
					+ ((since > 0) ? (System.nanoTime() - since) / 1_000_000_000 + " s ago" : "never");
		}

		Snapshot snapshot() {
			return new Snapshot(this.reads.get(), this.writes.get(), this.refusedWrites.get(), this.waitNanos.get());
		}

	}

	/**
	 * The counts at one moment; {@link #minus} gives what was sent in between.
	 * @param reads getData, getChildren, exists and multi-read requests
	 * @param writes create, setData, delete and multi requests (a multi is one; a multi-read counts as a read)
	 * @param refusedWrites writes the ensemble refused
	 * @param waitNanos time spent waiting on synchronous requests
	 */
	record Snapshot(long reads, long writes, long refusedWrites, long waitNanos) {

		static final Snapshot NONE = new Snapshot(0, 0, 0, 0);

		Snapshot minus(Snapshot earlier) {
			return new Snapshot(this.reads - earlier.reads, this.writes - earlier.writes,
					this.refusedWrites - earlier.refusedWrites, this.waitNanos - earlier.waitNanos);
		}

	}

	private final Counts counts;

	private CountingZooKeeper(String connectString, int sessionTimeout, Watcher watcher, boolean canBeReadOnly,
			ZKClientConfig config, Counts counts) throws IOException {
		super(connectString, sessionTimeout, watcher, canBeReadOnly, config);
		this.counts = counts;
	}

	/**
	 * A factory for Curator that makes counting handles, all counting into one {@link Counts}.
	 * @param counts where to count
	 * @return the factory
	 */
	static ZookeeperFactory factory(Counts counts) {
		return new ZookeeperFactory() {

			@Override
			public ZooKeeper newZooKeeper(String connectString, int sessionTimeout, Watcher watcher,
					boolean canBeReadOnly) throws Exception {
				return newZooKeeper(connectString, sessionTimeout, watcher, canBeReadOnly, new ZKClientConfig());
			}

			@Override
			public ZooKeeper newZooKeeper(String connectString, int sessionTimeout, Watcher watcher,
					boolean canBeReadOnly, ZKClientConfig config) throws Exception {
				CountingZooKeeper made = new CountingZooKeeper(connectString, sessionTimeout, watcher, canBeReadOnly,
						config, counts);
				counts.handleMade(made);
				return made;
			}

		};
	}

	@FunctionalInterface
	private interface Call<T> {

		T call() throws KeeperException, InterruptedException;

	}

	private <T> T read(Call<T> call) throws KeeperException, InterruptedException {
		this.counts.reads.incrementAndGet();
		long start = System.nanoTime();
		try {
			return call.call();
		}
		finally {
			this.counts.waitNanos.addAndGet(System.nanoTime() - start);
		}
	}

	private <T> T write(Call<T> call) throws KeeperException, InterruptedException {
		this.counts.writes.incrementAndGet();
		long start = System.nanoTime();
		try {
			return call.call();
		}
		catch (KeeperException ex) {
			this.counts.refusedWrites.incrementAndGet();
			throw ex;
		}
		finally {
			this.counts.waitNanos.addAndGet(System.nanoTime() - start);
		}
	}

	/** Counts an asynchronous write's refusal from its answer's code. */
	private void answered(int rc) {
		if (rc != KeeperException.Code.OK.intValue()) {
			this.counts.refusedWrites.incrementAndGet();
		}
	}

	@Override
	public String create(String path, byte[] data, List<ACL> acl, CreateMode mode, Stat stat, long ttl)
			throws KeeperException, InterruptedException {
		return write(() -> super.create(path, data, acl, mode, stat, ttl));
	}

	@Override
	public void create(String path, byte[] data, List<ACL> acl, CreateMode mode, AsyncCallback.Create2Callback cb,
			Object ctx, long ttl) {
		this.counts.writes.incrementAndGet();
		super.create(path, data, acl, mode, (rc, p, c, name, stat) -> {
			answered(rc);
			cb.processResult(rc, p, c, name, stat);
		}, ctx, ttl);
	}

	@Override
	public void delete(String path, int version) throws InterruptedException, KeeperException {
		write(() -> {
			super.delete(path, version);
			return null;
		});
	}

	@Override
	public void delete(String path, int version, AsyncCallback.VoidCallback cb, Object ctx) {
		this.counts.writes.incrementAndGet();
		super.delete(path, version, (rc, p, c) -> {
			answered(rc);
			cb.processResult(rc, p, c);
		}, ctx);
	}

	@Override
	public Stat setData(String path, byte[] data, int version) throws KeeperException, InterruptedException {
		return write(() -> super.setData(path, data, version));
	}

	@Override
	public void setData(String path, byte[] data, int version, AsyncCallback.StatCallback cb, Object ctx) {
		this.counts.writes.incrementAndGet();
		super.setData(path, data, version, (rc, p, c, stat) -> {
			answered(rc);
			cb.processResult(rc, p, c, stat);
		}, ctx);
	}

	@Override
	public List<OpResult> multi(Iterable<Op> ops) throws InterruptedException, KeeperException {
		// A multi of reads alone is a multi-read (a claim's listings): one read, never refused as a write is.
		boolean reads = ops.iterator().hasNext() && StreamSupport.stream(ops.spliterator(), false)
			.allMatch((op) -> op.getKind() == Op.OpKind.READ);
		return reads ? read(() -> super.multi(ops)) : write(() -> super.multi(ops));
	}

	@Override
	public void multi(Iterable<Op> ops, AsyncCallback.MultiCallback cb, Object ctx) {
		this.counts.writes.incrementAndGet();
		super.multi(ops, (rc, p, c, results) -> {
			answered(rc);
			cb.processResult(rc, p, c, results);
		}, ctx);
	}

	@Override
	public Stat exists(String path, Watcher watcher) throws KeeperException, InterruptedException {
		return read(() -> super.exists(path, watcher));
	}

	@Override
	public void exists(String path, Watcher watcher, AsyncCallback.StatCallback cb, Object ctx) {
		this.counts.reads.incrementAndGet();
		super.exists(path, watcher, cb, ctx);
	}

	@Override
	public byte[] getData(String path, Watcher watcher, Stat stat) throws KeeperException, InterruptedException {
		return read(() -> super.getData(path, watcher, stat));
	}

	@Override
	public void getData(String path, Watcher watcher, AsyncCallback.DataCallback cb, Object ctx) {
		this.counts.reads.incrementAndGet();
		super.getData(path, watcher, cb, ctx);
	}

	@Override
	public List<String> getChildren(String path, Watcher watcher) throws KeeperException, InterruptedException {
		return read(() -> super.getChildren(path, watcher));
	}

	@Override
	public List<String> getChildren(String path, Watcher watcher, Stat stat)
			throws KeeperException, InterruptedException {
		return read(() -> super.getChildren(path, watcher, stat));
	}

	@Override
	public void getChildren(String path, Watcher watcher, AsyncCallback.Children2Callback cb, Object ctx) {
		this.counts.reads.incrementAndGet();
		super.getChildren(path, watcher, cb, ctx);
	}

}
