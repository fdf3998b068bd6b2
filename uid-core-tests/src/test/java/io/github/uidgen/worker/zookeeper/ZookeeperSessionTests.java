package io.github.uidgen.worker.zookeeper;

import java.lang.reflect.Field;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import io.github.uidgen.testsupport.ServerProcess;
import io.github.uidgen.testsupport.ThrowawayZooKeeper;
import io.github.uidgen.worker.WorkerAssignment;
import io.github.uidgen.worker.WorkerLeaseLostException;
import io.github.uidgen.worker.WorkerStoreUnavailableException;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.imps.CuratorFrameworkImpl;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateManager;
import org.apache.curator.retry.RetryNTimes;
import org.apache.curator.retry.RetryOneTime;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher.Event.EventType;
import org.apache.zookeeper.Watcher.Event.KeeperState;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * What a holder of the ZooKeeper assigner sees when its session ends or the server goes away: a session ended by the
 * server, a release after it, the server down for less and for longer than the session, a renewal that outlives its
 * session, a server that cannot be reached at all, and a Curator that lost track of its live connection. Each test
 * starts a server of its own, or none.
 */
class ZookeeperSessionTests extends AbstractZookeeperWorkerIdAssignerTests {

	@Test
	void anEndedSessionLosesTheLeaseAndFreesTheWorkerIdAtOnceWithItsMark() {
		try (ThrowawayZooKeeper zooKeeper = ThrowawayZooKeeper.start(Duration.ofMillis(100));
				CuratorFramework holderClient = zooKeeper.newClient(Duration.ofSeconds(10));
				CuratorFramework otherClient = zooKeeper.newClient(Duration.ofSeconds(10))) {
			ZookeeperWorkerIdAssigner holder = assigner(holderClient, "session", "holder");
			long workerId = holder.assign(MAX_WORKER_ID).workerId();
			holder.renew(workerId, 1_760_000_000_000L);

			zooKeeper.expireSession(holderClient);
			assertThatExceptionOfType(WorkerLeaseLostException.class)
				.isThrownBy(() -> holder.renew(workerId, 1_760_000_001_000L))
				.withMessageContaining("session");
			assertThatExceptionOfType(WorkerLeaseLostException.class)
				.as("a lost lease stays lost")
				.isThrownBy(() -> holder.renew(workerId, 1_760_000_002_000L));

			WorkerAssignment next = assigner(otherClient, "session", "next").assign(MAX_WORKER_ID);
			long claimedBy = System.currentTimeMillis();
			assertThat(next.workerId()).as("free long before its " + LEASE + " lease ran out").isEqualTo(workerId);
			// A lease that was never released counts as a mark at its expiry, but a session that ended before the
			// lease could run out was ended while its holder reached ZooKeeper: the claim starts after now, at most.
			assertThat(next.highWaterMarkMillis()).as("the mark, raised to the claim's time, not to the lease's expiry")
				.isGreaterThan(1_760_000_000_000L)
				.isLessThanOrEqualTo(claimedBy);
		}
	}

	@Test
	void aReleaseAfterTheSessionEndedStillRecordsTheFinalMark() {
		try (ThrowawayZooKeeper zooKeeper = ThrowawayZooKeeper.start(Duration.ofMillis(100));
				CuratorFramework holderClient = zooKeeper.newClient(Duration.ofSeconds(10));
				CuratorFramework otherClient = zooKeeper.newClient(Duration.ofSeconds(10))) {
			ZookeeperWorkerIdAssigner holder = assigner(holderClient, "release", "holder");
			long workerId = holder.assign(MAX_WORKER_ID).workerId();
			holder.renew(workerId, 1_760_000_000_000L);
			zooKeeper.expireSession(holderClient);
			holder.release(workerId, 1_760_000_009_000L);

			WorkerAssignment next = assigner(otherClient, "release", "next").assign(MAX_WORKER_ID);
			assertThat(next.workerId()).isEqualTo(workerId);
			assertThat(next.highWaterMarkMillis()).isEqualTo(1_760_000_009_000L);
		}
	}

	@Test
	void aServerOutageShorterThanTheSessionFailsRenewalsUntilItIsBackAndKeepsTheLease() {
		try (ThrowawayZooKeeper zooKeeper = ThrowawayZooKeeper.start(Duration.ofMillis(100));
				CuratorFramework holderClient = fastFailingClient(zooKeeper, Duration.ofSeconds(20))) {
			ZookeeperWorkerIdAssigner holder = assigner(holderClient, "outage", "holder");
			long workerId = holder.assign(MAX_WORKER_ID).workerId();
			holder.renew(workerId, 1_760_000_000_000L);

			zooKeeper.stop();
			assertThatExceptionOfType(WorkerStoreUnavailableException.class)
				.isThrownBy(() -> holder.renew(workerId, 1_760_000_001_000L))
				.withMessageContaining(zooKeeper.connectString());
			zooKeeper.restart();
			awaitRenewal(holder, workerId, 1_760_000_002_000L);

			try (CuratorFramework otherClient = zooKeeper.newClient(Duration.ofSeconds(10))) {
				assertThat(assigner(otherClient, "outage", "other").assign(MAX_WORKER_ID).workerId())
					.as("the holder's lease survived the outage")
					.isNotEqualTo(workerId);
			}
		}
	}

