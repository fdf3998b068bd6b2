package io.github.uidgen.snowflake;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import java.util.function.Supplier;
import java.util.stream.Stream;

import io.github.uidgen.DecodedUid;
import io.github.uidgen.InvalidSettingException;
import io.github.uidgen.ManualClock;
import io.github.uidgen.UidClock;
import io.github.uidgen.UidGeneratorStatus;
import io.github.uidgen.UidLayout;
import io.github.uidgen.UidTimeUnit;
import io.github.uidgen.testsupport.AssignerBackend;
import io.github.uidgen.testsupport.Duplicates;
import io.github.uidgen.testsupport.SteppableClock;
import io.github.uidgen.testsupport.TestDatabases.Database;
import io.github.uidgen.worker.FixedWorkerIdAssigner;
import io.github.uidgen.worker.StaticWorkerIdAssigner;
import io.github.uidgen.worker.WorkerIdAssigner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Two data centers, each leasing worker IDs from a store of its own that knows nothing of the other: both stores
 * hand out the same worker IDs, and the data-center bits keep the IDs apart. A million IDs from both at once (two
 * Redis namespaces; two MariaDB tables), not one repeated, each decoding to the data center and worker that issued it; without data-center bits the same two
 * stores repeat IDs.
 */
class TwoDatacentersTests {

	/** The default layout with 2 of its 10 worker bits for data centers: 4 data centers of 256 workers. */
	private static final UidLayout LAYOUT = new UidLayout(UidTimeUnit.MILLISECONDS, LocalDate.of(2025, 1, 1), 41, 10,
			12).withDatacenterBits(2);

	/** The two data centers: the lowest and the highest ID the layout holds. */
	private static final long[] DATACENTERS = { 0, 3 };

	private static final int GENERATORS_PER_DATACENTER = 2;

	/** A million IDs in all, on the stores the issue names; a fifth of that on the others, to keep the suite short. */
	private static final int MANY = 250_000;

	private static final int FEWER = 50_000;

	private static final Duration LEASE = Duration.ofSeconds(2);

