package io.github.uidgen.worker.zookeeper;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import io.github.uidgen.UidClock;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;

/**
 * A Leaf snowflake server as far as ZooKeeper and its IDs go: {@code SnowflakeZookeeperHolder.init} (find this
 * ip:port's node under {@code /snowflake/<leaf.name>/forever}, or create one, persistent sequential, with
 * {@code creatingParentsIfNeeded}), its report every 3 s (first after 1 s, fixed delay, unversioned
 * {@code setData}), and {@code SnowflakeIDGenImpl.get}: milliseconds since 1288834974657, each new millisecond's
 * sequence starting at a random 0 to 99. {@link #startChecked} also makes {@code init}'s one check of a node it
 * finds, {@code checkInitTimeStamp}: the node's timestamp must not be ahead of the server's clock.
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

	private final UidClock clock;

	private long sequence;

	private long lastTimestamp = -1;

	private LeafSnowflakeServer(CuratorFramework curator, String ip, String port, String node, long workerId,
			boolean report, UidClock clock) {
		this.curator = curator;
		this.clock = clock;
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
		return init(curator, leafName, ip, port, true, UidClock.SYSTEM, false);
	}

	/**
	 * Starts a Leaf server as Leaf's {@code init} does, including its check of a node it finds (without reports): the
	 * node's timestamp must not be ahead of its clock, else Leaf throws {@code CheckLastTimeException} (and would then
	 * issue with the worker ID cached in its local file, which this class does not model).
	 * @param clock the server's clock, which its IDs are issued from too
	 * @return the running server
	 * @throws IllegalStateException where Leaf throws {@code CheckLastTimeException}
	 */
	static LeafSnowflakeServer startChecked(CuratorFramework curator, String leafName, String ip, int port,
			UidClock clock) throws Exception {
		return init(curator, leafName, ip, port, false, clock, true);
	}

	/**
	 * Leaves the node a Leaf server on this ip:port leaves, with a timestamp of one's choosing, as if it had
	 * reported for the last time then and stopped.
	 * @return the worker ID Leaf gave it
	 */
	static long leaveNode(CuratorFramework curator, String leafName, String ip, int port, long timestamp)
			throws Exception {
		LeafSnowflakeServer server = init(curator, leafName, ip, port, false, UidClock.SYSTEM, false);
		curator.setData().forPath(server.node, json(ip, Integer.toString(port), timestamp));
		return server.workerId;
	}

	private static LeafSnowflakeServer init(CuratorFramework curator, String leafName, String ip, int port,
			boolean report, UidClock clock, boolean check) throws Exception {
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
		if (own != null && check) {
			String json = new String(curator.getData().forPath(own), StandardCharsets.UTF_8);
			long timestamp = Long.parseLong(json.replaceAll(".*\"timestamp\":(\\d+).*", "$1"));
			if (timestamp > clock.currentTimeMillis()) {
				throw new IllegalStateException("CheckLastTimeException: init timestamp check error,forever node "
						+ "timestamp gt this node time (" + timestamp + " > " + clock.currentTimeMillis() + ")");
			}
		}
		if (own == null) {
			own = curator.create()
				.creatingParentsIfNeeded()
				.withMode(CreateMode.PERSISTENT_SEQUENTIAL)
				.forPath(forever + "/" + listenAddress + "-", json(ip, Integer.toString(port), System.currentTimeMillis()));
		}
		long workerId = Integer.parseInt(own.substring(own.lastIndexOf('/') + 1).split("-")[1]);
		return new LeafSnowflakeServer(curator, ip, Integer.toString(port), own, workerId, report, clock);
	}

	static byte[] json(String ip, String port, long timestamp) {
		return ("{\"ip\":\"" + ip + "\",\"port\":\"" + port + "\",\"timestamp\":" + timestamp + "}")
			.getBytes(StandardCharsets.UTF_8);
	}

	private void report() {
		try {
			this.curator.setData().forPath(this.node, json(this.ip, this.port, this.clock.currentTimeMillis()));
		}
		catch (Exception ex) {
			// Leaf logs it at info and carries on.
		}
	}

	long workerId() {
		return this.workerId;
	}

	/** The path of the node this server reports on. */
	String node() {
		return this.node;
	}

	/** {@code SnowflakeIDGenImpl.get}, without its clock-step handling (the tests' clock does not step). */
	synchronized long nextId() {
		long timestamp = this.clock.currentTimeMillis();
		if (this.lastTimestamp == timestamp) {
			this.sequence = (this.sequence + 1) & 4095;
			if (this.sequence == 0) {
				this.sequence = this.random.nextInt(100);
				while (timestamp <= this.lastTimestamp) {
					timestamp = this.clock.currentTimeMillis();
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
