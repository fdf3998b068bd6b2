package io.github.uidgen.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryNTimes;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;

/**
 * A ZooKeeper server of a test's own: the real server code (Curator's {@code TestingServer}) in the test JVM, on a
 * spare loopback port, with its data in a temporary directory. It can be stopped and restarted on the same port
 * with its data (sessions survive a short stop, as with a real ensemble), and a client's session can be ended the
 * way the server ends an expired one.
 */
public final class ThrowawayZooKeeper implements AutoCloseable {

	private final TestingServer server;

	private ThrowawayZooKeeper(TestingServer server) {
		this.server = server;
	}

	/**
	 * Starts a server whose tick is 2 s, ZooKeeper's default.
	 * @return the running server
	 */
	public static ThrowawayZooKeeper start() {
		return start(Duration.ofSeconds(2));
	}

	/**
	 * Starts a server with a tick of its own; sessions may be as short as one tick, so fault tests can let one
	 * expire quickly.
	 * @param tick the server's tick time
	 * @return the running server
	 */
	public static ThrowawayZooKeeper start(Duration tick) {
		Map<String, Object> properties = Map.of("clientPortAddress", "127.0.0.1", "maxSessionTimeout", "60000",
				"admin.enableServer", "false");
		InstanceSpec spec = new InstanceSpec(null, ServerProcess.freePort(), -1, -1, true, -1, (int) tick.toMillis(),
				-1, properties, "127.0.0.1");
		try {
			return new ThrowawayZooKeeper(new TestingServer(spec, true));
		}
		catch (Exception ex) {
			throw new IllegalStateException("Cannot start a ZooKeeper server on port " + spec.getPort(), ex);
		}
	}

	/**
	 * Returns the connect string, {@code 127.0.0.1:<port>}.
	 * @return the connect string
	 */
	public String connectString() {
		return this.server.getConnectString();
	}

	/**
	 * Returns the port it listens on (the same across restarts).
	 * @return the port
	 */
	public int port() {
		return this.server.getPort();
	}

	/**
	 * Opens a started client that retries a failed operation a few times; call {@code close()} when done.
	 * @param sessionTimeout the session timeout to ask for
	 * @return the client, connected
	 */
	public CuratorFramework newClient(Duration sessionTimeout) {
		return newClient(connectString(), sessionTimeout);
	}

	/**
	 * Opens a started client, like {@link #newClient(Duration)}, that reaches this server through a proxy.
	 * @param proxy a proxy in front of this server
	 * @param sessionTimeout the session timeout to ask for
	 * @return the client, connected
	 */
	public CuratorFramework newClientThrough(ReplyLosingProxy proxy, Duration sessionTimeout) {
		return newClient(proxy.connectString(), sessionTimeout, 3);
	}

	/**
	 * Opens a started client through a proxy that does not retry a failed operation: a lost answer reaches the
	 * caller at once.
	 * @param proxy a proxy in front of this server
	 * @param sessionTimeout the session timeout to ask for
	 * @return the client, connected
	 */
	public CuratorFramework newClientWithoutRetriesThrough(ReplyLosingProxy proxy, Duration sessionTimeout) {
		return newClient(proxy.connectString(), sessionTimeout, 0);
	}

	/**
	 * Opens a started client, like {@link #newClient(Duration)}, that reaches this server through a proxy that can
	 * cut it off.
	 * @param proxy a proxy in front of this server
	 * @param sessionTimeout the session timeout to ask for
	 * @return the client, connected
	 */
	public CuratorFramework newClientThrough(PartitionProxy proxy, Duration sessionTimeout) {
		return newClient("127.0.0.1:" + proxy.port(), sessionTimeout, 3);
	}

	private CuratorFramework newClient(String connectString, Duration sessionTimeout) {
		return newClient(connectString, sessionTimeout, 3);
	}

	private CuratorFramework newClient(String connectString, Duration sessionTimeout, int retries) {
		CuratorFramework client = CuratorFrameworkFactory.builder()
			.connectString(connectString)
			.sessionTimeoutMs((int) sessionTimeout.toMillis())
			.connectionTimeoutMs(5_000)
			.retryPolicy(new RetryNTimes(retries, 100))
			.build();
		client.start();
		try {
			if (!client.blockUntilConnected(20, TimeUnit.SECONDS)) {
				client.close();
				throw new IllegalStateException("No connection to " + this + " within 20 s");
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			client.close();
			throw new IllegalStateException("Interrupted while connecting to " + this, ex);
		}
		return client;
	}

	/**
	 * Ends a client's session the way the server ends an expired one: another connection takes the session over
	 * and closes it, so the server deletes its ephemeral znodes and the client learns it has expired.
	 * @param client a connected client of this server
	 */
	public void expireSession(CuratorFramework client) {
		try {
			ZooKeeper zooKeeper = client.getZookeeperClient().getZooKeeper();
			CountDownLatch connected = new CountDownLatch(1);
			ZooKeeper intruder = new ZooKeeper(connectString(), 10_000, (event) -> {
				if (event.getState() == Watcher.Event.KeeperState.SyncConnected) {
					connected.countDown();
				}
			}, zooKeeper.getSessionId(), zooKeeper.getSessionPasswd());
			try {
				if (!connected.await(10, TimeUnit.SECONDS)) {
					throw new IllegalStateException("Could not take over session 0x"
							+ Long.toHexString(zooKeeper.getSessionId()));
				}
			}
			finally {
				intruder.close();
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while expiring a session", ex);
		}
		catch (Exception ex) {
			throw new IllegalStateException("Could not expire the session of " + client, ex);
		}
	}

	/** Stops the server; its data stays for {@link #restart()}. */
	public void stop() {
		try {
			this.server.stop();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** Starts a stopped server again on the same port with its data. */
	public void restart() {
		try {
			this.server.restart();
		}
		catch (Exception ex) {
			throw new IllegalStateException("Cannot restart " + this, ex);
		}
	}

	@Override
	public void close() {
		try {
			this.server.close();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	@Override
	public String toString() {
		return "ThrowawayZooKeeper[" + connectString() + "]";
	}

}
