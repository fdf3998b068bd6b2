package io.github.uidgen.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;

/**
 * A TCP proxy on a spare loopback port in front of one store, for one instance, that can cut that instance off from
 * the store the way a network partition does: while cut, nothing passes either way and nothing is refused either.
 * Bytes sent meanwhile wait in the sockets' buffers (as retransmissions would) and go through once the partition
 * heals; connections opened meanwhile are accepted but reach the store only then. Other clients of the store, which
 * do not go through the proxy, see nothing: the store itself is never touched.
 */
public final class PartitionProxy extends LoopbackProxy {

	private static final int BUFFER = 16 * 1024;

	private final Object gate = new Object();

	private volatile boolean partitioned;

	private PartitionProxy(int storePort) {
		super("partition-proxy", storePort);
	}

	/**
	 * Starts a proxy in front of a store on another loopback port.
	 * @param storePort the store's port on 127.0.0.1
	 * @return the running proxy
	 */
	public static PartitionProxy start(int storePort) {
		PartitionProxy proxy = new PartitionProxy(storePort);
		proxy.startAccepting();
		return proxy;
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

	@Override
	protected void serve(Socket client) {
		awaitHealed();
		Socket store = connectServer(client);
		if (store == null) {
			return;
		}
		startDaemon("up", client, () -> pump(client, store));
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
			while (this.partitioned && !isClosed()) {
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

	@Override
	protected void onClose() {
		heal();
	}

	@Override
	public String toString() {
		return super.toString() + (this.partitioned ? ", partitioned" : "");
	}

}
