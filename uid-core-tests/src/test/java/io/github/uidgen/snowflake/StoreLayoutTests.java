package io.github.uidgen.snowflake;

import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Stream;

import io.github.uidgen.UidLayout;
import io.github.uidgen.UidTimeUnit;
import io.github.uidgen.testsupport.AssignerBackend;
import io.github.uidgen.testsupport.TestDatabases.Database;
import io.github.uidgen.testsupport.TestRedis;
import io.github.uidgen.testsupport.ThrowawayRedisCluster;
import io.github.uidgen.worker.WorkerAssignment;
import io.github.uidgen.worker.LayoutMismatchException;
import io.github.uidgen.worker.WorkerIdAssigner;
import io.github.uidgen.worker.redis.RedisWorkerIdAssigner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Every worker store records the layout its worker IDs are used with, and refuses a start with another: on one
 * store, worker 300 without data-center bits issues data center 1, worker 44's IDs with two. Each store on a real
 * server (MariaDB, PostgreSQL, Redis) or ZooKeeper's own server code in this JVM, with a table, namespace or server of
 * its own.
 */
class StoreLayoutTests {

	private static final Duration LEASE = Duration.ofSeconds(2);

	/** The default layout: 41 time, 10 worker and 12 sequence bits of milliseconds since 2025-01-01. */
	private static final Setup PLAIN = new Setup(UidLayout.defaults(), null,
			"uid-layout/1 epoch=2025-01-01T00:00:00Z time-unit=milliseconds time-bits=41 worker-bits=10 "
					+ "datacenter-bits=0 seq-bits=12");

	/** Two of the worker bits name the data center, this one 1: its worker 44 is worker 300 of {@link #PLAIN}. */
	private static final Setup DC2 = new Setup(UidLayout.defaults().withDatacenterBits(2), 1L,
			"uid-layout/1 epoch=2025-01-01T00:00:00Z time-unit=milliseconds time-bits=41 worker-bits=10 "
					+ "datacenter-bits=2 seq-bits=12");

	/** Three data-center bits, data center 3: its worker 0 is data center 1's worker 128 of {@link #DC2}. */
	private static final Setup DC3 = new Setup(UidLayout.defaults().withDatacenterBits(3), 3L,
			"uid-layout/1 epoch=2025-01-01T00:00:00Z time-unit=milliseconds time-bits=41 worker-bits=10 "
					+ "datacenter-bits=3 seq-bits=12");

	/** Another epoch: the same worker ID issues the IDs of other times. */
	private static final Setup EPOCH_2024 = new Setup(
			new UidLayout(UidTimeUnit.MILLISECONDS, LocalDate.of(2024, 1, 1), 41, 10, 12), null,
			"uid-layout/1 epoch=2024-01-01T00:00:00Z time-unit=milliseconds time-bits=41 worker-bits=10 "
					+ "datacenter-bits=0 seq-bits=12");

	/** A layout and the data center a generator issues for ({@code null} without data-center bits). */
	record Setup(UidLayout layout, Long datacenterId, String record) {

		AbstractUidGenerator start(WorkerIdAssigner assigner) {
			DefaultUidGenerator.Builder builder = DefaultUidGenerator.builder()
				.layout(this.layout)
				.workerIdAssigner(assigner)
				.markReservation(Duration.ofMillis(200))
				.maxStartupWait(Duration.ofSeconds(5));
			if (this.datacenterId != null) {
				builder.datacenterId(this.datacenterId);
			}
			return builder.build();
		}

	}

	static Stream<Arguments> stores() {
		return Stream.of(
				Arguments.of("db lease on MariaDB",
						(Supplier<AssignerBackend>) () -> AssignerBackend.jdbcLease(Database.MARIADB, LEASE)),
				Arguments.of("db lease on PostgreSQL",
						(Supplier<AssignerBackend>) () -> AssignerBackend.jdbcLease(Database.POSTGRESQL, LEASE)),
				Arguments.of("redis", (Supplier<AssignerBackend>) () -> AssignerBackend.redis(LEASE)),
				Arguments.of("zookeeper", (Supplier<AssignerBackend>) () -> AssignerBackend.zookeeper(LEASE)));
	}

