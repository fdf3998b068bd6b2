package io.github.uidgen.impl;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.github.uidgen.UidClock;
import io.github.uidgen.testsupport.Duplicates;
import io.github.uidgen.testsupport.ThrowawayZooKeeper;
import io.github.uidgen.worker.WorkerLeaseLostException;
import io.github.uidgen.worker.zookeeper.ZookeeperWorkerIdAssigner;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;

import static io.github.uidgen.impl.TestGenerators.LAYOUT;
import static io.github.uidgen.impl.TestGenerators.maxUnit;
import static io.github.uidgen.impl.TestGenerators.minUnit;
import static io.github.uidgen.impl.TestGenerators.take;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The ZooKeeper session of a cached generator running ahead of the clock ends: the generator stops at its next
 * renewal, the worker ID is free at once (its lease znode went with the session), and the instance that takes it
 * over starts after every ID the first one issued.
 */
class ZookeeperSessionLossTests {

	@Test
	void aGeneratorWhoseSessionEndedStopsAndTheNextHolderOfItsWorkerIdRepeatsNothing() throws Exception {
		try (ThrowawayZooKeeper zooKeeper = ThrowawayZooKeeper.start(Duration.ofMillis(100));
				CuratorFramework firstClient = zooKeeper.newClient(Duration.ofSeconds(10));
				CuratorFramework nextClient = zooKeeper.newClient(Duration.ofSeconds(10))) {
			AbstractUidGenerator before = TestGenerators.build(TestGenerators.Kind.CACHED,
					assigner(firstClient, "before"), UidClock.SYSTEM);
			AbstractUidGenerator after = null;
			try {
				long[] issuedBefore = take(before, 6_000);
				assertThat(LAYOUT.startMillis(maxUnit(issuedBefore))).as("borrowed ahead of the clock")
					.isGreaterThan(System.currentTimeMillis());

				zooKeeper.expireSession(firstClient);
				long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
				while (!(before.status().failure() instanceof WorkerLeaseLostException) && System.nanoTime() < deadline) {
					Thread.sleep(20);
				}
				assertThat(before.status().failure()).isInstanceOf(WorkerLeaseLostException.class)
					.hasMessageContaining("session");
				assertThatExceptionOfType(WorkerLeaseLostException.class).isThrownBy(before::getUID);

				after = TestGenerators.build(TestGenerators.Kind.CACHED, assigner(nextClient, "after"),
						UidClock.SYSTEM);
				assertThat(after.status().worker().id()).as("free long before its lease ran out")
					.isEqualTo(before.status().worker().id());
				long[] issuedAfter = take(after, 6_000);
				assertThat(minUnit(issuedAfter)).isGreaterThan(maxUnit(issuedBefore));
				assertThat(Duplicates.count(issuedBefore, issuedAfter)).isZero();
			}
			finally {
				before.close();
				if (after != null) {
					after.close();
				}
			}
		}
	}

	private static ZookeeperWorkerIdAssigner assigner(CuratorFramework client, String instanceId) {
		return ZookeeperWorkerIdAssigner.builder(client)
			.namespace("session-loss")
			.leaseDuration(Duration.ofSeconds(30))
			.heartbeatInterval(Duration.ofMillis(100))
			.instanceId(instanceId)
			.build();
	}

}
