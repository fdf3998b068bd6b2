package io.github.uidgen.autoconfigure;

import java.time.Duration;

import io.github.uidgen.worker.WorkerIdAssigner;
import io.github.uidgen.worker.zookeeper.LeafNodeWorkerIdAssigner;
import io.github.uidgen.worker.zookeeper.ZookeeperWorkerIdAssigner;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.util.StringUtils;

import static io.github.uidgen.autoconfigure.UidPropertyMapper.map;

/**
 * Auto-configures the zookeeper worker-ID assigner, chosen by {@code uid.worker.assigner=zookeeper}: on the
 * application's {@link CuratorFramework} when it has one, else on a client built from
 * {@code uid.worker.zookeeper.*}, started here and closed on shutdown (after the generator released its worker ID).
 * {@code uid.worker.zookeeper.mode} chooses uid's own leases or Meituan Leaf's worker nodes.
 */
@AutoConfiguration(afterName = "org.springframework.cloud.zookeeper.ZookeeperAutoConfiguration")
@ConditionalOnBooleanProperty(name = "uid.enabled", matchIfMissing = true)
@ConditionalOnClass(CuratorFramework.class)
@ConditionalOnProperty(name = "uid.worker.assigner", havingValue = "zookeeper")
@EnableConfigurationProperties(UidProperties.class)
public final class ZookeeperWorkerIdAssignerAutoConfiguration {

	private static final String PREFIX = "uid.worker.zookeeper.";

	@Bean(destroyMethod = "close")
	@ConditionalOnMissingBean(CuratorFramework.class)
	CuratorFramework uidCuratorFramework(UidProperties properties) {
		UidWorkerZookeeperProperties zookeeper = properties.getWorker().getZookeeper();
		String connectString = zookeeper.getConnectString();
		if (!StringUtils.hasText(connectString)) {
			throw new UidPropertyException(PREFIX + "connect-string", connectString,
					"The zookeeper worker-ID assigner needs the address of a ZooKeeper ensemble.",
					"Set " + PREFIX + "connect-string to its host:port pairs, for example zk1:2181,zk2:2181,zk3:2181.");
		}
		CuratorFramework client = CuratorFrameworkFactory.builder()
			.connectString(connectString.strip())
			.sessionTimeoutMs(millis("session-timeout", zookeeper.getSessionTimeout()))
			.connectionTimeoutMs(millis("connection-timeout", zookeeper.getConnectionTimeout()))
			.retryPolicy(new ExponentialBackoffRetry(200, 3))
			.build();
		client.start();
		return client;
	}

	/** uid's own reusable leases, {@code uid.worker.zookeeper.mode=lease}, the default. */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnProperty(name = "uid.worker.zookeeper.mode", havingValue = "lease", matchIfMissing = true)
	static class LeaseMode {

		@Bean
		@ConditionalOnMissingBean(WorkerIdAssigner.class)
		ZookeeperWorkerIdAssigner zookeeperWorkerIdAssigner(UidProperties properties,
				ObjectProvider<CuratorFramework> client, Environment environment) {
			UidWorkerZookeeperProperties zookeeper = properties.getWorker().getZookeeper();
			ZookeeperWorkerIdAssigner.Builder builder = ZookeeperWorkerIdAssigner.builder(client.getObject())
				.port(environment.getProperty("server.port"));
			map(PREFIX + "root-path", zookeeper.getRootPath(), builder::rootPath);
			map(PREFIX + "namespace", zookeeper.getNamespace(), builder::namespace);
			map(PREFIX + "connection-timeout", zookeeper.getConnectionTimeout(), builder::connectionTimeout);
			// The lease duration first: the heartbeat interval is checked against it.
			map(PREFIX + "lease-duration", zookeeper.getLeaseDuration(), builder::leaseDuration);
			map(PREFIX + "heartbeat-interval", zookeeper.getHeartbeatInterval(), builder::heartbeatInterval);
			map("uid.worker.instance-id", properties.getWorker().getInstanceId(), builder::instanceId);
			map("uid.worker.claim-history", properties.getWorker().getClaimHistory(), builder::claimHistory);
			return builder.build();
		}

	}

