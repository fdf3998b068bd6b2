package io.github.uidgen.worker.zookeeper;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.github.uidgen.InvalidSettingException;
import io.github.uidgen.worker.WorkerAssignmentException;
import io.github.uidgen.worker.WorkerStoreUnavailableException;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.imps.CuratorFrameworkState;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooKeeper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the ZooKeeper work of an assigner on its Curator client and turns ZooKeeper's failures into the assigner's
 * exceptions: a version or existence not as read becomes a {@link Conflict}, a lost connection or session a
 * {@link WorkerStoreUnavailableException}, anything else a {@link WorkerAssignmentException}; each message names the
 * connect string and what the znodes are for.
 */
final class CuratorCalls {

	private static final Logger logger = LoggerFactory.getLogger(CuratorCalls.class);

	/**
	 * How often a renewal writes again over its own earlier write whose answer was lost, before it gives up until the
	 * next renewal; more would mean somebody edits the znode by hand.
	 */
	static final int MAX_OWN_WRITE_ATTEMPTS = 3;

	/** A znode was not as read any more: another process wrote (or removed, or created) it first. */
	static final class Conflict extends RuntimeException {

		private static final long serialVersionUID = 1L;

		Conflict(KeeperException cause) {
			super(cause.getMessage(), cause, false, false);
		}

	}

	/** Work with the client that may fail. */
	@FunctionalInterface
	interface ZooKeeperCall<T> {

		T call() throws Exception;

	}

	private final CuratorFramework client;

	private final String basePath;

	private final String role;

	private final String operation;

	/**
	 * Checks a builder's connection timeout, by the same rule for both ZooKeeper assigners.
	 * @param connectionTimeout how long a claim waits for the client to connect
	 * @return the timeout
	 * @throws InvalidSettingException when it is not positive
	 */
	static Duration requireConnectionTimeout(Duration connectionTimeout) {
		if (connectionTimeout.isNegative() || connectionTimeout.isZero()) {
			throw new InvalidSettingException("connectionTimeout", connectionTimeout,
					"use a positive duration, for example 10s");
		}
		return connectionTimeout;
	}

	/**
	 * Creates the calls of one assigner.
	 * @param client the Curator client
	 * @param basePath the path the assigner's znodes live under, for messages
	 * @param role what the ensemble does for the assigner, for messages: {@code hands out uid worker IDs}
	 * @param operation what a call is, for messages: {@code uid worker-ID operation}
	 */
	CuratorCalls(CuratorFramework client, String basePath, String role, String operation) {
		this.client = client;
		this.basePath = basePath;
		this.role = role;
		this.operation = operation;
	}

	/**
	 * Waits for the client to be connected, so that an unreachable ensemble fails start-up within the timeout.
	 * @param timeout how long to wait
	 */
	void awaitConnected(Duration timeout) {
		if (this.client.getState() == CuratorFrameworkState.LATENT) {
			throw new WorkerAssignmentException("The CuratorFramework of the zookeeper worker-ID assigner was never "
					+ "started; call start() on it before the generator claims a worker ID.");
		}
		boolean connected;
		try {
			connected = this.client.blockUntilConnected((int) Math.max(1, timeout.toMillis()), TimeUnit.MILLISECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new WorkerAssignmentException("Interrupted while connecting to ZooKeeper", ex);
		}
		if (!connected) {
			replaceAHandleCuratorTookForGone(timeout);
			throw new WorkerStoreUnavailableException("Cannot reach ZooKeeper at " + connectString() + " within "
					+ timeout.toMillis() + " ms, which " + this.role + "; check that it runs and that the connect "
					+ "string is right.", null);
		}
	}

	/**
	 * Replaces the client's ZooKeeper handle (a new session) when the handle is connected while Curator has taken the
	 * connection for gone through a whole wait: Curator takes the events of every handle it made, and the last one of a
	 * handle it closed after a session ended, counted after its successor connected, leaves it in that state, with the
	 * {@code LOST} of the ended session standing; nothing in Curator changes it while the handle stays connected (seen
	 * in a fleet run of 1,000 after a ZooKeeper restart: instances whose claims waited for minutes on a connected
	 * handle). The new handle's connection is one Curator sees. Whatever the client held in its old session is lost
	 * with it, as a lease of this instance would be by an ended session, and found so at its next renewal.
	 */
	private void replaceAHandleCuratorTookForGone(Duration waited) {
		try {
			ZooKeeper handle = this.client.getZookeeperClient().getZooKeeper();
			if (handle.getState().isConnected() && !this.client.getZookeeperClient().isConnected()) {
				logger.warn("uid: ZooKeeper's handle to {} is connected (session 0x{}), but Curator has taken it for "
						+ "gone for {} ms; replacing the handle, so that Curator sees a connection of its own",
						connectString(), Long.toHexString(handle.getSessionId()), waited.toMillis());
				this.client.getZookeeperClient().reset();
			}
		}
		catch (Exception ex) {
			logger.debug("uid: Curator's ZooKeeper handle could not be checked: {}", ex.toString());
		}
	}

	/**
	 * Returns the ZooKeeper session the client runs in now; it changes when a session expires.
	 * @return the session ID, 0 while no session is established
	 */
	long sessionId() {
		return call(() -> this.client.getZookeeperClient().getZooKeeper().getSessionId());
	}

	/**
	 * Returns the negotiated timeout of the session the client runs in now.
	 * @return milliseconds, 0 when it cannot be read
	 */
	long sessionTimeoutMillis() {
		try {
			return this.client.getZookeeperClient().getZooKeeper().getSessionTimeout();
		}
		catch (Exception ex) {
			return 0;
		}
	}

	String connectString() {
		try {
			return this.client.getZookeeperClient().getCurrentConnectionString();
		}
		catch (RuntimeException ex) {
			return "(unknown connect string)";
		}
	}

	/**
	 * Runs work with the client.
	 * @param call the work
	 * @return what it returned
	 * @throws Conflict when a version or existence was not as the work expected
	 */
	<T> T call(ZooKeeperCall<T> call) {
		try {
			return call.call();
		}
		catch (KeeperException.BadVersionException | KeeperException.NoNodeException
				| KeeperException.NodeExistsException ex) {
			throw new Conflict(ex);
		}
		catch (KeeperException.ConnectionLossException | KeeperException.OperationTimeoutException
				| KeeperException.SessionExpiredException | KeeperException.SessionMovedException ex) {
			throw new WorkerStoreUnavailableException("Cannot reach ZooKeeper at " + connectString() + ", which "
					+ this.role + " (" + ex.getMessage() + "); check that it runs and that the connect string is "
					+ "right.", ex);
		}
		catch (KeeperException ex) {
			throw new WorkerAssignmentException("ZooKeeper refused a " + this.operation + " under " + this.basePath
					+ ": " + ex.getMessage(), ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new WorkerAssignmentException("Interrupted while talking to ZooKeeper", ex);
		}
		catch (RuntimeException ex) {
			throw ex;
		}
		catch (Exception ex) {
			throw new WorkerStoreUnavailableException("ZooKeeper at " + connectString() + " failed a "
					+ this.operation + ": " + ex, ex);
		}
	}

}
