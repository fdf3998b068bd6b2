package io.github.uidgen.baseline;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * With {@code baseline.zookeeper.connect-string} set, the application has a Curator client, built and started as
 * uid's starter builds its own (session 30 s, connection timeout 2 s as the sample's zookeeper profile sets it), as
 * an application that uses ZooKeeper for configuration or discovery has: the start-up benchmark's baseline for what
 * a ZooKeeper client costs a start, uid aside.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty("baseline.zookeeper.connect-string")
class ZooKeeperClient {

	@Bean(destroyMethod = "close")
	CuratorFramework curatorFramework(@Value("${baseline.zookeeper.connect-string}") String connectString) {
		CuratorFramework client = CuratorFrameworkFactory.builder()
			.connectString(connectString)
			.sessionTimeoutMs(30_000)
			.connectionTimeoutMs(2_000)
			.retryPolicy(new ExponentialBackoffRetry(200, 3))
			.build();
		client.start();
		return client;
	}

}
