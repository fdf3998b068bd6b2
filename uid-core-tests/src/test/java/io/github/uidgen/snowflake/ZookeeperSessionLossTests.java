package io.github.uidgen.snowflake;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.github.uidgen.UidClock;
import io.github.uidgen.UidUnavailableException;
import io.github.uidgen.testsupport.Duplicates;
import io.github.uidgen.testsupport.ReplyLosingProxy;
import io.github.uidgen.testsupport.ThrowawayZooKeeper;
import io.github.uidgen.worker.WorkerLeaseLostException;
import io.github.uidgen.worker.zookeeper.ZookeeperWorkerIdAssigner;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.junit.jupiter.api.Test;

import static io.github.uidgen.snowflake.TestGenerators.LAYOUT;
import static io.github.uidgen.snowflake.TestGenerators.maxUnit;
import static io.github.uidgen.snowflake.TestGenerators.minUnit;
import static io.github.uidgen.snowflake.TestGenerators.take;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * The ZooKeeper session of a cached generator running ahead of the clock ends: the generator stops at its next
 * renewal, the worker ID is free at once (its lease znode went with the session), and the instance that takes it
 * over starts after every ID the first one issued. A renewal whose reply is lost while the session lives on, by
 * contrast, costs the lease nothing.
 */
class ZookeeperSessionLossTests {

	@Test
	void aGeneratorWhoseSessionEndedClaimsAgainInANewSessionAndNobodyRepeatsAnId() throws Exception {
		try (ThrowawayZooKeeper zooKeeper = ThrowawayZooKeeper.start(Duration.ofMillis(100));
				CuratorFramework firstClient = zooKeeper.newClient(Duration.ofSeconds(10));
				CuratorFramework nextClient = zooKeeper.newClient(Duration.ofSeconds(10))) {
			AbstractUidGenerator before = TestGenerators.build(TestGenerators.Kind.CACHED,
					assigner(firstClient, "before"), UidClock.SYSTEM);
			AbstractUidGenerator after = null;
			try {
				long[] issuedBefore = take(before, 6_000);
				zooKeeper.expireSession(firstClient);
				// Seen lost, or already claimed again: a recovery quicker than a poll is one legal order.
				await().atMost(Duration.ofSeconds(30))
					.pollInterval(Duration.ofMillis(5))
					.until(() -> before.status().failure() instanceof WorkerLeaseLostException
							|| before.status().worker().recoveries() > 0);
				RedisRestoredFromSnapshotTests.awaitRecovered(before);
				after = TestGenerators.build(TestGenerators.Kind.CACHED, assigner(nextClient, "after"),
						UidClock.SYSTEM);
				long[] issuedAfter = take(after, 6_000);
				long[] issuedOnRecovery = take(before, 6_000);

				assertThat(before.status().worker().id()).isNotEqualTo(after.status().worker().id());
				assertThat(Duplicates.count(issuedBefore, issuedAfter, issuedOnRecovery)).isZero();
			}
			finally {
				before.close();
				if (after != null) {
					after.close();
				}
			}
		}
	}

