package io.github.uidgen.worker.zookeeper;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

import io.github.uidgen.ManualClock;
import io.github.uidgen.UidClock;
import io.github.uidgen.UidGenerator;
import io.github.uidgen.snowflake.CachedUidGenerator;
import io.github.uidgen.snowflake.DefaultUidGenerator;
import io.github.uidgen.migration.LeafLayout;
import io.github.uidgen.testsupport.Duplicates;
import io.github.uidgen.testsupport.ReplyLosingProxy;
import io.github.uidgen.testsupport.TestRedis;
import io.github.uidgen.testsupport.ThrowawayZooKeeper;
import io.github.uidgen.worker.WorkerAssignment;
import io.github.uidgen.worker.WorkerLeaseLostException;
import io.github.uidgen.worker.WorkerStoreUnavailableException;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * The Leaf mode of the zookeeper assigner on a ZooKeeper tree laid out as Leaf servers leave it
 * ({@code /snowflake/<leaf.name>/forever/<ip>:<port>-<sequence>} with Leaf's JSON, written by a Leaf holder's own
 * steps): the worker ID Leaf gave the ip:port, nothing issued inside Leaf's window, nodes ahead of the clock, not
 * Leaf's, past 1023 or in use refused, and reports that read back as Leaf's JSON. Each test has a Leaf name of its
 * own on one throwaway server.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LeafNodeWorkerIdAssignerTests {

	private static final String LEAF_JSON = "\\{\"ip\":\"%s\",\"port\":\"%d\",\"timestamp\":(\\d{13})\\}";

	private ThrowawayZooKeeper zooKeeper;

	private CuratorFramework client;

	@BeforeAll
	void startServer() {
		this.zooKeeper = ThrowawayZooKeeper.start();
		this.client = this.zooKeeper.newClient(Duration.ofSeconds(30));
	}

	@AfterAll
	void stopServer() {
		this.client.close();
		this.zooKeeper.close();
	}

	private static LeafNodeWorkerIdAssigner assigner(CuratorFramework client, String leafName, String ip, int port) {
		return LeafNodeWorkerIdAssigner.builder(client)
			.leafName(leafName)
			.ip(ip)
			.port(port)
			.connectionTimeout(Duration.ofSeconds(5))
			.build();
	}

	private static DefaultUidGenerator generator(LeafNodeWorkerIdAssigner assigner) {
		return DefaultUidGenerator.builder().layout(LeafLayout.layout()).workerIdAssigner(assigner).build();
	}

	private String data(String leafName, String ip, int port, long workerId) throws Exception {
		return new String(this.client.getData()
			.forPath(String.format("/snowflake/%s/forever/%s:%d-%010d", leafName, ip, port, workerId)),
				StandardCharsets.UTF_8);
	}

	private long reportedTimestamp(String leafName, String ip, int port, long workerId) throws Exception {
		String json = data(leafName, ip, port, workerId);
		assertThat(json).as("Leaf's JSON, as Jackson writes Leaf's Endpoint").matches(String.format(LEAF_JSON,
				ip.replace(".", "\\."), port));
		return Long.parseLong(json.replaceAll(".*\"timestamp\":(\\d+)\\}", "$1"));
	}

	@Test
	void takesTheWorkerIdLeafGaveItsIpPortAndIssuesNothingInsideLeafsWindow() throws Exception {
		String leafName = TestRedis.uniqueNamespace("leaf-take");
		long stoppedAt = System.currentTimeMillis() - 2_000;
		LeafSnowflakeServer.leaveNode(this.client, leafName, "10.0.0.1", 8080, stoppedAt - 60_000);
		long workerId = LeafSnowflakeServer.leaveNode(this.client, leafName, "10.0.0.2", 8080, stoppedAt);
		try (LeafSnowflakeServer stillRunning = LeafSnowflakeServer.start(this.client, leafName, "10.0.0.3", 8080)) {
			assertThat(workerId).isEqualTo(1);
			long claimStarted = System.nanoTime();
			try (DefaultUidGenerator uid = generator(assigner(this.client, leafName, "10.0.0.2", 8080))) {
				assertThat(Duration.ofNanos(System.nanoTime() - claimStarted)).as("waited out Leaf's window")
					.isGreaterThanOrEqualTo(Duration.ofMillis(1_500));
				assertThat(uid.status().worker().id()).isEqualTo(workerId);
				long[] uidIds = new long[20_000];
				long[] leafIds = new long[20_000];
				for (int i = 0; i < uidIds.length; i++) {
					uidIds[i] = uid.getUID();
					leafIds[i] = stillRunning.nextId();
				}
				for (long id : uidIds) {
					assertThat(LeafSnowflakeServer.leafWorkerIdOf(id)).as("Leaf's decode of uid's IDs")
						.isEqualTo(workerId);
					assertThat(LeafSnowflakeServer.leafTimestampOf(id)).as("after Leaf's last report plus 3 s")
						.isGreaterThan(stoppedAt + 3_000);
				}
				assertThat(Duplicates.count(uidIds, leafIds)).isZero();
				long firstReport = reportedTimestamp(leafName, "10.0.0.2", 8080, workerId);
				assertThat(firstReport).as("uid's report").isGreaterThan(stoppedAt);
				// Reported every 3 s: the next report is due within 3 s, awaited with room for a slow machine.
				await().atMost(Duration.ofSeconds(30))
					.untilAsserted(() -> assertThat(reportedTimestamp(leafName, "10.0.0.2", 8080, workerId))
						.as("reported again")
						.isGreaterThanOrEqualTo(firstReport + 2_000));
			}
			long released = reportedTimestamp(leafName, "10.0.0.2", 8080, workerId);
			assertThat(released).as("the final report covers the IDs issued")
				.isGreaterThan(stoppedAt + 3_000)
				.isLessThanOrEqualTo(System.currentTimeMillis());
			assertThat(this.client.checkExists().forPath("/snowflake/" + leafName + "/uid-holders/10.0.0.2:8080"))
				.as("holder znode deleted at release").isNull();
		}
	}

	@Test
	void aNewIpPortGetsANodeAsALeafServerWouldCreateIt() throws Exception {
		String leafName = TestRedis.uniqueNamespace("leaf-new");
		LeafSnowflakeServer.leaveNode(this.client, leafName, "10.0.0.1", 8080, System.currentTimeMillis());
		LeafSnowflakeServer.leaveNode(this.client, leafName, "10.0.0.1", 8081, System.currentTimeMillis());
		try (DefaultUidGenerator uid = generator(assigner(this.client, leafName, "10.0.0.9", 8080))) {
			assertThat(uid.status().worker().id()).isEqualTo(2);
			assertThat(LeafSnowflakeServer.leafWorkerIdOf(uid.getUID())).isEqualTo(2);
			reportedTimestamp(leafName, "10.0.0.9", 8080, 2);
		}
		assertThat(LeafSnowflakeServer.leaveNode(this.client, leafName, "10.0.0.9", 8080, System.currentTimeMillis()))
			.as("a Leaf server started there later takes the same node").isEqualTo(2);
	}

	/**
	 * A Leaf server starts on a node whose timestamp is not ahead of its clock and issues from its current millisecond
	 * on, so the final report must lie past the millisecond of uid's last ID, not on it.
	 */
	@Test
	void theFinalReportIsPastTheLastIdsMillisecondSoALeafServerStartedThereSharesNone() throws Exception {
		String leafName = TestRedis.uniqueNamespace("leaf-release");
		LeafSnowflakeServer.leaveNode(this.client, leafName, "10.0.0.3", 8080, System.currentTimeMillis());
		LeafNodeWorkerIdAssigner assigner = assigner(this.client, leafName, "10.0.0.4", 8080);
		long workerId = assigner.assign(1023).workerId();
		Thread.sleep(20);
		long lastIdMillis = System.currentTimeMillis();
		assigner.release(workerId, lastIdMillis);
		assertThat(reportedTimestamp(leafName, "10.0.0.4", 8080, workerId)).isEqualTo(lastIdMillis + 1);
	}

	@Test
	void aNodeWhoseTimestampIsAheadOfTheClockIsRefusedAndLeftAsItWas() throws Exception {
		String leafName = TestRedis.uniqueNamespace("leaf-ahead");
		long ahead = System.currentTimeMillis() + 60_000;
		long workerId = LeafSnowflakeServer.leaveNode(this.client, leafName, "10.0.0.4", 8080, ahead);
		String before = data(leafName, "10.0.0.4", 8080, workerId);
		assertThatExceptionOfType(LeafNodeException.class)
			.isThrownBy(() -> assigner(this.client, leafName, "10.0.0.4", 8080).assign(1023))
			.withMessageContaining("/snowflake/" + leafName + "/forever/10.0.0.4:8080-0000000000")
			.withMessageContaining("ms ahead of this host's clock")
			.withMessageContaining("Start again once the clock has passed it");
		assertThat(data(leafName, "10.0.0.4", 8080, workerId)).isEqualTo(before);
		assertThat(this.client.checkExists().forPath("/snowflake/" + leafName + "/uid-holders/10.0.0.4:8080"))
			.isNull();
	}

	/**
	 * A node a little ahead of this host's clock (a Leaf server on a host whose clock ran fast) is waited out as any
	 * store's mark is, within the generator's start-up wait; further ahead, it is refused before anything is written.
	 */
	@Test
	void aNodeALittleAheadOfTheClockIsWaitedOutAndOneFurtherAheadThanTheStartupWaitIsRefused() throws Exception {
		String leafName = TestRedis.uniqueNamespace("leaf-little-ahead");
		long ahead = System.currentTimeMillis() + 1_500;
		long workerId = LeafSnowflakeServer.leaveNode(this.client, leafName, "10.0.0.16", 8080, ahead);
		try (DefaultUidGenerator uid = generator(assigner(this.client, leafName, "10.0.0.16", 8080))) {
			assertThat(uid.status().worker().id()).isEqualTo(workerId);
			for (long id : take(uid, 5_000)) {
				assertThat(LeafSnowflakeServer.leafTimestampOf(id)).as("after the node's timestamp plus Leaf's 3 s")
					.isGreaterThan(ahead + 3_000);
			}
		}

		long farAhead = System.currentTimeMillis() + 60_000;
		long other = LeafSnowflakeServer.leaveNode(this.client, leafName, "10.0.0.17", 8080, farAhead);
		String before = data(leafName, "10.0.0.17", 8080, other);
		assertThatExceptionOfType(LeafNodeException.class)
			.isThrownBy(() -> DefaultUidGenerator.builder()
				.layout(LeafLayout.layout())
				.maxStartupWait(Duration.ofSeconds(1))
				.workerIdAssigner(assigner(this.client, leafName, "10.0.0.17", 8080))
				.build())
			.withMessageContaining("ms ahead of this host's clock")
			.withMessageContaining("further than a start waits for it (1000 ms");
		assertThat(data(leafName, "10.0.0.17", 8080, other)).isEqualTo(before);
	}

	/**
	 * The cached generator issues ahead of the clock. Leaf accepts a node only when its timestamp is not ahead of its
	 * clock (else it falls back to the worker ID of its local file and issues at once), and issues from its clock's
	 * millisecond on: so the final report must be past the last ID, and written only once the clock has reached it.
	 * The clock is held while IDs are taken, so they run ahead of it, then runs on at the system clock's rate; the
	 * node's modification time (the server's system clock) tells what this clock read at the write.
	 */
	@Test
	void aCleanStopOfTheCachedGeneratorLeavesTheNodeSoALeafServerStartedRightAfterRepeatsNoId() throws Exception {
		String leafName = TestRedis.uniqueNamespace("leaf-hand-back");
		String ip = "10.0.0.15";
		long workerId = LeafSnowflakeServer.leaveNode(this.client, leafName, ip, 8080,
				System.currentTimeMillis() - 10_000);
		HeldClock clock = new HeldClock(System.currentTimeMillis());
		LeafNodeWorkerIdAssigner assigner = LeafNodeWorkerIdAssigner.builder(this.client)
			.leafName(leafName)
			.ip(ip)
			.port(8080)
			.clock(clock)
			.build();
		CachedUidGenerator uid = CachedUidGenerator.builder()
			.layout(LeafLayout.layout())
			.clock(clock)
			.workerIdAssigner(assigner)
			.build();
		long[] uidIds;
		try {
			uidIds = take(uid, 1_000_000);
		}
		finally {
			clock.letGo();
			uid.close();
		}
		long lastIdMillis = 0;
		for (long id : uidIds) {
			lastIdMillis = Math.max(lastIdMillis, LeafSnowflakeServer.leafTimestampOf(id));
		}
		assertThat(lastIdMillis).as("issued ahead of the held clock").isGreaterThan(clock.held + 100);

		String node = String.format("/snowflake/%s/forever/%s:8080-%010d", leafName, ip, workerId);
		Stat written = new Stat();
		this.client.getData().storingStatIn(written).forPath(node);
		long released = reportedTimestamp(leafName, ip, 8080, workerId);
		assertThat(released).as("past the last ID's millisecond").isGreaterThan(lastIdMillis);
		assertThat(released).as("not ahead of the clock when written").isLessThanOrEqualTo(
				clock.readingAt(written.getMtime()));

		try (LeafSnowflakeServer leaf = LeafSnowflakeServer.startChecked(this.client, leafName, ip, 8080, clock)) {
			assertThat(leaf.workerId()).isEqualTo(workerId);
			long[] leafIds = new long[200_000];
			for (int i = 0; i < leafIds.length; i++) {
				leafIds[i] = leaf.nextId();
				assertThat(LeafSnowflakeServer.leafTimestampOf(leafIds[i])).isGreaterThan(lastIdMillis);
			}
			assertThat(Duplicates.count(uidIds, leafIds)).isZero();
		}
	}

	/**
	 * A final report the clock cannot reach within the bound (it stepped back) is written anyway, ahead: a lower one
	 * would let a Leaf server started there accept the node and repeat uid's IDs.
	 */
	@Test
	void aFinalReportTheClockCannotReachWithinTheBoundIsWrittenAsItIs() throws Exception {
		String leafName = TestRedis.uniqueNamespace("leaf-release-bound");
		ManualClock clock = ManualClock.atSystemTime();
		LeafSnowflakeServer.leaveNode(this.client, leafName, "10.0.0.18", 8080, clock.get() - 10_000);
		LeafNodeWorkerIdAssigner assigner = LeafNodeWorkerIdAssigner.builder(this.client)
			.leafName(leafName)
			.ip("10.0.0.18")
			.port(8080)
			.clock(clock)
			.build();
		long workerId = assigner.assign(1023, Duration.ofMillis(200)).workerId();
		long lastIdMillis = clock.get() + 60_000;
		assigner.release(workerId, lastIdMillis);
		assertThat(reportedTimestamp(leafName, "10.0.0.18", 8080, workerId)).isEqualTo(lastIdMillis + 1);
		assertThat(this.client.checkExists().forPath("/snowflake/" + leafName + "/uid-holders/10.0.0.18:8080"))
			.as("holder znode deleted at release").isNull();
	}

	@Test
	void aLeafNameWithoutATreeNodesThatAreNotLeafsAndWorkerIdsPast1023AreRefused() throws Exception {
		String leafName = TestRedis.uniqueNamespace("leaf-bad");
		assertThatExceptionOfType(LeafNodeException.class)
			.isThrownBy(() -> assigner(this.client, leafName, "10.0.0.5", 8080).assign(1023))
			.withMessageContaining("There is no Leaf snowflake tree at /snowflake/" + leafName + "/forever")
			.satisfies((ex) -> assertThat(ex.getSetting()).isEqualTo("leafName"));
		String forever = "/snowflake/" + leafName + "/forever";
		this.client.create().creatingParentsIfNeeded().forPath(forever + "/10.0.0.5:8080-0000000000",
				"format=1\nmark=\n".getBytes(StandardCharsets.UTF_8));
		assertThatExceptionOfType(LeafNodeException.class)
			.isThrownBy(() -> assigner(this.client, leafName, "10.0.0.5", 8080).assign(1023))
			.withMessageContaining(forever + "/10.0.0.5:8080-0000000000 holds format=1")
			.withMessageContaining("which is not Leaf's JSON");
		this.client.create()
			.withMode(CreateMode.PERSISTENT)
			.forPath(forever + "/10.0.0.6:8080-0000001024", LeafSnowflakeServer.json("10.0.0.6", "8080", 1));
		assertThatExceptionOfType(LeafNodeException.class)
			.isThrownBy(() -> assigner(this.client, leafName, "10.0.0.6", 8080).assign(1023))
			.withMessageContaining("gives worker ID 1024, which does not fit the layout's worker IDs 0 to 1023")
			.withMessageContaining("Leaf refuses it too");
	}

	@Test
	void twoProcessesOnOneIpPortNeverShareItsWorkerId() throws Exception {
		String leafName = TestRedis.uniqueNamespace("leaf-two");
		LeafSnowflakeServer.leaveNode(this.client, leafName, "10.0.0.7", 8080, System.currentTimeMillis() - 10_000);
		try (CuratorFramework otherProcess = this.zooKeeper.newClient(Duration.ofSeconds(30))) {
			DefaultUidGenerator first = generator(assigner(this.client, leafName, "10.0.0.7", 8080));
			try {
				assertThatExceptionOfType(LeafNodeException.class)
					.isThrownBy(() -> assigner(otherProcess, leafName, "10.0.0.7", 8080).assign(1023))
					.withMessageContaining("Another uid process holds the Leaf node of 10.0.0.7:8080 (instance="
							+ "10.0.0.7:8080 token=")
					.satisfies((ex) -> assertThat(ex.getSetting()).isEqualTo("port"));
				long[] firstIds = take(first, 5_000);
				first.close();
				long finalReport = reportedTimestamp(leafName, "10.0.0.7", 8080, 0);
				LeafNodeWorkerIdAssigner next = assigner(otherProcess, leafName, "10.0.0.7", 8080);
				WorkerAssignment taken = next.assign(1023);
				assertThat(taken.highWaterMarkMillis())
					.as("released by uid, written by nobody since: its final report is the mark, no Leaf window")
					.isEqualTo(finalReport);
				next.release(0, WorkerAssignment.NO_MARK);
				try (DefaultUidGenerator second = generator(assigner(otherProcess, leafName, "10.0.0.7", 8080))) {
					assertThat(second.status().worker().id()).isZero();
					assertThat(Duplicates.count(firstIds, take(second, 5_000))).isZero();
				}
			}
			finally {
				first.close();
			}
		}
	}

	/**
	 * uid released the ip:port's node, an operator deleted it, and a Leaf server made a new one there and reported
	 * on it until it stopped, leaving it at the very version uid's release had left the old one: the new node is a
	 * Leaf server's, and its window is waited out.
	 */
	@Test
	void aNodeMadeAgainByALeafServerAfterAUidReleaseGetsLeafsWindow() throws Exception {
		String leafName = TestRedis.uniqueNamespace("leaf-remade");
		String ip = "10.0.0.13";
		LeafSnowflakeServer.leaveNode(this.client, leafName, ip, 8080, System.currentTimeMillis() - 10_000);
		LeafNodeWorkerIdAssigner first = assigner(this.client, leafName, ip, 8080);
		long oldWorkerId = first.assign(1023).workerId();
		first.release(oldWorkerId, System.currentTimeMillis());
		String oldNode = String.format("/snowflake/%s/forever/%s:8080-%010d", leafName, ip, oldWorkerId);
		int releasedVersion = this.client.checkExists().forPath(oldNode).getVersion();
		this.client.delete().forPath(oldNode);

		long stoppedAt = System.currentTimeMillis() - 1_000;
		long workerId = LeafSnowflakeServer.leaveNode(this.client, leafName, ip, 8080, stoppedAt);
		String node = String.format("/snowflake/%s/forever/%s:8080-%010d", leafName, ip, workerId);
		while (this.client.checkExists().forPath(node).getVersion() < releasedVersion) {
			this.client.setData().forPath(node, LeafSnowflakeServer.json(ip, "8080", stoppedAt));
		}
		assertThat(this.client.checkExists().forPath(node).getVersion()).isEqualTo(releasedVersion);

		LeafNodeWorkerIdAssigner next = assigner(this.client, leafName, ip, 8080);
		WorkerAssignment taken = next.assign(1023);
		try {
			assertThat(taken.workerId()).isEqualTo(workerId).isNotEqualTo(oldWorkerId);
			assertThat(taken.highWaterMarkMillis()).as("nothing issued before the Leaf server's report plus 3 s")
				.isEqualTo(stoppedAt + 3_000);
		}
		finally {
			next.release(taken.workerId(), taken.highWaterMarkMillis());
		}
	}

	@Test
	void aLeafServerStillReportingOnTheNodeIsDetectedAndTheClaimRefused() throws Exception {
		String leafName = TestRedis.uniqueNamespace("leaf-live");
		try (LeafSnowflakeServer running = LeafSnowflakeServer.start(this.client, leafName, "10.0.0.8", 8080)) {
			// Its first report, a second after start, rewrites the node it created.
			await().atMost(Duration.ofSeconds(60))
				.until(() -> this.client.checkExists().forPath(running.node()).getVersion() > 0);
			assertThatExceptionOfType(LeafNodeException.class)
				.isThrownBy(() -> assigner(this.client, leafName, "10.0.0.8", 8080).assign(1023))
				.withMessageContaining("A Leaf server still writes its node")
				.withMessageContaining("Stop the Leaf server on 10.0.0.8:8080 first");
		}
	}

	@Test
	void aLeafServerStartedOnTheNodeWhileUidIssuesEndsTheLease() throws Exception {
		String leafName = TestRedis.uniqueNamespace("leaf-intruder");
		LeafSnowflakeServer.leaveNode(this.client, leafName, "10.0.0.10", 8080, System.currentTimeMillis() - 10_000);
		try (DefaultUidGenerator uid = generator(assigner(this.client, leafName, "10.0.0.10", 8080))) {
			take(uid, 1_000);
			try (LeafSnowflakeServer intruder = LeafSnowflakeServer.start(this.client, leafName, "10.0.0.10", 8080)) {
				assertThat(intruder.workerId()).isEqualTo(uid.status().worker().id());
				await().atMost(Duration.ofSeconds(30))
					.until(() -> uid.status().failure() instanceof WorkerLeaseLostException);
				assertThat(uid.status().failure()).isInstanceOf(WorkerLeaseLostException.class)
					.hasMessageContaining("rewritten by another process")
					.hasMessageContaining("most likely a Leaf server started on 10.0.0.10:8080");
				assertThatExceptionOfType(WorkerLeaseLostException.class).isThrownBy(uid::getUID);
			}
		}
	}

	@Test
	void aRenewalWhoseAnswerWasLostCarriesOn() throws Exception {
		String leafName = TestRedis.uniqueNamespace("leaf-lost-reply");
		LeafSnowflakeServer.leaveNode(this.client, leafName, "10.0.0.11", 8080, System.currentTimeMillis() - 10_000);
		try (ReplyLosingProxy proxy = ReplyLosingProxy.start(this.zooKeeper.port());
				CuratorFramework throughProxy = this.zooKeeper.newClientWithoutRetriesThrough(proxy,
						Duration.ofSeconds(10))) {
			LeafNodeWorkerIdAssigner assigner = assigner(throughProxy, leafName, "10.0.0.11", 8080);
			long workerId = assigner.assign(1023).workerId();
			assigner.renew(workerId, System.currentTimeMillis());
			proxy.loseRepliesTo(ZooDefs.OpCode.multi, 1);
			long lostMark = System.currentTimeMillis() + 60_000;
			assertThatExceptionOfType(RuntimeException.class).isThrownBy(() -> assigner.renew(workerId, lostMark))
				.withMessageContaining("ConnectionLoss");
			assertThat(proxy.lostReplyErrors()).as("applied by the server").containsExactly(0);
			long nextMark = lostMark + 1_000;
			// The client without retries reconnects by itself; until it has, a renewal finds the store out of reach,
			// which the mark keeper retries, and never finds the lease lost.
			await().atMost(Duration.ofSeconds(30))
				.pollInterval(Duration.ofMillis(50))
				.ignoreExceptionsInstanceOf(WorkerStoreUnavailableException.class)
				.until(() -> {
					assigner.renew(workerId, nextMark);
					return true;
				});
			assertThat(reportedTimestamp(leafName, "10.0.0.11", 8080, workerId)).as("carried on")
				.isEqualTo(nextMark - 3_000);
			assigner.release(workerId, nextMark);
		}
	}

	@Test
	void aClaimWhoseWriteWasAppliedButWhoseAnswerWasLostIsNotTakenForALeafServer() throws Exception {
		String leafName = TestRedis.uniqueNamespace("leaf-lost-claim");
		long workerId = LeafSnowflakeServer.leaveNode(this.client, leafName, "10.0.0.12", 8080,
				System.currentTimeMillis() - 10_000);
		try (ReplyLosingProxy proxy = ReplyLosingProxy.start(this.zooKeeper.port());
				CuratorFramework throughProxy = this.zooKeeper.newClientThrough(proxy, Duration.ofSeconds(10))) {
			// Curator retries the lost write, and the retry finds the version moved on by the write itself.
			proxy.loseRepliesTo(ZooDefs.OpCode.setData, 1);
			LeafNodeWorkerIdAssigner assigner = assigner(throughProxy, leafName, "10.0.0.12", 8080);
			assertThat(assigner.assign(1023).workerId()).isEqualTo(workerId);
			assertThat(proxy.lostReplyErrors()).as("applied by the server").containsExactly(0);
			assigner.renew(workerId, System.currentTimeMillis());
			assigner.release(workerId, System.currentTimeMillis());
		}
	}

	/**
	 * ZooKeeper creates a new ip:port's node but the answer is lost, and Curator's retry creates a second: the claim
	 * takes the one it was answered with and removes the one nobody was told of, so the ip:port has one node and the
	 * next start takes it.
	 */
	@Test
	void aNodeCreatedTwiceBecauseAnAnswerWasLostIsLeftOnce() throws Exception {
		String leafName = TestRedis.uniqueNamespace("leaf-lost-create");
		LeafSnowflakeServer.leaveNode(this.client, leafName, "10.0.0.1", 8080, System.currentTimeMillis() - 60_000);
		// A claim before, so that the next one's only creates are its holder znode's and its node's.
		LeafNodeWorkerIdAssigner before = assigner(this.client, leafName, "10.0.0.1", 8080);
		before.release(before.assign(1023).workerId(), System.currentTimeMillis());
		String forever = "/snowflake/" + leafName + "/forever";
		try (ReplyLosingProxy proxy = ReplyLosingProxy.start(this.zooKeeper.port());
				CuratorFramework throughProxy = this.zooKeeper.newClientThrough(proxy, Duration.ofSeconds(10))) {
			// The holder znode's create goes through; the node's create is applied and its answer lost.
			proxy.loseRepliesTo(ZooDefs.OpCode.create2, 1, 1);
			LeafNodeWorkerIdAssigner assigner = assigner(throughProxy, leafName, "10.0.0.14", 8080);
			long workerId = assigner.assign(1023).workerId();
			assertThat(proxy.lostReplyErrors()).as("created by the server").containsExactly(0);
			assigner.release(workerId, System.currentTimeMillis());
			assertThat(this.client.getChildren().forPath(forever)).as("one node for the ip:port")
				.filteredOn((child) -> child.startsWith("10.0.0.14:8080-"))
				.containsExactly(String.format("10.0.0.14:8080-%010d", workerId));
			LeafNodeWorkerIdAssigner next = assigner(this.client, leafName, "10.0.0.14", 8080);
			assertThat(next.assign(1023).workerId()).as("the next start takes it").isEqualTo(workerId);
			next.release(workerId, System.currentTimeMillis());
		}
	}

	/** A clock held at one reading until let go, then running on from it at the system clock's rate. */
	private static final class HeldClock implements UidClock {

		final long held;

		private volatile long runningSince = Long.MIN_VALUE;

		HeldClock(long held) {
			this.held = held;
		}

		void letGo() {
			this.runningSince = System.currentTimeMillis();
		}

		/** What this clock read when the system clock read {@code systemMillis}, once let go. */
		long readingAt(long systemMillis) {
			return this.held + (systemMillis - this.runningSince);
		}

		@Override
		public long currentTimeMillis() {
			long since = this.runningSince;
			return (since == Long.MIN_VALUE) ? this.held : this.held + (System.currentTimeMillis() - since);
		}

	}

	private static long[] take(UidGenerator generator, int count) {
		long[] ids = new long[count];
		for (int i = 0; i < count; i++) {
			ids[i] = generator.getUID();
		}
		return ids;
	}

}
