package io.github.uidgen.snowflake;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import com.zaxxer.hikari.HikariDataSource;
import io.github.uidgen.UidClock;
import io.github.uidgen.testsupport.Duplicates;
import io.github.uidgen.testsupport.PartitionProxy;
import io.github.uidgen.testsupport.TestDatabases;
import io.github.uidgen.testsupport.TestRedis;
import io.github.uidgen.testsupport.ThrowawayZooKeeper;
import io.github.uidgen.worker.WorkerAssignment;
import io.github.uidgen.worker.WorkerIdAssigner;
import io.github.uidgen.worker.fleet.FleetWorker;
import io.github.uidgen.worker.fleet.WorkerFleet;
import io.github.uidgen.worker.fleet.WorkerState;
import io.github.uidgen.worker.jdbc.JdbcLeaseWorkerIdAssigner;
import io.github.uidgen.worker.redis.RedisWorkerIdAssigner;
import io.github.uidgen.worker.zookeeper.ZookeeperWorkerIdAssigner;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.utils.ZKPaths;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A partition between one instance (A) and its store outlasts A's lease; meanwhile a newcomer (B), which reaches the
 * store, takes A's worker ID. When the partition heals, A learns its lease is gone and, by itself, claims a worker ID
 * again (not B's: B holds it) and serves again. Every ID of both is checked: none repeats. A
 * partition is a proxy of the test's own between A and the store that lets nothing through for a while; B and the
 * store are not touched. The partition starts right after one of A's renewals, so it never cuts A off inside a
 * database transaction, whose row lock the server would keep for as long as the partition lasts.
 *
 * <p>Nothing here sleeps a set time: the test waits, each time within a generous bound, for the state it needs. B
 * starts once the store itself lists A's worker ID as no longer held (for ZooKeeper, once A's session has ended as
 * well: its ephemeral lease znode is gone) and A reports that it cannot issue; the partition heals once B has
 * issued. So A stays cut off past its lease for however long that takes on the machine, and B takes A's worker ID
 * meanwhile.
 */
class PartitionHealedTests {

	private static final Duration LEASE = Duration.ofSeconds(1);

	private static final Duration HEARTBEAT = Duration.ofMillis(200);

	/**
	 * The database's lease and heartbeat: a third of the lease bounds each database round trip, and a claim's round
	 * trip on a busy machine can take longer than 200 ms.
	 */
	private static final Duration DB_LEASE = Duration.ofSeconds(3);

	private static final Duration DB_HEARTBEAT = Duration.ofSeconds(1);

	/** A bound for each wait on a state: for a stalled machine, not an expectation of speed. */
	private static final Duration BOUND = Duration.ofSeconds(60);

	static Stream<Arguments> storesAndGenerators() {
		List<Arguments> cases = new ArrayList<>();
		for (Store store : Store.values()) {
			for (TestGenerators.Kind kind : TestGenerators.Kind.values()) {
				cases.add(Arguments.of(store, kind));
			}
		}
		return cases.stream();
	}

	@ParameterizedTest(name = "{0}, {1} generator")
	@MethodSource("storesAndGenerators")
	void anInstanceCutOffPastItsLeaseServesAgainOnAnotherWorkerIdOnceThePartitionHeals(Store store,
			TestGenerators.Kind kind) throws Exception {
		try (StoreAccess access = store.open()) {
			PartitionedAfterRenewal aAssigner = new PartitionedAfterRenewal(access.throughProxy("a"), access.proxy());
			AbstractUidGenerator a = TestGenerators.build(kind, aAssigner, UidClock.SYSTEM);
			AbstractUidGenerator b = null;
			try {
				long lostWorkerId = a.status().worker().id();
				Issuer issuingA = Issuer.throughRefusals(a, "a");
				// A serves and its lease is kept: it has issued, and a renewal of its has reached the store.
				await("A issued and renewed").atMost(BOUND)
					.until(() -> issuingA.count() > 0 && aAssigner.renewals() > 0);

				aAssigner.partitionAfterNextRenewal();
				// A stays cut off until its lease is gone by the store's own reckoning (and its ZooKeeper session has
				// ended), so that B can take its worker ID, and until A reports that it cannot issue (health DOWN),
				// what it may issue without the store used up.
				await("A's lease gone in the store").atMost(BOUND).until(() -> access.leaseGone(lostWorkerId));
				await("A reporting it cannot issue").atMost(BOUND).until(() -> a.status().failure() != null);
				b = TestGenerators.build(kind, access.direct("b"), UidClock.SYSTEM);
				assertThat(b.status().worker().id()).as("B took A's worker ID, free once A's lease ran out")
					.isEqualTo(lostWorkerId);
				Issuer issuingB = Issuer.throughRefusals(b, "b");
				await("B issued").atMost(BOUND).until(() -> issuingB.count() > 0);

				access.proxy().heal();
				RedisRestoredFromSnapshotTests.awaitRecovered(a);
				int servedBefore = issuingA.count();
				await().atMost(Duration.ofSeconds(30)).until(() -> issuingA.count() > servedBefore);
				long[] issuedByA = issuingA.stop();
				long[] issuedByB = issuingB.stop();

				assertThat(issuedByA.length).as("A serves again after the partition").isGreaterThan(servedBefore);
				assertThat(a.status().worker().id()).as("A's new worker ID is not the one B holds")
					.isNotEqualTo(b.status().worker().id());
				assertThat(issuingA.firstRefusal()).as("what A's callers were told meanwhile")
					.isNotNull();
				assertThat(a.status().worker().recoveries()).isEqualTo(1);
				assertThat(issuingB.refusals()).as("refusals to B, the first: %s", issuingB.firstRefusal()).isZero();
				assertThat(Duplicates.count(issuedByA, issuedByB)).isZero();
			}
			finally {
				a.close();
				if (b != null) {
					b.close();
				}
			}
		}
	}

