package io.github.uidgen.testsupport;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;

import com.zaxxer.hikari.HikariDataSource;

/**
 * A TCP proxy between MySQL-protocol clients (Connector/J, without TLS or compression) and a MariaDB that cuts a
 * connection in the middle of a transaction, the way a network that fails between the two does: armed for a
 * statement, it either drops the next such statement before the server sees it, or forwards it, waits for the
 * server's answer, drops that answer and closes the connection. A {@code COMMIT} whose answer is lost was carried
 * out by the server, while the client only sees its connection fail. Other clients of the server, which do not go
 * through the proxy, see nothing: the server itself is never touched.
 */
public final class StatementCuttingProxy extends LoopbackProxy {

	/** {@code COM_QUERY}: a statement as text, which is how Connector/J sends them unless told otherwise. */
	private static final int COM_QUERY = 0x03;

	private final AtomicReference<Fault> armed = new AtomicReference<>();

	private final List<String> cuts = new CopyOnWriteArrayList<>();

	private StatementCuttingProxy(int serverPort) {
		super("sql-proxy", serverPort);
	}

	/**
	 * Starts a proxy on a spare loopback port in front of a server on another.
	 * @param serverPort the loopback port of the MariaDB server
	 * @return the running proxy
	 */
	public static StatementCuttingProxy start(int serverPort) {
		StatementCuttingProxy proxy = new StatementCuttingProxy(serverPort);
		proxy.startAccepting();
		return proxy;
	}

	/**
	 * Opens a small pool whose connections go through the proxy, without TLS so that it can read the statements;
	 * close it when done.
	 * @param name the pool's name, for its threads and logs
	 * @return the pool
	 */
	public HikariDataSource pool(String name) {
		HikariDataSource dataSource = new HikariDataSource();
		dataSource.setJdbcUrl("jdbc:mysql://127.0.0.1:" + port()
				+ "/test?connectTimeout=5000&socketTimeout=10000&sslMode=DISABLED");
		dataSource.setUsername("root");
		dataSource.setPassword("");
		dataSource.setMaximumPoolSize(4);
		dataSource.setMinimumIdle(0);
		dataSource.setConnectionTimeout(5_000);
		dataSource.setPoolName(name);
		return dataSource;
	}

	/**
	 * Arms the proxy: the next statement starting with {@code prefix} (case-insensitive) never reaches the server,
	 * and its connection is closed.
	 * @param prefix how the statement starts, such as {@code "commit"}
	 */
	public void loseRequest(String prefix) {
		this.armed.set(new Fault(prefix.toLowerCase(Locale.ROOT), false));
	}

	/**
	 * Arms the proxy: the next statement starting with {@code prefix} (case-insensitive) reaches the server, and its
	 * answer is dropped and the connection closed.
	 * @param prefix how the statement starts, such as {@code "commit"}
	 */
	public void loseReply(String prefix) {
		this.armed.set(new Fault(prefix.toLowerCase(Locale.ROOT), true));
	}

	/**
	 * Returns each cut so far, in order: {@code "request <statement>"} for a statement the server never saw, or
	 * {@code "reply OK|ERR <statement>"} for one whose answer (a success or an error) was lost.
	 * @return the cuts
	 */
	public List<String> cuts() {
		return List.copyOf(this.cuts);
	}

	/**
	 * Waits, within a bound, until a number of connections has been cut.
	 * @param count how many
	 * @param bound the longest wait
	 */
	public void awaitCuts(int count, Duration bound) {
		long deadline = System.nanoTime() + bound.toNanos();
		while (this.cuts.size() < count) {
			if (System.nanoTime() - deadline > 0) {
				throw new IllegalStateException("Only " + this.cuts.size() + " of " + count + " cuts within " + bound
						+ " (armed: " + this.armed.get() + ")");
			}
			try {
				Thread.sleep(5);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException("Interrupted while waiting for cuts", ex);
			}
		}
	}

	@Override
	protected void serve(Socket client) {
		Socket server = connectServer(client);
		if (server == null) {
			return;
		}
		AtomicReference<String> awaitingReply = new AtomicReference<>();
		startDaemon("up", client, () -> pumpRequests(client, server, awaitingReply));
		pumpReplies(server, client, awaitingReply);
	}

	/** Client to server, packet by packet: a command is a packet with sequence number 0. */
	private void pumpRequests(Socket client, Socket server, AtomicReference<String> awaitingReply) {
		try {
			DataInputStream in = new DataInputStream(client.getInputStream());
			OutputStream out = server.getOutputStream();
			for (;;) {
				byte[] packet = readPacket(in);
				Fault fault = this.armed.get();
				String statement = (fault != null) ? statement(packet) : null;
				if (statement != null && statement.toLowerCase(Locale.ROOT).startsWith(fault.prefix)
						&& this.armed.compareAndSet(fault, null)) {
					if (!fault.loseReply) {
						this.cuts.add("request " + statement);
						break;
					}
					// Set before the statement is sent, so its answer cannot come back first.
					awaitingReply.set(statement);
				}
				out.write(packet);
				out.flush();
			}
		}
		catch (IOException ex) {
			// The connection ended.
		}
		closeQuietly(client);
		closeQuietly(server);
	}

	/** Server to client, packet by packet; the first packet after a doomed statement went out is its answer. */
	private void pumpReplies(Socket server, Socket client, AtomicReference<String> awaitingReply) {
		try {
			DataInputStream in = new DataInputStream(server.getInputStream());
			OutputStream out = client.getOutputStream();
			for (;;) {
				byte[] packet = readPacket(in);
				String doomed = awaitingReply.getAndSet(null);
				if (doomed != null) {
					boolean error = packet.length > 4 && (packet[4] & 0xFF) == 0xFF;
					this.cuts.add("reply " + (error ? "ERR " : "OK ") + doomed);
					break;
				}
				out.write(packet);
				out.flush();
			}
		}
		catch (IOException ex) {
			// The connection ended.
		}
		closeQuietly(client);
		closeQuietly(server);
	}

	/** Returns the text of a {@code COM_QUERY} packet, or {@code null} for any other. */
	private static String statement(byte[] packet) {
		if (packet.length < 5 || packet[3] != 0 || (packet[4] & 0xFF) != COM_QUERY) {
			return null;
		}
		int start = 5;
		// Query attributes, when the server takes them, come first as a few small binary numbers.
		while (start < packet.length && (packet[start] & 0xFF) < 0x20) {
			start++;
		}
		return new String(packet, start, packet.length - start, StandardCharsets.UTF_8).strip();
	}

	/** Reads one packet, header included: a 3-byte little-endian length and a sequence number. */
	private static byte[] readPacket(DataInputStream in) throws IOException {
		byte[] header = new byte[4];
		in.readFully(header);
		int length = (header[0] & 0xFF) | ((header[1] & 0xFF) << 8) | ((header[2] & 0xFF) << 16);
		byte[] packet = new byte[4 + length];
		System.arraycopy(header, 0, packet, 0, 4);
		in.readFully(packet, 4, length);
		return packet;
	}

	private record Fault(String prefix, boolean loseReply) {
	}

}