	static Stream<Arguments> storesAndOtherLayouts() {
		List<Setup[]> pairs = List.of(new Setup[] { PLAIN, DC2 }, new Setup[] { DC2, DC3 },
				new Setup[] { PLAIN, EPOCH_2024 });
		return stores().flatMap((store) -> pairs.stream()
			.map((pair) -> Arguments.of(store.get()[0], store.get()[1], pair[0], pair[1])));
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("stores")
	void instancesWithTheSameLayoutShareTheStoreAndItsRecordRefusesAnother(String store,
			Supplier<AssignerBackend> backends) throws Exception {
		try (AssignerBackend backend = backends.get()) {
			try (AbstractUidGenerator first = DC2.start(backend.newAssigner("first"));
					AbstractUidGenerator second = DC2.start(backend.newAssigner("second"))) {
				assertThat(List.of(first.status().worker().id(), second.status().worker().id()))
					.as("worker IDs: the layout's record is no worker").containsExactly(0L, 1L);
				Set<Long> ids = new HashSet<>();
				for (int i = 0; i < 1_000; i++) {
					ids.add(first.getUID());
					ids.add(second.getUID());
				}
				assertThat(ids).hasSize(2_000);
				assertThatExceptionOfType(LayoutMismatchException.class)
					.isThrownBy(() -> PLAIN.start(backend.newAssigner("third")))
					.withMessageContaining("records the layout [" + DC2.record() + "]");
			}
		}
	}

	@ParameterizedTest(name = "{0}: {2} then {3}")
	@MethodSource("storesAndOtherLayouts")
	void aStartWithAnotherLayoutIsRefusedNamingBothAndTheFix(String store, Supplier<AssignerBackend> backends,
			Setup recorded, Setup other) throws Exception {
		try (AssignerBackend backend = backends.get()) {
			try (AbstractUidGenerator first = recorded.start(backend.newAssigner("first"))) {
				assertThatExceptionOfType(LayoutMismatchException.class)
					.isThrownBy(() -> other.start(backend.newAssigner("other")))
					.withMessageContaining("records the layout [" + recorded.record() + "]")
					.withMessageContaining("this instance's layout is [" + other.record() + "]")
					.withMessageContaining("uid.datacenter-bits")
					.withMessageContaining("uid.epoch");
				// The refused start claimed nothing: the next instance with the recorded layout gets worker 1.
				try (AbstractUidGenerator second = recorded.start(backend.newAssigner("second"))) {
					assertThat(second.status().worker().id()).isEqualTo(1L);
				}
				assertThat(first.getUID()).isPositive();
			}
		}
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("stores")
	void aStoreWrittenBeforeLayoutsWereRecordedAdoptsTheFirstLayoutThenRefusesAnother(String store,
			Supplier<AssignerBackend> backends) throws Exception {
		try (AssignerBackend backend = backends.get()) {
			// An older version claims, records a mark and releases: the store has a worker but no layout record.
			WorkerIdAssigner older = backend.newAssigner("older");
			WorkerAssignment claimed = older.assign(DC2.layout().getMaxWorkerId());
			long mark = System.currentTimeMillis() + 200;
			older.renew(claimed.workerId(), mark);
			older.release(claimed.workerId(), mark);
			try (AbstractUidGenerator adopting = DC2.start(backend.newAssigner("older"))) {
				assertThat(adopting.status().worker().id()).isEqualTo(claimed.workerId());
				assertThat(adopting.decode(adopting.getUID()).timestamp().toEpochMilli()).isGreaterThan(mark);
				assertThatExceptionOfType(LayoutMismatchException.class)
					.isThrownBy(() -> PLAIN.start(backend.newAssigner("other")))
					.withMessageContaining("records the layout [" + DC2.record() + "]")
					.withMessageContaining("this instance's layout is [" + PLAIN.record() + "]");
			}
		}
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("stores")
	void ofFirstStartsRacingWithTwoLayoutsOneLayoutIsRecordedAndOnlyItsInstancesStart(String store,
			Supplier<AssignerBackend> backends) throws Exception {
		int starts = 8;
		ExecutorService pool = Executors.newFixedThreadPool(starts);
		List<AbstractUidGenerator> started = new ArrayList<>();
		try (AssignerBackend backend = backends.get()) {
			race(backend, starts, pool, started);
		}
		finally {
			pool.shutdownNow();
		}
	}

	private static void race(AssignerBackend backend, int starts, ExecutorService pool,
			List<AbstractUidGenerator> started) throws Exception {
		try {
			CountDownLatch go = new CountDownLatch(1);
			List<Future<AbstractUidGenerator>> futures = new ArrayList<>();
			for (int i = 0; i < starts; i++) {
				Setup setup = (i % 2 == 0) ? PLAIN : DC2;
				WorkerIdAssigner assigner = backend.newAssigner("racer-" + i);
				futures.add(pool.submit(() -> {
					go.await();
					return setup.start(assigner);
				}));
			}
			go.countDown();
			Set<UidLayout> startedLayouts = new HashSet<>();
			List<String> refusals = new ArrayList<>();
			for (Future<AbstractUidGenerator> future : futures) {
				try {
					AbstractUidGenerator generator = future.get(60, TimeUnit.SECONDS);
					started.add(generator);
					startedLayouts.add(generator.layout());
				}
				catch (ExecutionException ex) {
					assertThat(ex.getCause()).isInstanceOf(LayoutMismatchException.class);
					refusals.add(ex.getCause().getMessage());
				}
			}
			assertThat(startedLayouts).as("layouts that started").hasSize(1);
			Setup winner = startedLayouts.contains(PLAIN.layout()) ? PLAIN : DC2;
			Setup loser = (winner == PLAIN) ? DC2 : PLAIN;
			assertThat(started).hasSize(starts / 2);
			assertThat(refusals).hasSize(starts / 2)
				.allSatisfy((message) -> assertThat(message).contains("records the layout [" + winner.record() + "]",
						"this instance's layout is [" + loser.record() + "]"));
		}
		finally {
			started.forEach(AbstractUidGenerator::close);
		}
	}

	@Test
	void onARedisClusterTheRecordLivesOnTheSlotOfTheNamespaceAndRefusesAnotherLayout(@TempDir Path dir) {
		String tag = "{uid-test:layout}";
		try (ThrowawayRedisCluster cluster = ThrowawayRedisCluster.start(dir)) {
			cluster.cli(cluster.portOfKey(tag + ":leases"), TestRedis.markNewRegistryCommand(tag));
			LettuceConnectionFactory factory = cluster.connectionFactory();
			try (AbstractUidGenerator first = DC2.start(clusterAssigner(factory, "first"));
					AbstractUidGenerator second = DC2.start(clusterAssigner(factory, "second"))) {
				assertThat(List.of(first.status().worker().id(), second.status().worker().id())).containsExactly(0L,
						1L);
				assertThat(cluster.cli(cluster.portOfKey(tag + ":leases"), "GET", tag + ":layout").strip())
					.isEqualTo(DC2.record());
				assertThatExceptionOfType(LayoutMismatchException.class)
					.isThrownBy(() -> PLAIN.start(clusterAssigner(factory, "third")))
					.withMessageContaining("records the layout [" + DC2.record() + "]")
					.withMessageContaining("this instance's layout is [" + PLAIN.record() + "]");
			}
			finally {
				factory.destroy();
			}
		}
	}

	private static WorkerIdAssigner clusterAssigner(LettuceConnectionFactory factory, String instanceId) {
		return RedisWorkerIdAssigner.builder(factory)
			.keyPrefix("uid-test")
			.namespace("layout")
			.leaseDuration(LEASE)
			.heartbeatInterval(LEASE.dividedBy(4))
			.instanceId(instanceId)
			.build();
	}

}
