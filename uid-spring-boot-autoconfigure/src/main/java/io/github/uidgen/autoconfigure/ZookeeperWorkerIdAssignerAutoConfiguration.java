package io.github.uidgen.autoconfigure;

import java.time.Duration;

import io.github.uidgen.autoconfigure.UidProperties.Worker.Zookeeper;
import io.github.uidgen.worker.WorkerIdAssigner;
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
import org.springframework.core.env.Environment;
import org.springframework.util.StringUtils;

import static io.github.uidgen.autoconfigure.UidPropertyMapper.map;

/**
 * Auto-configures the zookeeper worker-ID assigner, chosen by {@code uid.worker.assigner=zookeeper}: on the
 * application's {@link CuratorFramework} when it has one, else on a client built from
 * {@code uid.worker.zookeeper.*}, started here and closed on shutdown (after the generator released its worker ID).
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
		Zookeeper zookeeper = properties.getWorker().getZookeeper();
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

	@Bean
	@ConditionalOnMissingBean(WorkerIdAssigner.class)
	ZookeeperWorkerIdAssigner zookeeperWorkerIdAssigner(UidProperties properties,
			ObjectProvider<CuratorFramework> client, Environment environment) {
		Zookeeper zookeeper = properties.getWorker().getZookeeper();
		ZookeeperWorkerIdAssigner.Builder builder = ZookeeperWorkerIdAssigner.builder(client.getObject())
			.port(environment.getProperty("server.port"));
		map(PREFIX + "root-path", zookeeper.getRootPath(), builder::rootPath);
		map(PREFIX + "namespace", zookeeper.getNamespace(), builder::namespace);
		map(PREFIX + "connection-timeout", zookeeper.getConnectionTimeout(), builder::connectionTimeout);
		// The lease duration first: the heartbeat interval is checked against it.
		map(PREFIX + "lease-duration", zookeeper.getLeaseDuration(), builder::leaseDuration);
		map(PREFIX + "heartbeat-interval", zookeeper.getHeartbeatInterval(), builder::heartbeatInterval);
		map("uid.worker.instance-id", properties.getWorker().getInstanceId(), builder::instanceId);
		return builder.build();
	}

	private static int millis(String property, Duration duration) {
		if (duration == null || duration.isNegative() || duration.isZero() || duration.toMillis() > Integer.MAX_VALUE) {
			throw new UidPropertyException(PREFIX + property, duration, "A ZooKeeper timeout must be positive.",
					"Set " + PREFIX + property + " to a positive duration, for example 30s.");
		}
		return (int) duration.toMillis();
	}

}
