package io.github.uidgen.worker.zookeeper;

import java.time.Duration;
import java.util.List;

import io.github.uidgen.testsupport.TestRedis;
import io.github.uidgen.testsupport.ThrowawayZooKeeper;
import io.github.uidgen.worker.WorkerAssignment;
import io.github.uidgen.worker.fleet.ClaimEnd;
import io.github.uidgen.worker.fleet.ClaimHistory;
import io.github.uidgen.worker.fleet.FleetSnapshot;
import io.github.uidgen.worker.fleet.FleetWorker;
import io.github.uidgen.worker.fleet.WorkerClaim;
import io.github.uidgen.worker.fleet.WorkerFleet;
import io.github.uidgen.worker.fleet.WorkerState;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * The fleet of Leaf's worker nodes and uid's claims of them: every node listed, held by a uid process or a Leaf
 * server, released or left; each uid claim recorded outside the tree Leaf reads, in the transaction that confirms the
 * takeover, closed by the release or by the next claim; and a takeover a Leaf server defeats recorded nowhere. Each
 * test has a Leaf name of its own on one throwaway server.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LeafNodeFleetTests {

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

	private static LeafNodeWorkerIdAssigner assigner(CuratorFramework client, String leafName, String ip,
			String instanceId) {
		return LeafNodeWorkerIdAssigner.builder(client)
			.leafName(leafName)
			.ip(ip)
			.port(8080)
			.instanceId(instanceId)
			.connectionTimeout(Duration.ofSeconds(5))
			.build();
	}

	private static WorkerFleet fleetOf(LeafNodeWorkerIdAssigner assigner) {
		return assigner.fleet().orElseThrow();
	}

	@Test
	void everyLeafNodeIsListedWithWhoHoldsIt() throws Exception {
		String leafName = TestRedis.uniqueNamespace("leaf-fleet");
		long stale = System.currentTimeMillis() - 60_000;
		long left = LeafSnowflakeServer.leaveNode(this.client, leafName, "10.0.1.1", 8080, stale);
		long released = LeafSnowflakeServer.leaveNode(this.client, leafName, "10.0.1.2", 8080, stale);
		LeafNodeWorkerIdAssigner releasing = assigner(this.client, leafName, "10.0.1.2", "releasing");
		releasing.assign(1023);
		long finalMark = System.currentTimeMillis();
		releasing.release(released, finalMark);
		try (LeafSnowflakeServer leafServer = LeafSnowflakeServer.start(this.client, leafName, "10.0.1.3", 8080)) {
			LeafNodeWorkerIdAssigner uid = assigner(this.client, leafName, "10.0.1.4", "uid-4");
			long uidId = uid.assign(1023).workerId();
			try {
				FleetSnapshot fleet = fleetOf(uid).read(100);
				assertThat(fleet.store()).isEqualTo("zookeeper-leaf");
				assertThat(fleet.location()).isEqualTo("/snowflake/" + leafName + "/forever");
				assertThat(fleet.known()).isEqualTo(4);
				assertThat(fleet.held()).as("the Leaf server and uid").isEqualTo(2);
				assertThat(fleet.workers()).extracting(FleetWorker::workerId)
					.containsExactly(left, released, leafServer.workerId(), uidId);

				FleetWorker stopped = fleet.workers().get(0);
				assertThat(stopped.state()).isEqualTo(WorkerState.EXPIRED);
				assertThat(stopped.instanceId()).isEqualTo("10.0.1.1:8080");
				assertThat(stopped.host()).isEqualTo("10.0.1.1");
				assertThat(stopped.heldSince()).as("Leaf records no claim time").isNull();
				assertThat(stopped.highWaterMarkMillis()).isEqualTo(stale);

				FleetWorker handedBack = fleet.workers().get(1);
				assertThat(handedBack.state()).isEqualTo(WorkerState.RELEASED);
				assertThat(handedBack.highWaterMarkMillis()).as("the final report").isEqualTo(finalMark + 1);

				FleetWorker leaf = fleet.workers().get(2);
				assertThat(leaf.state()).isEqualTo(WorkerState.HELD);
				assertThat(leaf.instanceId()).isEqualTo("10.0.1.3:8080");
				assertThat(leaf.heldSince()).isNull();

				FleetWorker held = fleet.workers().get(3);
				assertThat(held.state()).isEqualTo(WorkerState.HELD);
				assertThat(held.instanceId()).isEqualTo("uid-4");
				assertThat(held.host()).isNotBlank().isNotEqualTo("10.0.1.4");
				assertThat(held.heldSince()).isNotNull();
				assertThat(held.leaseExpiry()).isAfter(held.heldSince());

				FleetSnapshot bounded = fleetOf(uid).read(2);
				assertThat(bounded.truncated()).isTrue();
				assertThat(bounded.known()).isEqualTo(4);
				assertThat(bounded.workers()).extracting(FleetWorker::workerId).containsExactly(left, released);
			}
			finally {
				uid.release(uidId, System.currentTimeMillis());
			}
		}
	}

	/**
	 * A release closes its claim; a process whose session ended leaves its claim open until the next claim closes it
	 * as expired. The history lives beside Leaf's tree, which keeps only Leaf's nodes, and is pruned to the newest.
	 */
	@Test
	void eachUidClaimIsKeptOutsideLeafsTreeAndClosedByTheReleaseOrTheNextClaim() throws Exception {
		String leafName = TestRedis.uniqueNamespace("leaf-history");
		String ip = "10.0.1.5";
		long workerId = LeafSnowflakeServer.leaveNode(this.client, leafName, ip, 8080,
				System.currentTimeMillis() - 10_000);
		LeafNodeWorkerIdAssigner first = assigner(this.client, leafName, ip, "first");
		WorkerAssignment firstClaim = first.assign(1023);
		long firstMark = System.currentTimeMillis();
		first.release(workerId, firstMark);

		try (CuratorFramework crashing = this.zooKeeper.newClient(Duration.ofSeconds(30))) {
			WorkerAssignment secondClaim = assigner(crashing, leafName, ip, "second").assign(1023);
			assertThat(secondClaim.highWaterMarkMillis()).as("released by uid: its final report")
				.isEqualTo(firstMark + 1);
		}
		await().atMost(Duration.ofSeconds(30))
			.until(() -> this.client.checkExists().forPath("/snowflake/" + leafName + "/uid-holders/" + ip + ":8080")
					== null);
		LeafNodeWorkerIdAssigner third = LeafNodeWorkerIdAssigner.builder(this.client)
			.leafName(leafName)
			.ip(ip)
			.port(8080)
			.instanceId("third")
			.claimHistory(2)
			.build();
		WorkerAssignment thirdClaim = third.assign(1023);
		try {
			ClaimHistory history = fleetOf(third).history(workerId);
			assertThat(history.claims()).as("pruned to the newest two").extracting(WorkerClaim::instanceId)
				.containsExactly("third", "second");
			WorkerClaim open = history.claims().get(0);
			WorkerClaim expired = history.claims().get(1);
			assertThat(open.end()).isEqualTo(ClaimEnd.OPEN);
			assertThat(open.afterMarkMillis()).isEqualTo(thirdClaim.highWaterMarkMillis());
			assertThat(open.host()).isNotBlank();
			assertThat(expired.end()).isEqualTo(ClaimEnd.EXPIRED);
			assertThat(expired.afterMarkMillis()).isEqualTo(firstMark + 1);
			assertThat(expired.to()).isAfterOrEqualTo(expired.from()).isBeforeOrEqualTo(open.from());
			assertThat(history.issuerAt(firstMark)).as("issued by the first claim, no longer kept").isEmpty();
			assertThat(history.issuerAt(firstMark + 2)).contains(expired);
			assertThat(history.issuerAt(thirdClaim.highWaterMarkMillis() + 1)).contains(open);
		}
		finally {
			third.release(workerId, System.currentTimeMillis());
		}
		assertThat(fleetOf(third).history(workerId).claims().get(0).end()).isEqualTo(ClaimEnd.RELEASED);
		assertThat(firstClaim.workerId()).isEqualTo(workerId);
		assertThat(this.client.checkExists().forPath("/snowflake/" + leafName + "/uid-claims/" + workerId))
			.isNotNull();
		List<String> forever = this.client.getChildren().forPath("/snowflake/" + leafName + "/forever");
		assertThat(forever).as("only Leaf's nodes, which a Leaf server splits at '-'")
			.containsExactly(String.format("%s:8080-%010d", ip, workerId));
		assertThat(LeafSnowflakeServer.leaveNode(this.client, leafName, ip, 8080, System.currentTimeMillis()))
			.as("a Leaf server started there takes the node as before").isEqualTo(workerId);
	}

	/** A takeover a Leaf server still reporting defeats records no claim: the history and the claim are one step. */
	@Test
	void aTakeoverALeafServerDefeatsRecordsNoClaim() throws Exception {
		String leafName = TestRedis.uniqueNamespace("leaf-defeated");
		try (LeafSnowflakeServer running = LeafSnowflakeServer.start(this.client, leafName, "10.0.1.6", 8080)) {
			await().atMost(Duration.ofSeconds(60))
				.until(() -> this.client.checkExists().forPath(running.node()).getVersion() > 0);
			LeafNodeWorkerIdAssigner uid = assigner(this.client, leafName, "10.0.1.6", "defeated");
			assertThatExceptionOfType(LeafNodeException.class).isThrownBy(() -> uid.assign(1023))
				.withMessageContaining("A Leaf server still writes its node");
			assertThat(fleetOf(uid).history(running.workerId()).claims()).isEmpty();
			FleetWorker listed = fleetOf(uid).read(10).workers().get(0);
			assertThat(listed.state()).isEqualTo(WorkerState.HELD);
			assertThat(listed.instanceId()).as("the Leaf server's, not uid's").isEqualTo("10.0.1.6:8080");
		}
	}

}