	static Stream<Arguments> stores() {
		return Stream.of(
				Arguments.of("two Redis namespaces", MANY,
						(Supplier<Store>) () -> Store.of(AssignerBackend.redis(LEASE), AssignerBackend.redis(LEASE))),
				Arguments.of("two lease tables on MariaDB", MANY,
						(Supplier<Store>) () -> Store.of(AssignerBackend.jdbcLease(Database.MARIADB, LEASE),
								AssignerBackend.jdbcLease(Database.MARIADB, LEASE))),
				Arguments.of("two lease tables on PostgreSQL", FEWER,
						(Supplier<Store>) () -> Store.of(AssignerBackend.jdbcLease(Database.POSTGRESQL, LEASE),
								AssignerBackend.jdbcLease(Database.POSTGRESQL, LEASE))),
				Arguments.of("two ZooKeeper servers", FEWER,
						(Supplier<Store>) () -> Store.of(AssignerBackend.zookeeper(LEASE),
								AssignerBackend.zookeeper(LEASE))),
				Arguments.of("Redis in one, MariaDB in the other", FEWER,
						(Supplier<Store>) () -> Store.of(AssignerBackend.redis(LEASE),
								AssignerBackend.jdbcLease(Database.MARIADB, LEASE))),
				Arguments.of("static worker IDs 0 and 1 in both", FEWER, (Supplier<Store>) Store::staticIds));
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("stores")
	void twoDataCentersWhoseStoresHandOutTheSameWorkerIdsNeverRepeatAnId(String name, int idsPerGenerator,
			Supplier<Store> stores) throws Exception {
		ExecutorService pool = Executors.newFixedThreadPool(DATACENTERS.length * GENERATORS_PER_DATACENTER);
		List<AbstractUidGenerator> generators = new ArrayList<>();
		try (Store store = stores.get()) {
			issueInBoth(store, idsPerGenerator, pool, generators);
		}
		finally {
			pool.shutdownNow();
		}
	}

	private static void issueInBoth(Store store, int idsPerGenerator, ExecutorService pool,
			List<AbstractUidGenerator> generators) throws Exception {
		try {
			for (int d = 0; d < DATACENTERS.length; d++) {
				for (int i = 0; i < GENERATORS_PER_DATACENTER; i++) {
					AbstractUidGenerator.Builder<?> builder = (i % 2 == 0) ? DefaultUidGenerator.builder()
							: CachedUidGenerator.builder();
					generators.add(build(builder.datacenterId(DATACENTERS[d]), store.dataCenter(d).apply(i),
							UidClock.SYSTEM));
				}
			}
			// The premise: each store hands out the same worker IDs as the other.
			assertThat(workerIds(generators.subList(0, GENERATORS_PER_DATACENTER)))
				.isEqualTo(workerIds(generators.subList(GENERATORS_PER_DATACENTER, generators.size())))
				.hasSize(GENERATORS_PER_DATACENTER);

			List<Future<long[]>> issuing = new ArrayList<>();
			for (AbstractUidGenerator generator : generators) {
				issuing.add(pool.submit(() -> TestGenerators.take(generator, idsPerGenerator)));
			}
			long[][] runs = new long[generators.size()][];
			for (int g = 0; g < generators.size(); g++) {
				runs[g] = issuing.get(g).get(120, TimeUnit.SECONDS);
				UidGeneratorStatus.Worker worker = generators.get(g).status().worker();
				long datacenter = DATACENTERS[g / GENERATORS_PER_DATACENTER];
				assertThat(worker.datacenterId()).isEqualTo(datacenter);
				assertThat(countNotFrom(runs[g], datacenter, worker.id()))
					.as("IDs of generator " + g + " decoding to another data center or worker")
					.isZero();
			}
			long[] all = Duplicates.concat(runs);
			assertThat(all).hasSize(generators.size() * idsPerGenerator);
			assertThat(Duplicates.count(runs)).isZero();
		}
		finally {
			// Before the stores go: each generator releases its worker ID with its final mark.
			generators.forEach(AbstractUidGenerator::close);
		}
	}

	@Test
	void withoutDataCenterBitsTheSameTwoStoresRepeatIdsAndWithThemTheyDoNot() {
		// A frozen clock puts every ID in one millisecond, so the two generators meet for certain.
		ManualClock clock = ManualClock.atSystemTime();
		UidLayout single = LAYOUT.withDatacenterBits(0);
		try (Store store = Store.of(AssignerBackend.redis(LEASE), AssignerBackend.redis(LEASE))) {
			long[][] withoutBits = issueInBoth(store, single, new long[] { 0, 0 }, clock);
			assertThat(Duplicates.count(withoutBits)).isEqualTo(1_000);
		}
		// Two more such stores (a store records its layout and refuses another), both handing out worker 0 again.
		clock.advance(1_000);
		try (Store store = Store.of(AssignerBackend.redis(LEASE), AssignerBackend.redis(LEASE))) {
			long[][] withBits = issueInBoth(store, LAYOUT, new long[] { 1, 2 }, clock);
			assertThat(Duplicates.count(withBits)).isZero();
			assertThat(LAYOUT.decode(withBits[0][0]).workerId()).isEqualTo(LAYOUT.decode(withBits[1][0]).workerId());
		}
	}

	@Test
	void aGeneratorWithDataCenterBitsButNoDataCenterIdDoesNotStartAsDataCenterZero() {
		for (AbstractUidGenerator.Builder<?> builder : List.of(DefaultUidGenerator.builder(),
				CachedUidGenerator.builder())) {
			builder.layout(LAYOUT).workerIdAssigner(new FixedWorkerIdAssigner(44));
			assertThatExceptionOfType(InvalidSettingException.class)
				.isThrownBy(() -> ((builder instanceof DefaultUidGenerator.Builder plain) ? plain.build()
						: ((CachedUidGenerator.Builder) builder).build()).close())
				.satisfies((ex) -> assertThat(ex.getSetting()).isEqualTo("datacenterId"))
				.withMessageContaining("the layout has 2 data-center bits")
				.withMessageContaining("set datacenterId from 0 to 3");
		}
	}

	@Test
	void aClockStepBackMovesIssueToAnotherWorkerOfTheSameDataCenter() throws Exception {
		try (Store store = Store.of(AssignerBackend.redis(LEASE), AssignerBackend.redis(LEASE))) {
			// Data center 1 holds worker IDs 0 and 1 of its store; data center 2 starts on worker 0 of its own.
			List<AbstractUidGenerator> others = List.of(
					build(DefaultUidGenerator.builder().datacenterId(1), store.dataCenter(0).apply(0), UidClock.SYSTEM),
					build(DefaultUidGenerator.builder().datacenterId(1), store.dataCenter(0).apply(1), UidClock.SYSTEM));
			SteppableClock clock = new SteppableClock(Duration.ZERO);
			AbstractUidGenerator stepping = build(DefaultUidGenerator.builder().datacenterId(2),
					store.dataCenter(1).apply(0), clock);
			ExecutorService pool = Executors.newFixedThreadPool(2);
			try {
				long first = stepping.status().worker().id();
				// The other data center issues as the same worker IDs meanwhile: 0 and 1.
				List<Future<long[]>> fromOthers = new ArrayList<>();
				for (AbstractUidGenerator other : others) {
					fromOthers.add(pool.submit(() -> TestGenerators.take(other, 20_000)));
				}
				long[] before = TestGenerators.take(stepping, 20_000);
				clock.step(Duration.ofMinutes(-10));
				long[] after = TestGenerators.take(stepping, 20_000);
				UidGeneratorStatus.Worker worker = stepping.status().worker();
				assertThat(worker.switches()).isEqualTo(1);
				assertThat(worker.datacenterId()).isEqualTo(2);
				assertThat(worker.previousId()).isEqualTo(first);
				assertThat(worker.id()).isNotEqualTo(first);
				assertThat(countNotFrom(before, 2, first)).isZero();
				assertThat(countNotFrom(after, 2, worker.id())).isZero();
				assertThat(workerIds(others)).containsExactly(first, worker.id());
				assertThat(Duplicates.count(before, after, fromOthers.get(0).get(60, TimeUnit.SECONDS),
						fromOthers.get(1).get(60, TimeUnit.SECONDS)))
					.isZero();
			}
			finally {
				pool.shutdownNow();
				stepping.close();
				others.forEach(AbstractUidGenerator::close);
			}
		}
	}

	/** One generator in each data center, on worker ID 0 of its store, 1,000 IDs each. */
	private static long[][] issueInBoth(Store store, UidLayout layout, long[] datacenters, UidClock clock) {
		long[][] runs = new long[2][];
		for (int d = 0; d < 2; d++) {
			AbstractUidGenerator generator = DefaultUidGenerator.builder()
				.layout(layout)
				.datacenterId(datacenters[d])
				.clock(clock)
				.workerIdAssigner(store.dataCenter(d).apply(0))
				.markReservation(Duration.ofMillis(200))
				.build();
			try {
				assertThat(generator.status().worker().id()).isZero();
				runs[d] = TestGenerators.take(generator, 1_000);
			}
			finally {
				generator.close();
			}
		}
		return runs;
	}

	private static AbstractUidGenerator build(AbstractUidGenerator.Builder<?> builder, WorkerIdAssigner assigner,
			UidClock clock) {
		builder.layout(LAYOUT).clock(clock).workerIdAssigner(assigner).markReservation(Duration.ofMillis(200));
		if (builder instanceof DefaultUidGenerator.Builder plain) {
			return plain.build();
		}
		return ((CachedUidGenerator.Builder) builder).maxAhead(Duration.ofMillis(500)).build();
	}

	private static Set<Long> workerIds(List<AbstractUidGenerator> generators) {
		Set<Long> ids = new TreeSet<>();
		generators.forEach((generator) -> ids.add(generator.status().worker().id()));
		return ids;
	}

	/** Counts the IDs that do not decode to the given data center and worker. */
	private static long countNotFrom(long[] ids, long datacenter, long worker) {
		long foreign = 0;
		for (long id : ids) {
			DecodedUid decoded = LAYOUT.decode(id);
			if (decoded.datacenterId() != datacenter || decoded.workerId() != worker) {
				foreign++;
			}
		}
		return foreign;
	}

	/** The worker-ID stores of two data centers: each hands out worker IDs by itself. */
	private interface Store extends AutoCloseable {

		/** Assigners of one data center's store, by instance number. */
		IntFunction<WorkerIdAssigner> dataCenter(int index);

		@Override
		void close();

		static Store of(AssignerBackend first, AssignerBackend second) {
			AssignerBackend[] backends = { first, second };
			return new Store() {

				@Override
				public IntFunction<WorkerIdAssigner> dataCenter(int index) {
					return (instance) -> backends[index].newAssigner("dc" + index + "-instance-" + instance);
				}

				@Override
				public void close() {
					first.close();
					second.close();
				}

			};
		}

		/** Each data center numbers its instances itself, 0 and 1, their state files in a folder of its own. */
		static Store staticIds() {
			Path[] folders = new Path[2];
			try {
				for (int d = 0; d < 2; d++) {
					folders[d] = Files.createTempDirectory("uid-dc" + d);
				}
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
			return new Store() {

				@Override
				public IntFunction<WorkerIdAssigner> dataCenter(int index) {
					return (instance) -> new StaticWorkerIdAssigner(instance,
							folders[index].resolve("worker-" + instance + ".state"));
				}

				@Override
				public void close() {
					for (Path folder : folders) {
						try (Stream<Path> files = Files.walk(folder)) {
							files.sorted(Comparator.reverseOrder()).forEach((path) -> path.toFile().delete());
						}
						catch (IOException ex) {
							// A temporary folder left behind.
						}
					}
				}

			};
		}

	}

}
