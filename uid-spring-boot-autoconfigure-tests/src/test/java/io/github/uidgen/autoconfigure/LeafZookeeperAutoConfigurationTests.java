package io.github.uidgen.autoconfigure;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.UUID;

import io.github.uidgen.snowflake.AbstractUidGenerator;
import io.github.uidgen.migration.LeafLayout;
import io.github.uidgen.testsupport.ThrowawayZooKeeper;
import io.github.uidgen.worker.zookeeper.LeafNodeWorkerIdAssigner;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static io.github.uidgen.autoconfigure.InvalidConfigurationTests.assertFailure;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@code uid.worker.zookeeper.mode=leaf} with {@code uid.layout-preset=leaf}, against a ZooKeeper server
 * of the test's own holding trees laid out as Leaf servers leave them: the worker ID of this ip:port's node in Leaf's
 * layout, and start-up failures that name the property, the node and the fix.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LeafZookeeperAutoConfigurationTests {

	private ThrowawayZooKeeper zooKeeper;

	private CuratorFramework client;

	private ApplicationContextRunner contextRunner;

	@BeforeAll
	void startServer() {
		this.zooKeeper = ThrowawayZooKeeper.start();
		this.client = this.zooKeeper.newClient(Duration.ofSeconds(30));
		this.contextRunner = new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(StaticWorkerIdAssignerAutoConfiguration.class,
					ZookeeperWorkerIdAssignerAutoConfiguration.class, UidGeneratorAutoConfiguration.class))
			.withPropertyValues("uid.worker.assigner=zookeeper", "uid.worker.zookeeper.mode=leaf",
					"uid.layout-preset=leaf", "uid.worker.zookeeper.connect-string=" + this.zooKeeper.connectString(),
					"uid.worker.zookeeper.leaf.ip=10.1.0.2");
	}

	@AfterAll
	void stopServer() {
		this.client.close();
		this.zooKeeper.close();
	}

	/** Leaves Leaf's tree with nodes for 10.1.0.1:8080 and 10.1.0.2:8080, the second reported a while ago. */
	private String leafTree(byte[] secondData) throws Exception {
		String leafName = "com.example.leaf-" + UUID.randomUUID().toString().substring(0, 8);
		String forever = "/snowflake/" + leafName + "/forever";
		long old = System.currentTimeMillis() - 30_000;
		this.client.create()
			.creatingParentsIfNeeded()
			.withMode(CreateMode.PERSISTENT_SEQUENTIAL)
			.forPath(forever + "/10.1.0.1:8080-", json("10.1.0.1", old));
		this.client.create().withMode(CreateMode.PERSISTENT_SEQUENTIAL).forPath(forever + "/10.1.0.2:8080-", secondData);
		return leafName;
	}

	private static byte[] json(String ip, long timestamp) {
		return ("{\"ip\":\"" + ip + "\",\"port\":\"8080\",\"timestamp\":" + timestamp + "}")
			.getBytes(StandardCharsets.UTF_8);
	}

	@Test
	void theWorkerIdOfThisIpPortsNodeInLeafsLayout() throws Exception {
		String leafName = leafTree(json("10.1.0.2", System.currentTimeMillis() - 30_000));
		this.contextRunner.withPropertyValues("uid.worker.zookeeper.leaf.name=" + leafName, "server.port=8080")
			.run((context) -> {
				assertThat(context).hasSingleBean(LeafNodeWorkerIdAssigner.class);
				AbstractUidGenerator generator = context.getBean(StartingUidGenerator.class).awaitStarted();
				assertThat(generator.layout()).isEqualTo(LeafLayout.layout());
				assertThat(generator.status().worker().id()).isEqualTo(1);
				assertThat(generator.status().worker().assigner()).isEqualTo("zookeeper-leaf");
				long before = System.currentTimeMillis();
				long id = generator.getUID();
				long after = System.currentTimeMillis();
				assertThat((id >> 12) ^ (id >> 22 << 10)).as("Leaf's own decode").isEqualTo(1);
				assertThat((id >> 22) + 1288834974657L).isBetween(before - 5_000, after + 5_000);
			});
	}

	@Test
	void leafsModeNeedsLeafsLayoutAndThePresetTheWholeLayout() {
		assertFailure(this.contextRunner.withPropertyValues("uid.layout-preset="), (analysis) -> {
			assertThat(analysis.getDescription()).contains("Property: uid.layout-preset").contains("Value: (not set)");
			assertThat(analysis.getAction()).contains("Set uid.layout-preset=leaf");
		}, "uid.worker.zookeeper.leaf.name=any", "uid.worker.zookeeper.leaf.port=8080");
		assertFailure(this.contextRunner, (analysis) -> {
			assertThat(analysis.getDescription()).contains("conflicts with uid.layout-preset=leaf")
				.contains("Property: uid.worker-bits")
				.contains("Value: 8");
			assertThat(analysis.getAction()).contains("Remove uid.worker-bits");
		}, "uid.worker.zookeeper.leaf.name=any", "uid.worker.zookeeper.leaf.port=8080", "uid.worker-bits=8");
		assertFailure(this.contextRunner, (analysis) -> {
			assertThat(analysis.getDescription()).contains("Property: uid.datacenter-bits").contains("Value: 2");
			assertThat(analysis.getAction()).contains("Remove uid.datacenter-bits");
		}, "uid.worker.zookeeper.leaf.name=any", "uid.worker.zookeeper.leaf.port=8080", "uid.datacenter-bits=2",
				"uid.datacenter-id=1");
	}

	@Test
	void aMissingNameOrPortIsNamed() {
		assertFailure(this.contextRunner, (analysis) -> {
			assertThat(analysis.getDescription()).contains("Property: uid.worker.zookeeper.leaf.name");
			assertThat(analysis.getAction()).contains("leaf.name of the Leaf servers");
		}, "uid.worker.zookeeper.leaf.port=8080");
		assertFailure(this.contextRunner, (analysis) -> {
			assertThat(analysis.getDescription()).contains("Property: uid.worker.zookeeper.leaf.port");
			assertThat(analysis.getAction()).contains("leaf.snowflake.port");
		}, "uid.worker.zookeeper.leaf.name=any");
		assertFailure(this.contextRunner, (analysis) -> {
			assertThat(analysis.getDescription()).contains("Property: uid.worker.zookeeper.leaf.port")
				.contains("Value: 70000");
		}, "uid.worker.zookeeper.leaf.name=any", "uid.worker.zookeeper.leaf.port=70000");
		assertFailure(this.contextRunner, (analysis) -> {
			assertThat(analysis.getDescription()).contains("Property: uid.worker.claim-history").contains("Value: 0");
		}, "uid.worker.zookeeper.leaf.name=any", "uid.worker.zookeeper.leaf.port=8080", "uid.worker.claim-history=0");
	}

	@Test
	void aLeafNameWithoutATreeANodeThatIsNotLeafsAndANodeAheadOfTheClockFailNamingTheNode() throws Exception {
		assertFailure(this.contextRunner, (analysis) -> {
			assertThat(analysis.getDescription()).contains("There is no Leaf snowflake tree at /snowflake/nowhere/forever")
				.contains("Property: uid.worker.zookeeper.leaf.name")
				.contains("Value: nowhere");
			assertThat(analysis.getAction()).contains("uid.worker.zookeeper.mode to lease");
		}, "uid.worker.zookeeper.leaf.name=nowhere", "uid.worker.zookeeper.leaf.port=8080");
		String notLeafs = leafTree("workerId=1".getBytes(StandardCharsets.UTF_8));
		assertFailure(this.contextRunner, (analysis) -> {
			assertThat(analysis.getDescription()).contains("/snowflake/" + notLeafs + "/forever/10.1.0.2:8080-0000000001"
					+ " holds workerId=1, which is not Leaf's JSON");
		}, "uid.worker.zookeeper.leaf.name=" + notLeafs, "uid.worker.zookeeper.leaf.port=8080");
		String ahead = leafTree(json("10.1.0.2", System.currentTimeMillis() + 120_000));
		assertFailure(this.contextRunner, (analysis) -> {
			assertThat(analysis.getDescription()).contains("ms ahead of this host's clock")
				.contains("further than a start waits for it (10000 ms")
				.contains("Property: uid.mark.max-startup-wait")
				.contains("Value: 10s");
			assertThat(analysis.getAction()).contains("/snowflake/" + ahead + "/forever/10.1.0.2:8080-0000000001")
				.contains("raise uid.mark.max-startup-wait");
		}, "uid.worker.zookeeper.leaf.name=" + ahead, "uid.worker.zookeeper.leaf.port=8080",
				"uid.mark.max-startup-wait=10s");
	}

}