	@Test
	void withReclaimOffAGeneratorWhoseSessionEndedStopsAndTheNextHolderOfItsWorkerIdRepeatsNothing() throws Exception {
		try (ThrowawayZooKeeper zooKeeper = ThrowawayZooKeeper.start(Duration.ofMillis(100));
				CuratorFramework firstClient = zooKeeper.newClient(Duration.ofSeconds(10));
				CuratorFramework nextClient = zooKeeper.newClient(Duration.ofSeconds(10))) {
			AbstractUidGenerator before = TestGenerators.build(TestGenerators.Kind.CACHED,
					assigner(firstClient, "before"), UidClock.SYSTEM, false);
			AbstractUidGenerator after = null;
			try {
				TestGenerators.Ahead ahead = TestGenerators.takeUntilAhead(before, 6_000);
				long[] issuedBefore = ahead.ids();
				assertThat(LAYOUT.startMillis(maxUnit(issuedBefore))).as("borrowed ahead of the clock")
					.isGreaterThan(ahead.clockMillis());

				zooKeeper.expireSession(firstClient);
				await().atMost(Duration.ofSeconds(30))
					.until(() -> before.status().failure() instanceof WorkerLeaseLostException);
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

	/**
	 * The network fails between ZooKeeper and the holder just after the server applied a renewal (and the retries
	 * Curator makes of it): the holder sees ConnectionLoss, and its next renewal, carrying a newer mark, finds the
	 * version moved on by its own write. The token and the session are still this instance's, so it carries on. A
	 * renewal the keeper stopped waiting for goes on beside the next one, so two of them may be in flight on one
	 * connection: the proxy then loses the second's reply with the first's, and records only the first.
	 */
	@Test
	void aRenewalAppliedByTheServerWhoseReplyWasLostKeepsTheLeaseAndTheGeneratorIssuing() throws Exception {
		try (ThrowawayZooKeeper zooKeeper = ThrowawayZooKeeper.start();
				ReplyLosingProxy proxy = ReplyLosingProxy.start(zooKeeper.port());
				CuratorFramework client = zooKeeper.newClientThrough(proxy, Duration.ofSeconds(10))) {
			AbstractUidGenerator generator = TestGenerators.build(TestGenerators.Kind.DEFAULT,
					assigner(client, "holder"), UidClock.SYSTEM);
			try {
				long workerId = generator.status().worker().id();
				Issued issued = new Issued();
				issued.takeFor(generator, Duration.ofMillis(300));

				// The renewal's own attempt and Curator's three retries: the server applies the first, refuses the
				// rest on the version, and the holder hears of none of them.
				proxy.loseRepliesTo(ZooDefs.OpCode.multi, 4);
				long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
				while ((proxy.repliesLeftToLose() > 0 || proxy.lostReplyErrors().size() < 2)
						&& System.nanoTime() < deadline) {
					issued.takeFor(generator, Duration.ofMillis(20));
				}
				List<Integer> lost = proxy.lostReplyErrors();
				assertThat(lost).as("replies lost: the first applied, the retries refused")
					.hasSizeBetween(2, 4)
					.startsWith(KeeperException.Code.OK.intValue());
				assertThat(lost.subList(1, lost.size())).as("the retries refused on the version")
					.containsOnly(KeeperException.Code.BADVERSION.intValue());
				String markWhenLost = field(client, workerId, "mark");

				// Renewals go on every 100 ms with newer marks while IDs are issued.
				issued.takeFor(generator, Duration.ofSeconds(1));

				assertThat(issued.leaseLost).as("the generator stopped on a lease it still holds").isNull();
				assertThat(generator.status().failure()).isNull();
				assertThat(generator.status().worker().leaseLost()).isFalse();
				assertThat(generator.status().worker().id()).isEqualTo(workerId);
				assertThat(field(client, workerId, "instance")).isEqualTo("holder");
				assertThat(Long.parseLong(field(client, workerId, "mark"))).as("renewed after the lost reply")
					.isGreaterThan(Long.parseLong(markWhenLost));
				long[] ids = issued.ids();
				assertThat(ids.length).isGreaterThan(1_000);
				assertThat(Duplicates.count(ids)).isZero();
			}
			finally {
				generator.close();
			}
		}
	}

	/** One line of a worker znode as the assigner writes it ({@code key=value}, for zkCli.sh readers). */
	private static String field(CuratorFramework client, long workerId, String key) throws Exception {
		String data = new String(client.getData().forPath("/uid/session-loss/workers/" + workerId),
				StandardCharsets.UTF_8);
		return Arrays.stream(data.split("\n"))
			.filter((line) -> line.startsWith(key + "="))
			.map((line) -> line.substring(key.length() + 1))
			.findFirst()
			.orElseThrow(() -> new AssertionError("no " + key + " in " + data));
	}

	/** IDs taken for a while, riding out a mark that could not be recorded for a moment; stops on a lost lease. */
	private static final class Issued {

		private long[] ids = new long[1 << 16];

		private int count;

		private WorkerLeaseLostException leaseLost;

		void takeFor(AbstractUidGenerator generator, Duration duration) {
			long end = System.nanoTime() + duration.toNanos();
			while (this.leaseLost == null && System.nanoTime() < end) {
				try {
					long id = generator.getUID();
					if (this.count == this.ids.length) {
						this.ids = Arrays.copyOf(this.ids, this.count * 2);
					}
					this.ids[this.count++] = id;
				}
				catch (WorkerLeaseLostException ex) {
					this.leaseLost = ex;
				}
				catch (UidUnavailableException ex) {
					// A renewal is failing for now; the mark will be recorded again once ZooKeeper answers.
				}
			}
		}

		long[] ids() {
			return Arrays.copyOf(this.ids, this.count);
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
