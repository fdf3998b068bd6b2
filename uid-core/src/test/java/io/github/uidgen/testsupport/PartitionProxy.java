package io.github.uidgen.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A TCP proxy on a spare loopback port in front of one store, for one instance, that can cut that instance off from
 * the store the way a network partition does: while cut, nothing passes either way and nothing is refused either.
 * Bytes sent meanwhile wait in the sockets' buffers (as retransmissions would) and go through once the partition
 * heals; connections opened meanwhile are accepted but reach the store only then. Other clients of the store, which
 * do not go through the proxy, see nothing: the store itself is never touched.
 */
public final class PartitionProxy implements AutoCloseable {

	private static final int BUFFER = 16 * 1024;

	private final ServerSocket listener;

	private final int storePort;

	private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();

	private final Object gate = new Object();

	private volatile boolean partitioned;

	private volatile boolean closed;

	private PartitionProxy(ServerSocket listener, int storePort) {
		this.listener = listener;
		this.storePort = storePort;
	}

	/**
	 * Starts a proxy in front of a store on another loopback port.
	 * @param storePort the store's port on 127.0.0.1
	 * @return the running proxy
	 */
	public static PartitionProxy start(int storePort) {
		ServerSocket listener;
		try {
			listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		PartitionProxy proxy = new PartitionProxy(listener, storePort);
		daemon("partition-proxy-accept-" + listener.getLocalPort(), proxy::acceptLoop).start();
		return proxy;
	}

	/**
	 * Returns the port clients connect to instead of the store's.
	 * @return the proxy's loopback port
	 */
	public int port() {
		return this.listener.getLocalPort();
	}

	/** Cuts the instance off from the store: nothing passes until {@link #heal()}. */
	public void partition() {
		this.partitioned = true;
	}

	/** Lets everything through again, what waited first. */
	public void heal() {
		synchronized (this.gate) {
			this.partitioned = false;
			this.gate.notifyAll();
		}
	}

	private void acceptLoop() {
		while (!this.closed) {
			Socket client;
			try {
				client = this.listener.accept();
			}
			catch (IOException ex) {
				return;
			}
			this.sockets.add(client);
			daemon("partition-proxy-" + client.getPort(), () -> connect(client)).start();
		}
	}

	private void connect(Socket client) {
		awaitHealed();
		Socket store = new Socket();
		try {
			store.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), this.storePort), 5_000);
		}
		catch (IOException ex) {
			closeQuietly(client);
			closeQuietly(store);
			return;
		}
		this.sockets.add(store);
		daemon("partition-proxy-up-" + client.getPort(), () -> pump(client, store)).start();
		pump(store, client);
	}

	/** Copies one direction; while partitioned it holds what it read, and reads nothing more. */
	private void pump(Socket from, Socket to) {
		byte[] buffer = new byte[BUFFER];
		try {
			InputStream in = from.getInputStream();
			OutputStream out = to.getOutputStream();
			for (;;) {
				awaitHealed();
				int read = in.read(buffer);
				if (read < 0) {
					break;
				}
				awaitHealed();
				out.write(buffer, 0, read);
				out.flush();
			}
		}
		catch (IOException ex) {
			// One side closed: close the other as well.
		}
		closeQuietly(from);
		closeQuietly(to);
	}

	private void awaitHealed() {
		synchronized (this.gate) {
			while (this.partitioned && !this.closed) {
				try {
					this.gate.wait(100);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
					return;
				}
			}
		}
	}

	private void closeQuietly(Socket socket) {
		this.sockets.remove(socket);
		try {
			socket.close();
		}
		catch (IOException ex) {
			// Closing anyway.
		}
	}

	private static Thread daemon(String name, Runnable task) {
		Thread thread = new Thread(task, name);
		thread.setDaemon(true);
		return thread;
	}

	@Override
	public void close() {
		this.closed = true;
		heal();
		try {
			this.listener.close();
		}
		catch (IOException ex) {
			// Closing anyway.
		}
		this.sockets.forEach(this::closeQuietly);
	}

	@Override
	public String toString() {
		return "PartitionProxy[127.0.0.1:" + port() + " -> 127.0.0.1:" + this.storePort
				+ (this.partitioned ? ", partitioned" : "") + "]";
	}

}