	/** The stores, each reached through a proxy by A and directly by B. */
	enum Store {

		DB {
			@Override
			StoreAccess open() {
				PartitionProxy proxy = PartitionProxy.start(3306);
				HikariDataSource viaProxy = pool("jdbc:mysql://127.0.0.1:" + proxy.port()
						+ "/test?connectTimeout=5000&socketTimeout=0");
				HikariDataSource direct = TestDatabases.Database.MARIADB.open();
				String table = TestDatabases.uniqueTable("uid_partition");
				return new StoreAccess(proxy) {

					@Override
					WorkerIdAssigner throughProxy(String instanceId) {
						return assigner(viaProxy, instanceId);
					}

					@Override
					WorkerIdAssigner direct(String instanceId) {
						return assigner(direct, instanceId);
					}

					private WorkerIdAssigner assigner(HikariDataSource dataSource, String instanceId) {
						return JdbcLeaseWorkerIdAssigner.builder(dataSource)
							.leaseTable(table)
							.leaseDuration(DB_LEASE)
							.heartbeatInterval(DB_HEARTBEAT)
							.instanceId(instanceId)
							.initializeSchema(true)
							.build();
					}

					@Override
					void closeStore() {
						TestDatabases.dropTable(direct, table);
						viaProxy.close();
						direct.close();
					}

				};
			}

			private HikariDataSource pool(String url) {
				HikariDataSource dataSource = new HikariDataSource();
				dataSource.setJdbcUrl(url);
				dataSource.setUsername("root");
				dataSource.setPassword("");
				dataSource.setMaximumPoolSize(4);
				dataSource.setMinimumIdle(0);
				dataSource.setConnectionTimeout(10_000);
				return dataSource;
			}
		},

		REDIS {
			@Override
			StoreAccess open() {
				PartitionProxy proxy = PartitionProxy.start(6379);
				LettuceConnectionFactory viaProxy = TestRedis.connectionFactory(proxy.port());
				LettuceConnectionFactory direct = TestRedis.connectionFactory();
				String namespace = TestRedis.uniqueNamespace("partition");
				TestRedis.markNewRegistry(direct, "{uid-test:" + namespace + "}");
				return new StoreAccess(proxy) {

					@Override
					WorkerIdAssigner throughProxy(String instanceId) {
						return assigner(viaProxy, instanceId);
					}

					@Override
					WorkerIdAssigner direct(String instanceId) {
						return assigner(direct, instanceId);
					}

					private WorkerIdAssigner assigner(LettuceConnectionFactory factory, String instanceId) {
						return RedisWorkerIdAssigner.builder(factory)
							.keyPrefix("uid-test")
							.namespace(namespace)
							.leaseDuration(LEASE)
							.heartbeatInterval(HEARTBEAT)
							.registryLossMargin(Duration.ofMillis(1_000))
							.instanceId(instanceId)
							.build();
					}

					@Override
					void closeStore() {
						TestRedis.wipe(direct, "{uid-test:" + namespace + "}");
						viaProxy.destroy();
						direct.destroy();
					}

				};
			}
		},

