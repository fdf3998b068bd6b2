package io.github.uidgen.test.assigners;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import io.github.uidgen.UidGenerator;
import io.github.uidgen.UidLayout;
import io.github.uidgen.snowflake.AbstractUidGenerator;
import io.github.uidgen.snowflake.CachedUidGenerator;
import io.github.uidgen.snowflake.DefaultUidGenerator;
import io.github.uidgen.test.AbstractLeaseWorkerIdAssignerContractTests;
import io.github.uidgen.test.WorkerFleetContract;
import io.github.uidgen.testsupport.Duplicates;
import io.github.uidgen.testsupport.TestRedis;
import io.github.uidgen.worker.WorkerIdAssigner;
import io.github.uidgen.worker.redis.RedisWorkerIdAssigner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The redis assigner on a Redis topology of the test's own, through Spring Data Redis's configuration for it: the
 * lease contract (each test in a fresh namespace), and several generators, each on a connection factory of its own
 * as separate instances would be, sharing one namespace and issuing two million IDs together without one repeated.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AbstractRedisTopologyAssignerTests extends AbstractLeaseWorkerIdAssignerContractTests {

	/** The heartbeat, and so a probation of 75 ms per claim. */
	private static final Duration HEARTBEAT = Duration.ofMillis(50);

	private static final int GENERATORS = 4;

	private static final int IDS_PER_GENERATOR = 500_000;

	private Path dir;

	private LettuceConnectionFactory connectionFactory;

	private String namespace;

	/** Starts the servers, keeping their data under a directory of the test's own. */
	abstract void startServers(Path dir);

	/** Opens a started connection factory on the servers, through the topology's Spring Data Redis configuration. */
	abstract LettuceConnectionFactory newConnectionFactory();

	abstract void stopServers();

	@BeforeAll
	void start() throws IOException {
		this.dir = Files.createTempDirectory("uid-redis-topology");
		startServers(this.dir);
		this.connectionFactory = newConnectionFactory();
	}

	@BeforeEach
	void newNamespace() {
		this.namespace = TestRedis.uniqueNamespace("topology");
		TestRedis.markNewRegistry(this.connectionFactory, hashTag());
	}

	@AfterEach
	void wipeNamespace() {
		TestRedis.wipe(this.connectionFactory, hashTag());
	}

	@AfterAll
	void stop() throws IOException {
		try {
			this.connectionFactory.destroy();
			stopServers();
		}
		finally {
			try (Stream<Path> files = Files.walk(this.dir)) {
				files.sorted(Comparator.reverseOrder()).forEach((file) -> file.toFile().delete());
			}
		}
	}

	String hashTag() {
		return "{uid-test:" + this.namespace + "}";
	}

	LettuceConnectionFactory connectionFactory() {
		return this.connectionFactory;
	}

	@Override
	protected WorkerIdAssigner newAssigner(String instanceId, Duration lease) {
		return assigner(this.connectionFactory, instanceId, lease);
	}

	private RedisWorkerIdAssigner assigner(LettuceConnectionFactory factory, String instanceId, Duration lease) {
		return assigner(factory, instanceId, lease, 256);
	}

	private RedisWorkerIdAssigner assigner(LettuceConnectionFactory factory, String instanceId, Duration lease,
			int claimHistory) {
		return RedisWorkerIdAssigner.builder(factory)
			.keyPrefix("uid-test")
			.namespace(this.namespace)
			.leaseDuration(lease)
			// Each claim stands a probation of a heartbeat and a half: short, so that claims made one after another
			// stay within one LEASE of each other, as the contract's tests expect.
			.heartbeatInterval(HEARTBEAT)
			.instanceId(instanceId)
			.claimHistory(claimHistory)
			.build();
	}

	/** The fleet and the claim history on this topology: one read script, on the namespace's slot. */
	@Nested
	class Fleet extends WorkerFleetContract {

		@Override
		protected WorkerIdAssigner newAssigner(String instanceId, Duration lease, int claimHistory) {
			return assigner(connectionFactory(), instanceId, lease, claimHistory);
		}

	}

	@Test
	void generatorsOnConnectionsOfTheirOwnShareANamespaceWithDistinctWorkerIdsAndNoRepeatedId() throws Exception {
		UidLayout layout = UidLayout.defaults();
		ExecutorService pool = Executors.newFixedThreadPool(GENERATORS);
		List<LettuceConnectionFactory> factories = new ArrayList<>();
		List<AbstractUidGenerator> generators = new ArrayList<>();
		try {
			CountDownLatch go = new CountDownLatch(1);
			List<Future<AbstractUidGenerator>> starting = new ArrayList<>();
			for (int i = 0; i < GENERATORS; i++) {
				LettuceConnectionFactory factory = newConnectionFactory();
				factories.add(factory);
				boolean cached = i % 2 == 1;
				RedisWorkerIdAssigner assigner = assigner(factory, "instance-" + i, LEASE);
				starting.add(pool.submit(() -> {
					go.await();
					return cached ? CachedUidGenerator.builder().layout(layout).workerIdAssigner(assigner).build()
							: DefaultUidGenerator.builder().layout(layout).workerIdAssigner(assigner).build();
				}));
			}
			go.countDown();
			for (Future<AbstractUidGenerator> generator : starting) {
				generators.add(generator.get(60, TimeUnit.SECONDS));
			}
			Set<Long> workerIds = new HashSet<>();
			generators.forEach((generator) -> workerIds.add(generator.status().worker().id()));
			assertThat(workerIds).hasSize(GENERATORS);

			List<Future<long[]>> issuing = new ArrayList<>();
			for (UidGenerator generator : generators) {
				issuing.add(pool.submit(() -> take(generator, IDS_PER_GENERATOR)));
			}
			long[][] runs = new long[GENERATORS][];
			for (int i = 0; i < GENERATORS; i++) {
				runs[i] = issuing.get(i).get(120, TimeUnit.SECONDS);
				long workerId = generators.get(i).status().worker().id();
				for (long uid : runs[i]) {
					if (layout.decode(uid).workerId() != workerId) {
						throw new AssertionError("ID " + uid + " of generator " + i + " carries another worker ID");
					}
				}
			}
			assertThat(Duplicates.concat(runs)).hasSize(GENERATORS * IDS_PER_GENERATOR);
			assertThat(Duplicates.count(runs)).isZero();
		}
		finally {
			generators.forEach(AbstractUidGenerator::close);
			factories.forEach(LettuceConnectionFactory::destroy);
			pool.shutdownNow();
		}
	}

	private static long[] take(UidGenerator generator, int count) {
		long[] ids = new long[count];
		for (int i = 0; i < count; i++) {
			ids[i] = generator.getUID();
		}
		return ids;
	}

}