	@Test
	void aServerOutageLongerThanTheSessionLosesTheLease() throws InterruptedException {
		try (ThrowawayZooKeeper zooKeeper = ThrowawayZooKeeper.start(Duration.ofMillis(100));
				CuratorFramework holderClient = fastFailingClient(zooKeeper, Duration.ofSeconds(1))) {
			ZookeeperWorkerIdAssigner holder = assigner(holderClient, "long-outage", "holder");
			long workerId = holder.assign(MAX_WORKER_ID).workerId();
			holder.renew(workerId, 1_760_000_000_000L);

			// Curator gives the session up once it has been out of touch for the session timeout (1 s).
			CountDownLatch sessionLost = new CountDownLatch(1);
			holderClient.getConnectionStateListenable().addListener((client, state) -> {
				if (state == ConnectionState.LOST) {
					sessionLost.countDown();
				}
			});
			zooKeeper.stop();
			assertThat(sessionLost.await(30, TimeUnit.SECONDS)).as("the session given up while the server is down")
				.isTrue();
			zooKeeper.restart();
			assertThat(holderClient.blockUntilConnected(20, TimeUnit.SECONDS)).isTrue();
			assertThatExceptionOfType(WorkerLeaseLostException.class)
				.isThrownBy(() -> holder.renew(workerId, 1_760_000_001_000L))
				.withMessageContaining("session");
		}
	}

	/**
	 * A renewal under way when Curator gives the session up (the server down longer than the session timeout) is sent
	 * again by the client in its new session once the server is back, where its transaction passes: the old session's
	 * lease znode lives on until the ensemble expires that session, and then goes with it, when a claim may take the
	 * worker ID at once while the holder still issues on the renewal. So it counts as a lost lease. (A fleet of 1,000
	 * whose ZooKeeper took longer than the session to come back gave 42 duplicate IDs that way.) The session is given
	 * up here as Curator gives it up, by injecting its expiry into the client, once the renewal is in flight; the
	 * ensemble keeps the old session for its 30 s.
	 */
	@Test
	void aRenewalThatOutlivesItsSessionCountsAsALostLease() throws Exception {
		try (ThrowawayZooKeeper zooKeeper = ThrowawayZooKeeper.start();
				CuratorFramework holderClient = CuratorFrameworkFactory.newClient(zooKeeper.connectString(), 30_000,
						500, new RetryNTimes(600, 100))) {
			holderClient.start();
			assertThat(holderClient.blockUntilConnected(60, TimeUnit.SECONDS)).isTrue();
			ZookeeperWorkerIdAssigner holder = assigner(holderClient, "renewed-across", "holder");
			long workerId = holder.assign(MAX_WORKER_ID).workerId();
			long claimedIn = holderClient.getZookeeperClient().getZooKeeper().getSessionId();

			AtomicReference<Throwable> outcome = new AtomicReference<>();
			CountDownLatch renewalEnded = new CountDownLatch(1);
			Thread renewer = new Thread(() -> {
				try {
					holder.renew(workerId, 1_760_000_001_000L);
				}
				catch (Throwable ex) {
					outcome.set(ex);
				}
				finally {
					renewalEnded.countDown();
				}
			}, "renewer");
			zooKeeper.stop();
			renewer.start();
			awaitInTransaction(renewer);
			holderClient.getZookeeperClient().getZooKeeper().getTestable().injectSessionExpiration();
			zooKeeper.restart();
			assertThat(renewalEnded.await(60, TimeUnit.SECONDS)).as("the renewal ended once the server is back")
				.isTrue();
			assertThat(holderClient.getZookeeperClient().getZooKeeper().getSessionId())
				.as("the client's session after the restart")
				.isNotEqualTo(claimedIn);
			assertThat(holderClient.checkExists().forPath(holder.getBasePath() + "/leases/" + workerId))
				.as("the lease znode, still the old session's")
				.extracting(Stat::getEphemeralOwner)
				.isEqualTo(claimedIn);
			assertThat(outcome.get()).as("the renewal's outcome")
				.isInstanceOf(WorkerLeaseLostException.class)
				.hasMessageContaining("ended while it was renewed");
		}
	}

	/** Waits, within a bound, until a thread is inside a Curator transaction (sent, or retried by the client). */
	private static void awaitInTransaction(Thread thread) throws InterruptedException {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
		while (Arrays.stream(thread.getStackTrace())
			.noneMatch((frame) -> frame.getClassName().endsWith("CuratorMultiTransactionImpl"))) {
			assertThat(System.nanoTime() - deadline).as("the renewal's transaction under way within 30 s").isNegative();
			Thread.sleep(10);
		}
	}