	/**
	 * The worker ID Meituan Leaf gave this host's ip:port, {@code uid.worker.zookeeper.mode=leaf}; only with Leaf's
	 * layout, so that uid's IDs and those of the Leaf servers still running share one space.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnProperty(name = "uid.worker.zookeeper.mode", havingValue = "leaf")
	static class LeafMode {

		@Bean
		@ConditionalOnMissingBean(WorkerIdAssigner.class)
		LeafNodeWorkerIdAssigner leafNodeWorkerIdAssigner(UidProperties properties,
				ObjectProvider<CuratorFramework> client, Environment environment) {
			if (properties.getLayoutPreset() != UidProperties.LayoutPreset.LEAF) {
				throw new UidPropertyException("uid.layout-preset", properties.getLayoutPreset(),
						"uid.worker.zookeeper.mode=leaf continues Leaf's worker nodes, whose worker IDs belong to IDs "
								+ "in Leaf's layout; in another layout uid's IDs could repeat IDs the Leaf servers "
								+ "issued.",
						"Set uid.layout-preset=leaf (and leave uid.time-unit, uid.epoch and the bits unset).");
			}
			if (properties.getDatacenterBits() != 0) {
				throw new UidPropertyException("uid.datacenter-bits", properties.getDatacenterBits(),
						"uid.worker.zookeeper.mode=leaf takes worker IDs that fill all 10 worker bits of Leaf's layout, "
								+ "as the Leaf servers use them; a data-center part in those bits would move uid's IDs "
								+ "onto the worker IDs of other Leaf servers.",
						"Remove uid.datacenter-bits and uid.datacenter-id (Leaf's nodes already differ per ip:port).");
			}
			UidWorkerZookeeperProperties zookeeper = properties.getWorker().getZookeeper();
			UidWorkerZookeeperLeafProperties leaf = zookeeper.getLeaf();
			LeafNodeWorkerIdAssigner.Builder builder = LeafNodeWorkerIdAssigner.builder(client.getObject());
			map(PREFIX + "leaf.name", leaf.getName(), builder::leafName);
			map(PREFIX + "leaf.ip", leaf.getIp(), builder::ip);
			Integer port = (leaf.getPort() != null) ? leaf.getPort()
					: environment.getProperty("server.port", Integer.class);
			if (port == null) {
				throw new UidPropertyException(PREFIX + "leaf.port", null,
						"uid.worker.zookeeper.mode=leaf needs the port this host's Leaf node is named after, and "
								+ "neither it nor server.port is set.",
						"Set " + PREFIX + "leaf.port to the leaf.snowflake.port of the Leaf server this instance "
								+ "replaces.");
			}
			map(leaf.getPort() != null ? PREFIX + "leaf.port" : "server.port", port, builder::port);
			map(PREFIX + "connection-timeout", zookeeper.getConnectionTimeout(), builder::connectionTimeout);
			map("uid.worker.instance-id", properties.getWorker().getInstanceId(), builder::instanceId);
			map("uid.worker.claim-history", properties.getWorker().getClaimHistory(), builder::claimHistory);
			return UidPropertyMapper.apply(PREFIX + "leaf.ip", leaf.getIp(), (ip) -> builder.build());
		}

	}

	private static int millis(String property, Duration duration) {
		if (duration == null || duration.isNegative() || duration.isZero() || duration.toMillis() > Integer.MAX_VALUE) {
			throw new UidPropertyException(PREFIX + property, duration, "A ZooKeeper timeout must be positive.",
					"Set " + PREFIX + property + " to a positive duration, for example 30s.");
		}
		return (int) duration.toMillis();
	}

}
