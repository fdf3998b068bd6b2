package io.github.uidgen.testsupport;

import java.io.IOException;
import java.net.Socket;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP proxy on a spare loopback port in front of one server, for one client, that takes the server away the way a
 * stopped server is gone, and brings it back at the instant the test chooses: while down, every connection through
 * it is closed and every new one is closed as soon as it is accepted, so the client's connection attempt fails at
 * once. It notes when each connection was attempted, so a test can follow a client's retries. Other clients of the
 * server, which do not go through the proxy, see nothing: the server itself is never touched.
 */
public final class RefusingProxy extends LoopbackProxy {

	private final List<Long> attempts = new CopyOnWriteArrayList<>();

	private final Set<Socket> open = ConcurrentHashMap.newKeySet();

	private volatile boolean down;

	private RefusingProxy(int serverPort) {
		super("refusing-proxy", serverPort);
	}

	/**
	 * Starts a proxy in front of a server on another loopback port.
	 * @param serverPort the server's port on 127.0.0.1
	 * @return the running proxy
	 */
	public static RefusingProxy start(int serverPort) {
		RefusingProxy proxy = new RefusingProxy(serverPort);
		proxy.startAccepting();
		return proxy;
	}

	/** Takes the server away: the connections through the proxy are closed, and new ones refused. */
	public void takeDown() {
		this.down = true;
		this.open.forEach(this::closeQuietly);
	}

	/** Brings the server back: new connections reach it again. */
	public void bringBack() {
		this.down = false;
	}

	/**
	 * Returns when each connection through the proxy was attempted, oldest first.
	 * @return {@link System#nanoTime()} of each accepted connection
	 */
	public List<Long> attempts() {
		return List.copyOf(this.attempts);
	}

	/**
	 * Returns the longest time between two consecutive connection attempts since the given one.
	 * @param from the index in {@link #attempts()} to start from
	 * @return the longest gap in nanoseconds, 0 with fewer than two attempts
	 */
	public long longestGapNanosSince(int from) {
		List<Long> seen = attempts();
		long longest = 0;
		for (int i = Math.max(1, from + 1); i < seen.size(); i++) {
			longest = Math.max(longest, seen.get(i) - seen.get(i - 1));
		}
		return longest;
	}

	@Override
	protected void serve(Socket client) {
		this.attempts.add(System.nanoTime());
		if (this.down) {
			closeQuietly(client);
			return;
		}
		Socket server = connectServer(client);
		if (server == null) {
			return;
		}
		this.open.add(client);
		this.open.add(server);
		if (this.down) {
			// Taken down while this connection was being made.
			closeBoth(client, server);
			return;
		}
		startDaemon("up", client, () -> pump(client, server));
		pump(server, client);
	}

	private void pump(Socket from, Socket to) {
		try {
			from.getInputStream().transferTo(to.getOutputStream());
		}
		catch (IOException ex) {
			// One side closed: close the other as well.
		}
		closeBoth(from, to);
	}

	private void closeBoth(Socket one, Socket other) {
		this.open.remove(one);
		this.open.remove(other);
		closeQuietly(one);
		closeQuietly(other);
	}

	@Override
	public String toString() {
		return super.toString() + (this.down ? ", down" : "") + ", " + this.attempts.size() + " attempts";
	}

}
