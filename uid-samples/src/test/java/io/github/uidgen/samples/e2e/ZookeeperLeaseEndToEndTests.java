package io.github.uidgen.samples.e2e;

import java.time.Duration;
import java.util.List;

import io.github.uidgen.testsupport.ThrowawayZooKeeper;

/**
 * The {@code zookeeper} profile: worker IDs leased from a ZooKeeper server this test starts for itself on a spare
 * loopback port, in a namespace of the run's own.
 */
class ZookeeperLeaseEndToEndTests extends LeaseAssignerEndToEndTests {

	private ThrowawayZooKeeper zooKeeper;

	ZookeeperLeaseEndToEndTests() {
		super("zookeeper");
	}

	@Override
	void prepareStore(String runId) {
		this.zooKeeper = ThrowawayZooKeeper.start();
	}

	@Override
	List<String> storeArguments(String runId, Duration lease) {
		return List.of("--uid.worker.zookeeper.connect-string=" + this.zooKeeper.connectString(),
				"--uid.worker.zookeeper.namespace=" + runId,
				"--uid.worker.zookeeper.lease-duration=" + lease.toSeconds() + "s");
	}

	@Override
	String expectedAssigner() {
		return "zookeeper";
	}

	@Override
	void removeStore(String runId) {
		if (this.zooKeeper != null) {
			this.zooKeeper.close();
		}
	}

}
