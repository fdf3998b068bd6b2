package io.github.uidgen.worker.zookeeper;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;

/**
 * A Leaf snowflake server as far as ZooKeeper and its IDs go: {@code SnowflakeZookeeperHolder.init} (find this
 * ip:port's node under {@code /snowflake/<leaf.name>/forever}, or create one, persistent sequential, with
 * {@code creatingParentsIfNeeded}), its report every 3 s (first after 1 s, fixed delay, unversioned
 * {@code setData}), and {@code SnowflakeIDGenImpl.get}: milliseconds since 1288834974657, each new millisecond's
 * sequence starting at a random 0 to 99.
 */
final class LeafSnowflakeServer implements AutoCloseable {

	static final long TWEPOCH = 1288834974657L;

	private final CuratorFramework curator;

	private final String ip;

	private final String port;

	private final String node;

	private final long workerId;

	private final ScheduledExecutorService reporter;

	private final Random random = new Random();

	private long sequence;

	private long lastTimestamp = -1;

	private LeafSnowflakeServer(CuratorFramework curator, String ip, String port, String node, long workerId,
			boolean report) {
		this.curator = curator;
		this.ip = ip;
		this.port = port;
		this.node = node;
		this.workerId = workerId;
		this.reporter = report ? Executors.newSingleThreadScheduledExecutor((task) -> {
			Thread thread = new Thread(task, "leaf-schedule-upload-time-" + ip + ":" + port);
			thread.setDaemon(true);
			return thread;
		}) : null;
		if (report) {
			this.reporter.scheduleWithFixedDelay(this::report, 1, 3, TimeUnit.SECONDS);
		}
	}

	/**
	 * Starts a Leaf server's holder as Leaf's {@code init} does, reporting every 3 s.
	 * @return the running server
	 */
	static LeafSnowflakeServer start(CuratorFramework curator, String leafName, String ip, int port) throws Exception {
		return init(curator, leafName, ip, port, true);
	}

	/**
	 * Leaves the node a Leaf server on this ip:port leaves, with a timestamp of one's choosing, as if it had
	 * reported for the last time then and stopped.
	 * @return the worker ID Leaf gave it
	 */
	static long leaveNode(CuratorFramework curator, String leafName, String ip, int port, long timestamp)
			throws Exception {
		LeafSnowflakeServer server = init(curator, leafName, ip, port, false);
		curator.setData().forPath(server.node, json(ip, Integer.toString(port), timestamp));
		return server.workerId;
	}

	private static LeafSnowflakeServer init(CuratorFramework curator, String leafName, String ip, int port,
			boolean report) throws Exception {
		String forever = "/snowflake/" + leafName + "/forever";
		String listenAddress = ip + ":" + port;
		String own = null;
		if (curator.checkExists().forPath(forever) != null) {
			List<String> keys = curator.getChildren().forPath(forever);
			for (String key : keys) {
				if (key.split("-")[0].equals(listenAddress)) {
					own = forever + "/" + key;
				}
			}
		}
		if (own == null) {
			own = curator.create()
				.creatingParentsIfNeeded()
				.withMode(CreateMode.PERSISTENT_SEQUENTIAL)
				.forPath(forever + "/" + listenAddress + "-", json(ip, Integer.toString(port), System.currentTimeMillis()));
		}
		long workerId = Integer.parseInt(own.substring(own.lastIndexOf('/') + 1).split("-")[1]);
		return new LeafSnowflakeServer(curator, ip, Integer.toString(port), own, workerId, report);
	}

	static byte[] json(String ip, String port, long timestamp) {
		return ("{\"ip\":\"" + ip + "\",\"port\":\"" + port + "\",\"timestamp\":" + timestamp + "}")
			.getBytes(StandardCharsets.UTF_8);
	}

	private void report() {
		try {
			this.curator.setData().forPath(this.node, json(this.ip, this.port, System.currentTimeMillis()));
		}
		catch (Exception ex) {
			// Leaf logs it at info and carries on.
		}
	}

	long workerId() {
		return this.workerId;
	}

	/** {@code SnowflakeIDGenImpl.get}, without its clock-step handling (the tests' clock does not step). */
	synchronized long nextId() {
		long timestamp = System.currentTimeMillis();
		if (this.lastTimestamp == timestamp) {
			this.sequence = (this.sequence + 1) & 4095;
			if (this.sequence == 0) {
				this.sequence = this.random.nextInt(100);
				while (timestamp <= this.lastTimestamp) {
					timestamp = System.currentTimeMillis();
				}
			}
		}
		else {
			this.sequence = this.random.nextInt(100);
		}
		this.lastTimestamp = timestamp;
		return ((timestamp - TWEPOCH) << 22) | (this.workerId << 12) | this.sequence;
	}

	/** Leaf's {@code decodeSnowflakeId}: the worker ID of an ID. */
	static long leafWorkerIdOf(long id) {
		return (id >> 12) ^ (id >> 22 << 10);
	}

	/** Leaf's {@code decodeSnowflakeId}: the time of an ID. */
	static long leafTimestampOf(long id) {
		return (id >> 22) + TWEPOCH;
	}

	@Override
	public void close() {
		if (this.reporter != null) {
			this.reporter.shutdownNow();
			try {
				this.reporter.awaitTermination(5, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
	}

}
