package io.github.uidgen.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A TCP proxy on a spare loopback port in front of a server on another, the part every fault proxy shares: it
 * accepts clients, serves each in a thread of its own (what passes, and what is cut, is the subclass's), and closes
 * every connection when closed. The server itself is never touched, so its other clients see nothing.
 */
public abstract class LoopbackProxy implements AutoCloseable {

	private final String name;

	private final ServerSocket listener;

	private final int serverPort;

	private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();

	private volatile boolean closed;

	/**
	 * Opens the proxy's port; nothing is accepted until {@link #startAccepting()}.
	 * @param name the prefix of the proxy's thread names
	 * @param serverPort the server's port on 127.0.0.1
	 */
	protected LoopbackProxy(String name, int serverPort) {
		this.name = name;
		this.serverPort = serverPort;
		try {
			this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** Starts accepting clients; called by a subclass's factory once the proxy is fully built. */
	protected final void startAccepting() {
		daemon(this.name + "-accept-" + port(), this::acceptLoop).start();
	}

	/**
	 * Returns the port clients connect to instead of the server's.
	 * @return the proxy's loopback port
	 */
	public int port() {
		return this.listener.getLocalPort();
	}

	/**
	 * Returns the port of the server behind the proxy.
	 * @return the server's loopback port
	 */
	protected final int serverPort() {
		return this.serverPort;
	}

	protected final boolean isClosed() {
		return this.closed;
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
			daemon(this.name + "-" + client.getPort(), () -> serve(client)).start();
		}
	}

	/**
	 * Serves one client, in a thread of its own, until either side closes.
	 * @param client the accepted connection
	 */
	protected abstract void serve(Socket client);

	/**
	 * Connects to the server for a client; when that fails, closes the client.
	 * @param client the client the connection is for
	 * @return the connection, or {@code null} when the server cannot be reached
	 */
	protected final Socket connectServer(Socket client) {
		Socket server = new Socket();
		try {
			server.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), this.serverPort), 5_000);
		}
		catch (IOException ex) {
			closeQuietly(client);
			closeQuietly(server);
			return null;
		}
		this.sockets.add(server);
		return server;
	}

	/**
	 * Runs a task in a daemon thread of the proxy's, named after the client it serves.
	 * @param direction what the thread does, for its name, such as {@code "up"}
	 * @param client the client served
	 * @param task the task
	 */
	protected final void startDaemon(String direction, Socket client, Runnable task) {
		daemon(this.name + "-" + direction + "-" + client.getPort(), task).start();
	}

	/**
	 * Closes a connection, ignoring what closing it throws.
	 * @param socket the client's or the server's connection
	 */
	protected final void closeQuietly(Socket socket) {
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

	/** Called by {@link #close()} before the connections are closed, for threads the subclass holds up. */
	protected void onClose() {
	}

	@Override
	public void close() {
		this.closed = true;
		onClose();
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
		return getClass().getSimpleName() + "[127.0.0.1:" + port() + " -> 127.0.0.1:" + this.serverPort + "]";
	}

}