		ZOOKEEPER {
			@Override
			StoreAccess open() {
				ThrowawayZooKeeper zooKeeper = ThrowawayZooKeeper.start(Duration.ofMillis(100));
				PartitionProxy proxy = PartitionProxy.start(zooKeeper.port());
				// The session ends while A is cut off, which ends its lease at once.
				CuratorFramework viaProxy = zooKeeper.newClientThrough(proxy, LEASE);
				CuratorFramework direct = zooKeeper.newClient(Duration.ofSeconds(10));
				return new StoreAccess(proxy) {

					@Override
					WorkerIdAssigner throughProxy(String instanceId) {
						return assigner(viaProxy, instanceId);
					}

					@Override
					WorkerIdAssigner direct(String instanceId) {
						return assigner(direct, instanceId);
					}

					/**
					 * {@inheritDoc}
					 * <p>Also A's session has ended: ZooKeeper has deleted A's ephemeral lease znode ({@code
					 * leases/<id>}), which nothing else removes while A is cut off and B has not claimed.
					 */
					@Override
					boolean leaseGone(long workerId) throws Exception {
						String basePath = ((ZookeeperWorkerIdAssigner) reader()).getBasePath();
						String leaseZnode = ZKPaths.makePath(basePath, "leases", Long.toString(workerId));
						return super.leaseGone(workerId) && direct.checkExists().forPath(leaseZnode) == null;
					}

					private ZookeeperWorkerIdAssigner assigner(CuratorFramework client, String instanceId) {
						return ZookeeperWorkerIdAssigner.builder(client)
							.namespace("partition")
							.leaseDuration(LEASE)
							.heartbeatInterval(HEARTBEAT)
							.instanceId(instanceId)
							.build();
					}

					@Override
					void closeStore() {
						viaProxy.close();
						direct.close();
						zooKeeper.close();
					}

				};
			}
		};

		abstract StoreAccess open();

	}

	/** A store of the test's, reached by A through a proxy and by B directly. */
	abstract static class StoreAccess implements AutoCloseable {

		private final PartitionProxy proxy;

		private WorkerIdAssigner reader;

		StoreAccess(PartitionProxy proxy) {
			this.proxy = proxy;
		}

		PartitionProxy proxy() {
			return this.proxy;
		}

		abstract WorkerIdAssigner throughProxy(String instanceId);

		abstract WorkerIdAssigner direct(String instanceId);

		/**
		 * Whether the store, read directly, no longer lists a worker ID as held: its lease expired by the store's own
		 * reckoning (or it was released), so a claim may take it.
		 */
		boolean leaseGone(long workerId) throws Exception {
			WorkerFleet fleet = reader().fleet().orElseThrow();
			return fleet.read(1 << TestGenerators.LAYOUT.getWorkerBits())
				.workers()
				.stream()
				.filter((worker) -> worker.workerId() == workerId)
				.map(FleetWorker::state)
				.noneMatch(WorkerState.HELD::equals);
		}

		/** An assigner on the direct connection that only reads (it never claims), made once. */
		WorkerIdAssigner reader() {
			if (this.reader == null) {
				this.reader = direct("reader");
			}
			return this.reader;
		}

		abstract void closeStore();

		@Override
		public void close() {
			this.proxy.close();
			closeStore();
		}

	}

	/**
	 * A's assigner, which cuts A off from its store right after a renewal has returned, once asked to: never while a
	 * renewal's transaction is open.
	 */
	private static final class PartitionedAfterRenewal implements WorkerIdAssigner {

		private final WorkerIdAssigner delegate;

		private final PartitionProxy proxy;

		private final AtomicBoolean partitionRequested = new AtomicBoolean();

		private final CountDownLatch partitioned = new CountDownLatch(1);

		private final AtomicInteger renewals = new AtomicInteger();

		PartitionedAfterRenewal(WorkerIdAssigner delegate, PartitionProxy proxy) {
			this.delegate = delegate;
			this.proxy = proxy;
		}

		/** Returns once the partition has started, after the next renewal. */
		void partitionAfterNextRenewal() throws InterruptedException {
			this.partitionRequested.set(true);
			assertThat(this.partitioned.await(30, TimeUnit.SECONDS)).as("a renewal of A, then the partition").isTrue();
		}

		/** How many renewals have returned without failing: each reached the store. */
		int renewals() {
			return this.renewals.get();
		}

		@Override
		public WorkerAssignment assign(long maxWorkerId) {
			return this.delegate.assign(maxWorkerId);
		}

		@Override
		public WorkerAssignment assign(long maxWorkerId, Duration maxMarkLead) {
			return this.delegate.assign(maxWorkerId, maxMarkLead);
		}

		@Override
		public Optional<WorkerAssignment> assignBehind(long maxWorkerId, long latestMarkMillis) {
			return this.delegate.assignBehind(maxWorkerId, latestMarkMillis);
		}

		@Override
		public void renew(long workerId, long highWaterMarkMillis) {
			try {
				this.delegate.renew(workerId, highWaterMarkMillis);
				this.renewals.incrementAndGet();
			}
			finally {
				if (this.partitionRequested.compareAndSet(true, false)) {
					this.proxy.partition();
					this.partitioned.countDown();
				}
			}
		}

		@Override
		public void release(long workerId, long highWaterMarkMillis) {
			this.delegate.release(workerId, highWaterMarkMillis);
		}

		@Override
		public Duration renewInterval() {
			return this.delegate.renewInterval();
		}

		@Override
		public String name() {
			return this.delegate.name();
		}

	}

}
