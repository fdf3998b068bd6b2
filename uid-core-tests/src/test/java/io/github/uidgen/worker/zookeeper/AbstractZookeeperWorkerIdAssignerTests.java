package io.github.uidgen.worker.zookeeper;

import java.time.Duration;

import org.apache.curator.framework.CuratorFramework;

/**
 * What the ZooKeeper assigner's test classes share: the range of worker IDs they claim from and the assigner they
 * build, with a lease of 60 s and a connection timeout of 2 s. Each class starts the servers it needs.
 */
abstract class AbstractZookeeperWorkerIdAssignerTests {

	static final long MAX_WORKER_ID = 1023;

	static final Duration LEASE = Duration.ofSeconds(60);

	static ZookeeperWorkerIdAssigner assigner(CuratorFramework client, String namespace, String instanceId) {
		return ZookeeperWorkerIdAssigner.builder(client)
			.namespace(namespace)
			.leaseDuration(LEASE)
			.instanceId(instanceId)
			.connectionTimeout(Duration.ofSeconds(2))
			.build();
	}

}