	@Test
	void anUnreachableServerFailsTheClaimWithinTheConnectionTimeout() {
		String connectString = "127.0.0.1:" + ServerProcess.freePort();
		// A session timeout of ten minutes: a claim that waited for the session rather than the connection timeout
		// would outlast the bound below by far, however slow the machine.
		try (CuratorFramework unreachable = CuratorFrameworkFactory.newClient(connectString, 600_000, 500,
				new RetryOneTime(100))) {
			unreachable.start();
			ZookeeperWorkerIdAssigner assigner = ZookeeperWorkerIdAssigner.builder(unreachable)
				.connectionTimeout(Duration.ofMillis(500))
				.instanceId("lonely")
				.build();
			assertTimeoutPreemptively(Duration.ofSeconds(60),
					() -> assertThatExceptionOfType(WorkerStoreUnavailableException.class)
						.isThrownBy(() -> assigner.assign(MAX_WORKER_ID))
						.withMessageContaining(connectString)
						.withMessageContaining("500 ms"),
					"a claim that waits for the session timeout instead of the connection timeout");
		}
	}

	/**
	 * Curator takes the events of every ZooKeeper handle it made: the last one of a handle it closed after a session
	 * ended ({@code Closed}), counted after its successor connected, leaves Curator taking a live connection for gone,
	 * and the {@code LOST} it posted for the ended session stands. A claim that only waited for Curator to say it is
	 * connected then never got through (a fleet run of 1,000 after a ZooKeeper restart: 5 to 20 instances whose
	 * handle had been connected for minutes, never serving again), while Curator replaces such a connection itself,
	 * once it has waited past its timeouts, when it is asked for the handle.
	 */
	@Test
	void aClaimGetsThroughWhenCuratorLostTrackOfALiveConnection() throws Exception {
		try (ThrowawayZooKeeper zooKeeper = ThrowawayZooKeeper.start(Duration.ofMillis(100));
				CuratorFramework client = fastFailingClient(zooKeeper, Duration.ofSeconds(2))) {
			ZookeeperWorkerIdAssigner assigner = ZookeeperWorkerIdAssigner.builder(client)
				.namespace("stale-view")
				.leaseDuration(LEASE)
				.instanceId("stale")
				.connectionTimeout(Duration.ofMillis(500))
				.build();
			ZooKeeper live = client.getZookeeperClient().getZooKeeper();
			live.getTestable().queueEvent(new WatchedEvent(EventType.None, KeeperState.Closed, null));
			await().atMost(Duration.ofSeconds(30)).until(() -> !client.getZookeeperClient().isConnected());
			ConnectionStateManager states = connectionStates(client);
			states.addStateChange(ConnectionState.LOST);
			await().atMost(Duration.ofSeconds(30)).until(() -> !states.isConnected());
			assertThat(live.getState()).as("the handle Curator takes for gone").isEqualTo(ZooKeeper.States.CONNECTED);

			// Claimed as the generator claims after a lost lease: tried again every 100 ms while the store does not
			// answer, within a bound.
			long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
			WorkerAssignment claimed = null;
			while (claimed == null) {
				try {
					claimed = assigner.assign(MAX_WORKER_ID);
				}
				catch (WorkerStoreUnavailableException ex) {
					assertThat(System.nanoTime()).as("claimed within 30 s; the last try: %s", ex.getMessage())
						.isLessThan(deadline);
					Thread.sleep(100);
				}
			}
			assertThat(claimed.workerId()).isBetween(0L, MAX_WORKER_ID);
		}
	}

	/** Curator's connection states, which no public method of it sets: the test posts the LOST of the race. */
	private static ConnectionStateManager connectionStates(CuratorFramework client)
			throws ReflectiveOperationException {
		Field field = CuratorFrameworkImpl.class.getDeclaredField("connectionStateManager");
		field.setAccessible(true);
		return (ConnectionStateManager) field.get(client);
	}

	/**
	 * A client that gives up on a call quickly, connected before it is handed out: the tests are about outages
	 * later on, and a freshly started server on a loaded machine may take longer than an assigner's connection
	 * timeout to accept the first connection.
	 */
	private static CuratorFramework fastFailingClient(ThrowawayZooKeeper zooKeeper, Duration sessionTimeout) {
		CuratorFramework client = CuratorFrameworkFactory.newClient(zooKeeper.connectString(),
				(int) sessionTimeout.toMillis(), 500, new RetryOneTime(100));
		client.start();
		try {
			assertThat(client.blockUntilConnected(60, TimeUnit.SECONDS)).as("connected to %s within 60 s",
					zooKeeper.connectString())
				.isTrue();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
		return client;
	}

	private static void awaitRenewal(ZookeeperWorkerIdAssigner holder, long workerId, long mark) {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
		while (true) {
			try {
				holder.renew(workerId, mark);
				return;
			}
			catch (WorkerStoreUnavailableException ex) {
				if (System.nanoTime() > deadline) {
					throw ex;
				}
			}
		}
	}

}
