package io.github.uidgen.test.assigners;

import java.time.Duration;

import io.github.uidgen.test.AbstractLeaseWorkerIdAssignerContractTests;
import io.github.uidgen.test.WorkerFleetContract;
import io.github.uidgen.testsupport.TestRedis;
import io.github.uidgen.testsupport.ThrowawayZooKeeper;
import io.github.uidgen.worker.WorkerIdAssigner;
import io.github.uidgen.worker.zookeeper.ZookeeperWorkerIdAssigner;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.TestInstance;

/**
 * The lease contract on a ZooKeeper server of the test's own, each test in a fresh namespace of its own. All
 * assigners share one client, hence one session: a holder that "crashed" keeps its lease znode, so its worker ID
 * frees up only by lease expiry, as the contract demands.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ZookeeperWorkerIdAssignerContractTests extends AbstractLeaseWorkerIdAssignerContractTests {

	private ThrowawayZooKeeper zooKeeper;

	private CuratorFramework client;

	private String namespace;

	@BeforeAll
	void startServer() {
		this.zooKeeper = ThrowawayZooKeeper.start();
		this.client = this.zooKeeper.newClient(Duration.ofSeconds(30));
	}

	@BeforeEach
	void newNamespace() {
		this.namespace = TestRedis.uniqueNamespace("contract");
	}

	@AfterAll
	void stopServer() {
		this.client.close();
		this.zooKeeper.close();
	}

	@Override
	protected WorkerIdAssigner newAssigner(String instanceId, Duration lease) {
		return ZookeeperWorkerIdAssigner.builder(this.client)
			.namespace(this.namespace)
			.leaseDuration(lease)
			.instanceId(instanceId)
			.build();
	}

	/** The fleet and the claim history, on the same server and a fresh namespace per test. */
	@Nested
	class Fleet extends WorkerFleetContract {

		@Override
		protected WorkerIdAssigner newAssigner(String instanceId, Duration lease, int claimHistory) {
			return ZookeeperWorkerIdAssigner.builder(ZookeeperWorkerIdAssignerContractTests.this.client)
				.namespace(ZookeeperWorkerIdAssignerContractTests.this.namespace)
				.leaseDuration(lease)
				.instanceId(instanceId)
				.claimHistory(claimHistory)
				.build();
		}

	}

}
