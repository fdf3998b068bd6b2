package io.github.uidgen.testsupport;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.zookeeper.ZooDefs;

/**
 * A TCP proxy between ZooKeeper clients and a server that can lose the reply to a request the server did apply: it
 * reads ZooKeeper's length-prefixed frames, and when armed for an operation it forwards the next such request, waits
 * for the server's reply to it, drops that reply and closes the connection. The client sees ConnectionLoss for a
 * request the server carried out, as with a network that fails between the two, and connects again through the
 * proxy in the same session.
 */
public final class ReplyLosingProxy extends LoopbackProxy {

	/** ZooKeeper frames are far smaller; a bigger length means the stream is not ZooKeeper's. */
	private static final int MAX_FRAME = 64 * 1024 * 1024;

	private final AtomicInteger toSkip = new AtomicInteger();

	private final AtomicInteger toLose = new AtomicInteger();

	private volatile int lostOpCode = Integer.MIN_VALUE;

	private final List<Integer> lostReplyErrors = new CopyOnWriteArrayList<>();

	private ReplyLosingProxy(int serverPort) {
		super("zk-proxy", serverPort);
	}

	/**
	 * Starts a proxy on a spare loopback port in front of a server on another.
	 * @param serverPort the loopback port of the ZooKeeper server
	 * @return the running proxy
	 */
	public static ReplyLosingProxy start(int serverPort) {
		ReplyLosingProxy proxy = new ReplyLosingProxy(serverPort);
		proxy.startAccepting();
		return proxy;
	}

	/**
	 * Returns the connect string clients use to go through the proxy.
	 * @return {@code 127.0.0.1:<port>}
	 */
	public String connectString() {
		return "127.0.0.1:" + port();
	}

	/**
	 * Arms the proxy: the replies to the next {@code count} requests of one operation are lost, each closing its
	 * connection.
	 * @param opCode the operation, one of {@code org.apache.zookeeper.ZooDefs.OpCode}
	 * @param count how many replies to lose
	 */
	public void loseRepliesTo(int opCode, int count) {
		loseRepliesTo(opCode, 0, count);
	}

	/**
	 * Arms the proxy: the replies to the next {@code count} requests of one operation after the next {@code skip} of
	 * them are lost, each closing its connection.
	 * @param opCode the operation, one of {@code org.apache.zookeeper.ZooDefs.OpCode}
	 * @param skip how many requests of the operation to let through first
	 * @param count how many replies to lose
	 */
	public void loseRepliesTo(int opCode, int skip, int count) {
		this.lostOpCode = opCode;
		this.toSkip.set(skip);
		this.toLose.set(count);
	}

	/**
	 * Returns how many more requests the proxy is armed to lose the replies of. A request doomed on a connection that
	 * another lost reply closed first is counted here, but its reply is never read, so it is missing from
	 * {@link #lostReplyErrors()}: with requests pipelined on one connection, fewer errors than replies armed for.
	 * @return the count
	 */
	public int repliesLeftToLose() {
		return this.toLose.get();
	}

	/**
	 * Returns the error code of each reply lost so far, in order: 0 when the server applied the request.
	 * @return the error codes
	 */
	public List<Integer> lostReplyErrors() {
		return List.copyOf(this.lostReplyErrors);
	}

	/**
	 * Waits, within a bound, until a number of replies has been lost.
	 * @param count how many
	 * @param bound the longest wait
	 */
	public void awaitLostReplies(int count, Duration bound) {
		long deadline = System.nanoTime() + bound.toNanos();
		while (this.lostReplyErrors.size() < count) {
			if (System.nanoTime() - deadline > 0) {
				throw new IllegalStateException("Only " + this.lostReplyErrors.size() + " of " + count
						+ " replies lost within " + bound);
			}
			try {
				Thread.sleep(10);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException("Interrupted while waiting for lost replies", ex);
			}
		}
	}

	@Override
	protected void serve(Socket client) {
		Socket server = connectServer(client);
		if (server == null) {
			return;
		}
		Map<Integer, Integer> doomed = new ConcurrentHashMap<>();
		startDaemon("up", client, () -> pumpRequests(client, server, doomed));
		pumpReplies(server, client, doomed);
	}

	/** Client to server: the first frame is the connect request, then each starts with its xid and operation. */
	private void pumpRequests(Socket client, Socket server, Map<Integer, Integer> doomed) {
		try (DataInputStream in = new DataInputStream(client.getInputStream())) {
			DataOutputStream out = new DataOutputStream(server.getOutputStream());
			boolean connectRequest = true;
			while (true) {
				byte[] frame = readFrame(in);
				if (!connectRequest && frame.length >= 8) {
					ByteBuffer header = ByteBuffer.wrap(frame);
					int xid = header.getInt(0);
					if (header.getInt(4) == this.lostOpCode
							&& this.toSkip.getAndUpdate((left) -> Math.max(0, left - 1)) == 0
							&& this.toLose.getAndUpdate((left) -> Math.max(0, left - 1)) > 0) {
						doomed.put(xid, this.lostOpCode);
					}
				}
				connectRequest = false;
				writeFrame(out, frame);
			}
		}
		catch (IOException ex) {
			// The connection ended.
		}
		finally {
			closeQuietly(client);
			closeQuietly(server);
		}
	}

	/** Server to client: the first frame is the connect response, then each starts with xid, zxid and error. */
	private void pumpReplies(Socket server, Socket client, Map<Integer, Integer> doomed) {
		try (DataInputStream in = new DataInputStream(server.getInputStream())) {
			DataOutputStream out = new DataOutputStream(client.getOutputStream());
			boolean connectResponse = true;
			while (true) {
				byte[] frame = readFrame(in);
				if (!connectResponse && frame.length >= 16) {
					ByteBuffer header = ByteBuffer.wrap(frame);
					Integer opCode = doomed.remove(header.getInt(0));
					if (opCode != null) {
						this.lostReplyErrors.add(replyError(opCode, header));
						return;
					}
				}
				connectResponse = false;
				writeFrame(out, frame);
			}
		}
		catch (IOException ex) {
			// The connection ended.
		}
		finally {
			closeQuietly(client);
			closeQuietly(server);
		}
	}

	/**
	 * Returns the error of a reply: the reply header's, or for a multi (whose header says OK even when it failed)
	 * the first error among its results, which are all errors when the server applied none of its operations.
	 */
	private static int replyError(int opCode, ByteBuffer reply) {
		int error = reply.getInt(12);
		if (error != 0 || opCode != ZooDefs.OpCode.multi) {
			return error;
		}
		// Each result: a header (type, done, error), and for an error result an int with the error again.
		int at = 16;
		while (at + 9 <= reply.limit() && reply.getInt(at) == ZooDefs.OpCode.error && reply.get(at + 4) == 0) {
			int resultError = reply.getInt(at + 5);
			if (resultError != 0) {
				return resultError;
			}
			at += 13;
		}
		return 0;
	}

	private static byte[] readFrame(DataInputStream in) throws IOException {
		int length = in.readInt();
		if (length < 0 || length > MAX_FRAME) {
			throw new EOFException("not a ZooKeeper frame: length " + length);
		}
		byte[] frame = new byte[length];
		in.readFully(frame);
		return frame;
	}

	private static void writeFrame(DataOutputStream out, byte[] frame) throws IOException {
		out.writeInt(frame.length);
		out.write(frame);
		out.flush();
	}

	@Override
	public String toString() {
		return "ReplyLosingProxy[" + connectString() + " -> 127.0.0.1:" + serverPort() + "]";
	}

}
