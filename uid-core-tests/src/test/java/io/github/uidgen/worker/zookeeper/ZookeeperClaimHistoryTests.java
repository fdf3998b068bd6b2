package io.github.uidgen.worker.zookeeper;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import io.github.uidgen.testsupport.TestRedis;
import io.github.uidgen.testsupport.ThrowawayZooKeeper;
import io.github.uidgen.worker.WorkerAssignment;
import io.github.uidgen.worker.WorkerAssignmentException;
import io.github.uidgen.worker.fleet.ClaimEnd;
import io.github.uidgen.worker.fleet.ClaimHistory;
import io.github.uidgen.worker.fleet.FleetWorker;
import io.github.uidgen.worker.fleet.WorkerClaim;
import io.github.uidgen.worker.fleet.WorkerState;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * What the shared fleet contract cannot see of the ZooKeeper assigner's claim history: that it is written in the very
 * transaction of the claim and the release (a history ZooKeeper refuses to write fails the claim and leaves the worker
 * znode as it was), how a claim closes one whose session ended, and a namespace written before history was kept.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ZookeeperClaimHistoryTests {

	private static final long MAX_WORKER_ID = 1023;

	/** Readable, and its ACL changeable back, but not writable. */
	private static final List<ACL> READ_ONLY = List
		.of(new ACL(ZooDefs.Perms.READ | ZooDefs.Perms.ADMIN, ZooDefs.Ids.ANYONE_ID_UNSAFE));

	private ThrowawayZooKeeper shared;

	private CuratorFramework client;

	@BeforeAll
	void startServer() {
		this.shared = ThrowawayZooKeeper.start();
		this.client = this.shared.newClient(Duration.ofSeconds(30));
	}

	@AfterAll
	void stopServer() {
		this.client.close();
		this.shared.close();
	}

	private static ZookeeperWorkerIdAssigner assigner(CuratorFramework client, String namespace, String instanceId) {
		return ZookeeperWorkerIdAssigner.builder(client)
			.namespace(namespace)
			.leaseDuration(Duration.ofSeconds(60))
			.instanceId(instanceId)
			.connectionTimeout(Duration.ofSeconds(5))
			.build();
	}

	/**
	 * The claims znode made read-only: the claim's transaction fails as a whole, so the worker znode keeps its
	 * released record and no lease znode appears; once writable again, the next claim records itself.
	 */
	@Test
	void aClaimWhoseHistoryCannotBeWrittenFailsAndLeavesTheWorkerIdAsItWas() throws Exception {
		String namespace = TestRedis.uniqueNamespace("history-refused");
		ZookeeperWorkerIdAssigner first = assigner(this.client, namespace, "first");
		long workerId = claimAndRelease(first);
		String base = first.getBasePath();
		String claims = base + "/claims/" + workerId;
		Stat before = this.client.checkExists().forPath(base + "/workers/" + workerId);
		this.client.setACL().withACL(READ_ONLY).forPath(claims);

		ZookeeperWorkerIdAssigner refused = assigner(this.client, namespace, "refused");
		assertThatExceptionOfType(WorkerAssignmentException.class).isThrownBy(() -> refused.assign(MAX_WORKER_ID))
			.withMessageContaining("NoAuth");
		Stat after = this.client.checkExists().forPath(base + "/workers/" + workerId);
		assertThat(after.getVersion()).as("the worker znode is not written").isEqualTo(before.getVersion());
		assertThat(this.client.checkExists().forPath(base + "/leases/" + workerId)).as("no lease znode").isNull();
		assertThat(first.fleet().orElseThrow().read(10).held()).isZero();

		this.client.setACL().withACL(ZooDefs.Ids.OPEN_ACL_UNSAFE).forPath(claims);
		WorkerAssignment taken = refused.assign(MAX_WORKER_ID);
		assertThat(taken.workerId()).isEqualTo(workerId);
		assertThat(first.fleet().orElseThrow().history(workerId).claims()).extracting(WorkerClaim::instanceId)
			.containsExactly("refused", "first");
	}

	/**
	 * A worker ID whose worker znode was deleted by hand counts as never used, but its claims znode may be left: the
	 * claim, which takes the claims znode of a never-used worker ID for missing, finds it when its create is refused
	 * and claims again over it, the history kept.
	 */
	@Test
	void aNeverUsedWorkerIdWhoseClaimsWereLeftBehindIsClaimedWithThem() throws Exception {
		ZookeeperWorkerIdAssigner first = assigner(this.client, TestRedis.uniqueNamespace("claims-left"), "first");
		long workerId = claimAndRelease(first);
		this.client.delete().forPath(first.getBasePath() + "/workers/" + workerId);

		ZookeeperWorkerIdAssigner next = assigner(this.client, first.getNamespace(), "next");
		WorkerAssignment taken = next.assign(MAX_WORKER_ID);
		assertThat(taken.workerId()).isEqualTo(workerId);
		assertThat(taken.hasMark()).as("the worker znode and its mark are gone").isFalse();
		assertThat(next.fleet().orElseThrow().history(workerId).claims()).extracting(WorkerClaim::instanceId)
			.containsExactly("next", "first");
		assertThat(this.client.checkExists().forPath(next.getBasePath() + "/leases/" + workerId).getEphemeralOwner())
			.isEqualTo(this.client.getZookeeperClient().getZooKeeper().getSessionId());
	}

	/** Claims a worker ID and releases it with a mark; returns the worker ID. */
	private static long claimAndRelease(ZookeeperWorkerIdAssigner assigner) {
		long workerId = assigner.assign(MAX_WORKER_ID).workerId();
		assigner.release(workerId, 1_760_000_000_000L);
		return workerId;
	}

	/** The release's transaction fails as a whole too: the holder keeps its lease, and its claim stays open. */
	@Test
	void aReleaseWhoseHistoryCannotBeWrittenLeavesTheLeaseAsItWas() throws Exception {
		String namespace = TestRedis.uniqueNamespace("release-refused");
		ZookeeperWorkerIdAssigner holder = assigner(this.client, namespace, "holder");
		long workerId = holder.assign(MAX_WORKER_ID).workerId();
		holder.renew(workerId, 1_760_000_000_000L);
		this.client.setACL().withACL(READ_ONLY).forPath(holder.getBasePath() + "/claims/" + workerId);

		assertThatExceptionOfType(WorkerAssignmentException.class)
			.isThrownBy(() -> holder.release(workerId, 1_760_000_005_000L))
			.withMessageContaining("NoAuth");
		FleetWorker worker = holder.fleet().orElseThrow().read(10).workers().get(0);
		assertThat(worker.state()).isEqualTo(WorkerState.HELD);
		assertThat(worker.highWaterMarkMillis()).isEqualTo(1_760_000_000_000L);
		assertThat(holder.fleet().orElseThrow().history(workerId).claims()).singleElement()
			.extracting(WorkerClaim::end)
			.isEqualTo(ClaimEnd.OPEN);
	}

	/** A holder whose session ended is closed as expired by the next claim, no later than that claim. */
	@Test
	void aClaimWhoseSessionEndedIsClosedAsExpiredNoLaterThanTheNextClaim() {
		try (ThrowawayZooKeeper zooKeeper = ThrowawayZooKeeper.start(Duration.ofMillis(100));
				CuratorFramework holderClient = zooKeeper.newClient(Duration.ofSeconds(10));
				CuratorFramework otherClient = zooKeeper.newClient(Duration.ofSeconds(10))) {
			ZookeeperWorkerIdAssigner holder = assigner(holderClient, "ended", "holder");
			long workerId = holder.assign(MAX_WORKER_ID).workerId();
			holder.renew(workerId, 1_760_000_000_000L);
			zooKeeper.expireSession(holderClient);

			ZookeeperWorkerIdAssigner next = assigner(otherClient, "ended", "next");
			assertThat(next.assign(MAX_WORKER_ID).workerId()).isEqualTo(workerId);
			ClaimHistory history = next.fleet().orElseThrow().history(workerId);
			assertThat(history.claims()).extracting(WorkerClaim::instanceId).containsExactly("next", "holder");
			WorkerClaim ended = history.claims().get(1);
			assertThat(ended.end()).isEqualTo(ClaimEnd.EXPIRED);
			assertThat(ended.to()).as("not the lease's expiry a minute on").isBeforeOrEqualTo(history.claims().get(0).from());
		}
	}

	/**
	 * A namespace written by a version that kept no history: its records are listed without host and claim time, its
	 * release writes no history, and the history starts with the next claim.
	 */
	@Test
	void aNamespaceWrittenBeforeHistoryWasKeptStartsItWithTheNextClaim() throws Exception {
		String namespace = TestRedis.uniqueNamespace("before-history");
		this.client.create().creatingParentsIfNeeded().forPath("/uid/" + namespace + "/workers/0",
				"format=1\ninstance=old\ntoken=\nlease=60000\nmark=1760000000000\n".getBytes(StandardCharsets.UTF_8));
		ZookeeperWorkerIdAssigner reader = assigner(this.client, namespace, "reader");
		FleetWorker old = reader.fleet().orElseThrow().read(10).workers().get(0);
		assertThat(old.state()).isEqualTo(WorkerState.RELEASED);
		assertThat(old.instanceId()).isEqualTo("old");
		assertThat(old.host()).isNull();
		assertThat(old.heldSince()).isNull();
		assertThat(old.highWaterMarkMillis()).isEqualTo(1_760_000_000_000L);
		assertThat(reader.fleet().orElseThrow().history(0).claims()).isEmpty();

		ZookeeperWorkerIdAssigner next = assigner(this.client, namespace, "next");
		assertThat(next.assign(MAX_WORKER_ID).workerId()).isZero();
		assertThat(reader.fleet().orElseThrow().history(0).claims()).singleElement().satisfies((claim) -> {
			assertThat(claim.instanceId()).isEqualTo("next");
			assertThat(claim.afterMarkMillis()).isEqualTo(1_760_000_000_000L);
		});
		FleetWorker held = reader.fleet().orElseThrow().read(10).workers().get(0);
		assertThat(held.host()).isNotBlank();
		assertThat(held.heldSince()).isEqualTo(reader.fleet().orElseThrow().history(0).claims().get(0).from());
	}

}
