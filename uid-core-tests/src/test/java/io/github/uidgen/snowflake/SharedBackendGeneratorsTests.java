package io.github.uidgen.snowflake;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Stream;

import io.github.uidgen.UidClock;
import io.github.uidgen.snowflake.TestGenerators.Kind;
import io.github.uidgen.testsupport.AssignerBackend;
import io.github.uidgen.testsupport.Duplicates;
import io.github.uidgen.testsupport.TestDatabases.Database;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Several generators in one JVM, started together on one shared store and issuing concurrently, as several
 * instances of a service would: distinct worker IDs and not one repeated ID.
 */
class SharedBackendGeneratorsTests {

	private static final int GENERATORS = 6;

	private static final int IDS_PER_GENERATOR = 5_000;

	private static final Duration LEASE = Duration.ofSeconds(2);

	static Stream<Arguments> backends() {
		return Stream.of(
				Arguments.of("db lease on MariaDB",
						(Supplier<AssignerBackend>) () -> AssignerBackend.jdbcLease(Database.MARIADB, LEASE)),
				Arguments.of("db lease on PostgreSQL",
						(Supplier<AssignerBackend>) () -> AssignerBackend.jdbcLease(Database.POSTGRESQL, LEASE)),
				Arguments.of("db disposable on MariaDB",
						(Supplier<AssignerBackend>) () -> AssignerBackend.jdbcDisposable(Database.MARIADB)),
				Arguments.of("db disposable on PostgreSQL",
						(Supplier<AssignerBackend>) () -> AssignerBackend.jdbcDisposable(Database.POSTGRESQL)),
				Arguments.of("redis", (Supplier<AssignerBackend>) () -> AssignerBackend.redis(LEASE)),
				Arguments.of("zookeeper", (Supplier<AssignerBackend>) () -> AssignerBackend.zookeeper(LEASE)));
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("backends")
	void generatorsSharingOneStoreGetDistinctWorkerIdsAndNeverRepeatAnId(String name,
			Supplier<AssignerBackend> backendFactory) throws Exception {
		ExecutorService pool = Executors.newFixedThreadPool(GENERATORS);
		List<AbstractUidGenerator> generators = new ArrayList<>();
		try (AssignerBackend backend = backendFactory.get()) {
			issueConcurrently(backend, pool, generators);
		}
		finally {
			pool.shutdownNow();
		}
	}

	private static void issueConcurrently(AssignerBackend backend, ExecutorService pool,
			List<AbstractUidGenerator> generators) throws Exception {
		try {
			CountDownLatch start = new CountDownLatch(1);
			List<Future<AbstractUidGenerator>> starting = new ArrayList<>();
			for (int i = 0; i < GENERATORS; i++) {
				Kind kind = (i % 2 == 0) ? Kind.DEFAULT : Kind.CACHED;
				String instance = "instance-" + i;
				starting.add(pool.submit(() -> {
					start.await();
					return TestGenerators.build(kind, backend.newAssigner(instance), UidClock.SYSTEM);
				}));
			}
			start.countDown();
			for (Future<AbstractUidGenerator> generator : starting) {
				generators.add(generator.get(60, TimeUnit.SECONDS));
			}
			Set<Long> workerIds = new HashSet<>();
			generators.forEach((generator) -> workerIds.add(generator.status().worker().id()));
			assertThat(workerIds).hasSize(GENERATORS);

			List<Future<long[]>> issuing = new ArrayList<>();
			for (AbstractUidGenerator generator : generators) {
				issuing.add(pool.submit(() -> TestGenerators.take(generator, IDS_PER_GENERATOR)));
			}
			long[][] runs = new long[GENERATORS][];
			for (int i = 0; i < GENERATORS; i++) {
				runs[i] = issuing.get(i).get(60, TimeUnit.SECONDS);
				long workerId = generators.get(i).status().worker().id();
				long foreign = Arrays.stream(runs[i])
					.filter((uid) -> TestGenerators.LAYOUT.decode(uid).workerId() != workerId)
					.count();
				assertThat(foreign).as("IDs of generator " + i + " carrying another worker ID").isZero();
			}
			assertThat(Duplicates.concat(runs)).hasSize(GENERATORS * IDS_PER_GENERATOR);
			assertThat(Duplicates.count(runs)).isZero();
		}
		finally {
			generators.forEach(AbstractUidGenerator::close);
		}
	}

}
