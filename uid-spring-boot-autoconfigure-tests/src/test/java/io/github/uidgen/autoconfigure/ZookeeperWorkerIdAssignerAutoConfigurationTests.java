package io.github.uidgen.autoconfigure;

import java.time.Duration;
import java.util.Arrays;
import java.util.UUID;

import io.github.uidgen.snowflake.AbstractUidGenerator;
import io.github.uidgen.testsupport.ServerProcess;
import io.github.uidgen.testsupport.ThrowawayZooKeeper;
import io.github.uidgen.worker.FixedWorkerIdAssigner;
import io.github.uidgen.worker.WorkerIdAssigner;
import io.github.uidgen.worker.zookeeper.ZookeeperWorkerIdAssigner;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.imps.CuratorFrameworkState;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static io.github.uidgen.autoconfigure.InvalidConfigurationTests.assertFailure;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link ZookeeperWorkerIdAssignerAutoConfiguration} against a ZooKeeper server of the test's own, with
 * the client uid builds from {@code uid.worker.zookeeper.*} or the application's own. Each test uses a namespace of
 * its own.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ZookeeperWorkerIdAssignerAutoConfigurationTests {

	private ThrowawayZooKeeper zooKeeper;

	private ApplicationContextRunner contextRunner;

	@BeforeAll
	void startServer() {
		this.zooKeeper = ThrowawayZooKeeper.start();
		this.contextRunner = new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(StaticWorkerIdAssignerAutoConfiguration.class,
					JdbcWorkerIdAssignerAutoConfiguration.class, RedisWorkerIdAssignerAutoConfiguration.class,
					ZookeeperWorkerIdAssignerAutoConfiguration.class, UidGeneratorAutoConfiguration.class))
			.withPropertyValues("uid.worker.assigner=zookeeper",
					"uid.worker.zookeeper.connect-string=" + this.zooKeeper.connectString());
	}

	@AfterAll
	void stopServer() {
		this.zooKeeper.close();
	}

	private static String namespace() {
		return "uid.worker.zookeeper.namespace=ac-" + UUID.randomUUID().toString().substring(0, 8);
	}

	@Test
	void instancesClaimDifferentWorkerIdsThroughTheClientBuiltFromProperties() {
		ApplicationContextRunner runner = this.contextRunner.withPropertyValues(namespace());
		runner.withPropertyValues("uid.worker.instance-id=first").run((first) -> {
			assertThat(first).hasSingleBean(ZookeeperWorkerIdAssigner.class).hasSingleBean(CuratorFramework.class);
			AbstractUidGenerator one = first.getBean(StartingUidGenerator.class).awaitStarted();
			assertThat(one.status().worker().assigner()).isEqualTo("zookeeper");
			assertThat(one.decode(one.getUID()).workerId()).isEqualTo(one.status().worker().id());
			runner.withPropertyValues("uid.worker.instance-id=second", "uid.generator=cached").run((second) -> {
				AbstractUidGenerator two = second.getBean(StartingUidGenerator.class).awaitStarted();
				assertThat(two.status().worker().id()).isNotEqualTo(one.status().worker().id());
			});
		});
	}

	@Test
	void restartedInstanceGetsItsWorkerIdBackAndTheClientIsClosedOnShutdown() {
		ApplicationContextRunner runner = this.contextRunner.withPropertyValues(namespace(),
				"uid.worker.instance-id=restarted");
		long[] workerIds = new long[2];
		CuratorFramework[] clients = new CuratorFramework[2];
		for (int i = 0; i < 2; i++) {
			int run = i;
			runner.run((context) -> {
				workerIds[run] = context.getBean(StartingUidGenerator.class).awaitStarted().status().worker().id();
				clients[run] = context.getBean(CuratorFramework.class);
				assertThat(clients[run].getState()).isEqualTo(CuratorFrameworkState.STARTED);
			});
		}
		assertThat(workerIds[1]).isEqualTo(workerIds[0]);
		assertThat(clients).allSatisfy((client) -> assertThat(client.getState())
			.isEqualTo(CuratorFrameworkState.STOPPED));
	}

	@Test
	void settingsComeFromProperties() {
		this.contextRunner
			.withPropertyValues("uid.worker.zookeeper.root-path=/services/ids", "uid.worker.zookeeper.namespace=orders",
					"uid.worker.zookeeper.lease-duration=12s", "uid.worker.zookeeper.heartbeat-interval=3s",
					"uid.worker.zookeeper.connection-timeout=7s", "uid.worker.zookeeper.session-timeout=20s",
					"uid.worker.instance-id=configured")
			.run((context) -> {
				ZookeeperWorkerIdAssigner assigner = context.getBean(ZookeeperWorkerIdAssigner.class);
				assertThat(assigner.getRootPath()).isEqualTo("/services/ids");
				assertThat(assigner.getNamespace()).isEqualTo("orders");
				assertThat(assigner.getBasePath()).isEqualTo("/services/ids/orders");
				assertThat(assigner.getLeaseDuration()).isEqualTo(Duration.ofSeconds(12));
				assertThat(assigner.getHeartbeatInterval()).isEqualTo(Duration.ofSeconds(3));
				assertThat(assigner.getConnectionTimeout()).isEqualTo(Duration.ofSeconds(7));
				assertThat(assigner.getInstanceId()).isEqualTo("configured");
				CuratorFramework client = context.getBean(CuratorFramework.class);
				assertThat(client.getZookeeperClient().getCurrentConnectionString())
					.isEqualTo(this.zooKeeper.connectString());
				assertThat(client.getZookeeperClient().getConnectionTimeoutMs()).isEqualTo(7_000);
				assertThat(client.getZookeeperClient().getZooKeeper().getSessionTimeout()).isEqualTo(20_000);
			});
	}

	@Test
	void defaultInstanceIdIncludesTheServerPortSoRestartsReclaimTheirWorkerId() {
		this.contextRunner.withPropertyValues(namespace(), "server.port=8125")
			.run((context) -> assertThat(context.getBean(ZookeeperWorkerIdAssigner.class).getInstanceId())
				.endsWith(":8125"));
	}

	@Test
	void applicationsCuratorFrameworkIsUsed() {
		try (CuratorFramework own = this.zooKeeper.newClient(Duration.ofSeconds(30))) {
			this.contextRunner.withPropertyValues(namespace(), "uid.worker.zookeeper.connect-string=127.0.0.1:1")
				.withBean(CuratorFramework.class, () -> own)
				.run((context) -> {
					assertThat(context).hasSingleBean(CuratorFramework.class);
					assertThat(context.getBean(CuratorFramework.class)).isSameAs(own);
					assertThat(context.getBean(StartingUidGenerator.class).awaitStarted().status().worker().assigner()).isEqualTo("zookeeper");
				});
		}
	}

	@Test
	void applicationsAssignerWins() {
		FixedWorkerIdAssigner own = new FixedWorkerIdAssigner(2);
		this.contextRunner.withBean(WorkerIdAssigner.class, () -> own).run((context) -> {
			assertThat(context).doesNotHaveBean(ZookeeperWorkerIdAssigner.class);
			assertThat(context.getBean(WorkerIdAssigner.class)).isSameAs(own);
		});
	}

	@Test
	void everyWorkerIdLeased() {
		// One worker bit: two instances take both worker IDs, a third finds none.
		String[] small = { "uid.worker.assigner=zookeeper",
				"uid.worker.zookeeper.connect-string=" + this.zooKeeper.connectString(), "uid.worker-bits=1",
				namespace() };
		ApplicationContextRunner runner = this.contextRunner.withPropertyValues(small);
		runner.withPropertyValues("uid.worker.instance-id=a")
			.run((a) -> runner.withPropertyValues("uid.worker.instance-id=b")
				.run((b) -> assertFailure(runner, (analysis) -> {
					assertThat(analysis.getDescription()).contains("found no worker ID from 0 to 1")
						.contains("2 live leases")
						.contains("Property: uid.worker-bits");
					assertThat(analysis.getAction()).contains("Raise uid.worker-bits");
				}, concat(small, "uid.worker.instance-id=c"))));
	}

	@Test
	void unreachableZooKeeper() {
		String connectString = "127.0.0.1:" + ServerProcess.freePort();
		assertFailure(this.contextRunner, (analysis) -> {
			assertThat(analysis.getDescription()).contains("Cannot reach ZooKeeper at " + connectString)
				.contains("Property: uid.worker.zookeeper.connect-string")
				.contains("Value: " + connectString);
			assertThat(analysis.getAction()).contains("uid.worker.zookeeper.connect-string");
		}, "uid.worker.assigner=zookeeper", "uid.worker.zookeeper.connect-string=" + connectString,
				"uid.worker.zookeeper.connection-timeout=1s", "uid.worker.store-wait-at-start=0");
	}

	@Test
	void blankConnectString() {
		assertFailure(this.contextRunner, (analysis) -> {
			assertThat(analysis.getDescription()).contains("Property: uid.worker.zookeeper.connect-string");
			assertThat(analysis.getAction()).contains("host:port");
		}, "uid.worker.assigner=zookeeper", "uid.worker.zookeeper.connect-string= ");
	}

	@Test
	void zeroSessionTimeout() {
		assertFailure(this.contextRunner, (analysis) -> {
			assertThat(analysis.getDescription()).contains("Property: uid.worker.zookeeper.session-timeout")
				.contains("Value: PT0S");
			assertThat(analysis.getAction()).contains("positive duration");
		}, "uid.worker.assigner=zookeeper", "uid.worker.zookeeper.session-timeout=0s");
	}

	@Test
	void relativeRootPath() {
		assertFailure(this.contextRunner, (analysis) -> {
			assertThat(analysis.getDescription()).contains("Property: uid.worker.zookeeper.root-path")
				.contains("Value: uid");
			assertThat(analysis.getAction()).contains("Change uid.worker.zookeeper.root-path");
		}, "uid.worker.assigner=zookeeper", "uid.worker.zookeeper.root-path=uid");
	}

	@Test
	void namespaceWithASlash() {
		assertFailure(this.contextRunner, (analysis) -> {
			assertThat(analysis.getDescription()).contains("Property: uid.worker.zookeeper.namespace")
				.contains("Value: orders/eu");
		}, "uid.worker.assigner=zookeeper", "uid.worker.zookeeper.namespace=orders/eu");
	}

	@Test
	void withoutCuratorTheZookeeperAssignerIsNotConfigured() {
		assertFailure(this.contextRunner.withClassLoader(new FilteredClassLoader(CuratorFramework.class)),
				(analysis) -> {
					assertThat(analysis.getDescription()).contains("needs Apache Curator").contains("Value: zookeeper");
					assertThat(analysis.getAction()).contains("curator-framework");
				}, "uid.worker.assigner=zookeeper");
	}

	private static String[] concat(String[] properties, String more) {
		String[] all = Arrays.copyOf(properties, properties.length + 1);
		all[properties.length] = more;
		return all;
	}

}
