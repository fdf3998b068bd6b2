package io.github.uidgen.snowflake;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;

import io.github.uidgen.UidClock;
import io.github.uidgen.UidException;
import io.github.uidgen.UidGenerator;
import io.github.uidgen.testsupport.Duplicates;
import io.github.uidgen.testsupport.TestRedis;
import io.github.uidgen.testsupport.ThrowawayRedis;
import io.github.uidgen.testsupport.ThrowawayRedisCluster;
import io.github.uidgen.testsupport.ThrowawayRedisSentinel;
import io.github.uidgen.testsupport.ThrowawayZooKeeper;
import io.github.uidgen.worker.WorkerIdAssigner;
import io.github.uidgen.worker.redis.RedisWorkerIdAssigner;
import io.github.uidgen.worker.zookeeper.ZookeeperWorkerIdAssigner;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.lettuce.core.resource.Delay;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.RedisConfiguration;
import org.springframework.data.redis.connection.RedisSentinelConfiguration;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Realistic store failovers while a default and a cached generator, at the default settings (30 s lease, 3 s mark
 * reservation, renewals every 1.5 s), hand out IDs to a few threads each at a steady pace: a Redis Cluster master
 * killed and taken over by its replica 20 s later, a Sentinel failover that finds the master down after 15 s, a
 * ZooKeeper server stopped for 20 s and started again on its data. Every call is answered and no ID repeats: issue
 * rides through on the lease, and renewals reach the store again as soon as it answers, however long the store's
 * client holds the calls sent while it was gone (Lettuce's 60 s command timeout; see {@code HungRenewalTests}). And a
 * crash during a Redis outage: the instances restarted under the same instance IDs, beside two newcomers, repeat
 * nothing the crashed ones issued.
 *
 * <p>The Redis clients are set up as the starter sets up the application's: reconnection attempts at most 500 ms apart,
 * and for the Cluster, topology refreshed on Lettuce's adaptive triggers (at most once a second) and every 10 s. The
 * four scenarios run side by side, each on a thread of its own within one test (most of their time is the outage
 * itself, and a test class run beside them would find threads of the same names); each closes its generators before
 * it stops its servers, so that the releases reach them. A failure names its scenario.
 */
class StoreOutageUnderLoadTests {

	/** The outage each scenario holds the store down for (the Sentinel's is its down-after time and the failover). */
	private static final Duration OUTAGE = Duration.ofSeconds(20);

	/** Sentinel's down-after time: its default, 30 s, exceeds the ride-through (lease less clock skew, 28 s). */
	private static final Duration SENTINEL_DOWN_AFTER = Duration.ofSeconds(15);

	/** A bound on every wait for a state, for a stalled machine. */
	private static final Duration BOUND = Duration.ofSeconds(90);

	/** Threads taking IDs from each generator. */
	private static final int THREADS = 2;

	/** IDs each thread takes every millisecond or so. */
	private static final int PER_TICK = 4;

	@Test
	void fourStoreOutagesSideBySide(@TempDir Path dir) throws Exception {
		Map<String, Scenario.Body> scenarios = new LinkedHashMap<>();
		scenarios.put("a Redis Cluster master killed, its replica taking over 20 s later",
				(scope) -> clusterMasterKilledAndTakenOver(dir.resolve("cluster"), scope));
		scenarios.put("a Sentinel failover that finds the master down after 15 s",
				(scope) -> sentinelFailover(dir.resolve("sentinel"), scope));
		scenarios.put("a ZooKeeper server stopped for 20 s", this::zooKeeperStoppedAndStartedAgain);
		scenarios.put("a crash during a Redis outage, restarted beside newcomers",
				(scope) -> crashDuringARedisOutage(dir.resolve("crash"), scope));
		Map<String, CompletableFuture<Void>> running = new LinkedHashMap<>();
		scenarios.forEach((name, body) -> {
			CompletableFuture<Void> done = new CompletableFuture<>();
			Thread thread = new Thread(() -> {
				Scope scope = new Scope();
				try {
					body.run(scope);
					scope.close();
					done.complete(null);
				}
				catch (Throwable ex) {
					try {
						scope.close();
					}
					catch (Throwable closing) {
						ex.addSuppressed(closing);
					}
					done.completeExceptionally(ex);
				}
			}, "scenario-" + running.size());
			thread.setDaemon(true);
			thread.start();
			running.put(name, done);
		});
		AssertionError failed = null;
		for (Map.Entry<String, CompletableFuture<Void>> scenario : running.entrySet()) {
			try {
				scenario.getValue().get(5, TimeUnit.MINUTES);
			}
			catch (ExecutionException | TimeoutException ex) {
				Throwable cause = (ex instanceof ExecutionException) ? ex.getCause() : ex;
				if (failed == null) {
					failed = new AssertionError("Scenario failed: " + scenario.getKey(), cause);
				}
				else {
					failed.addSuppressed(new AssertionError("Scenario failed: " + scenario.getKey(), cause));
				}
			}
		}
		if (failed != null) {
			throw failed;
		}
	}

	private void clusterMasterKilledAndTakenOver(Path dir, Scope scope) throws Exception {
		String namespace = "cluster-outage";
		try (ThrowawayRedisCluster cluster = ThrowawayRedisCluster.start(dir)) {
			String tag = "{uid-test:" + namespace + "}";
			int master = cluster.portOfKey(tag + ":leases");
			cluster.cli(master, TestRedis.markNewRegistryCommand(tag));
			int replica = cluster.addReplica(master, dir);
			RedisClusterConfiguration configuration = new RedisClusterConfiguration(
					cluster.ports().stream().map((port) -> "127.0.0.1:" + port).toList());
			Scenario scenario = Scenario.start((name) -> redisAssigner(scope.redis(configuration, true), namespace, name));
			scope.add(scenario);
			scenario.awaitIssuing();

			cluster.node(master).kill();
			long killedAt = System.nanoTime();
			scenario.awaitRenewalsFailed();
			holdUntil(killedAt + OUTAGE.toNanos());
			long takenOverAt = System.currentTimeMillis();
			cluster.takeOver(replica);
			scenario.awaitRenewedAfter(takenOverAt);
			scenario.finish();
			scope.close();
		}
	}

	private void sentinelFailover(Path dir, Scope scope) throws Exception {
		String namespace = "sentinel-outage";
		try (ThrowawayRedisSentinel set = ThrowawayRedisSentinel.start(dir, SENTINEL_DOWN_AFTER)) {
			String tag = "{uid-test:" + namespace + "}";
			int master = set.masterPort();
			set.cli(master, TestRedis.markNewRegistryCommand(tag));
			int replica = set.serverPorts().stream().filter((port) -> port != master).findFirst().orElseThrow();
			await("the replica to have the registry's generation").atMost(BOUND)
				.until(() -> set.cli(replica, "EXISTS", tag + ":generation").trim().equals("1"));
			RedisSentinelConfiguration configuration = new RedisSentinelConfiguration()
				.master(ThrowawayRedisSentinel.MASTER_NAME)
				.sentinel("127.0.0.1", set.sentinelPort());
			Scenario scenario = Scenario.start((name) -> redisAssigner(scope.redis(configuration, false), namespace, name));
			scope.add(scenario);
			scenario.awaitIssuing();

			// Blocks until the sentinel has found the master down (15 s) and promoted the replica.
			set.killMaster();
			long promotedAt = System.currentTimeMillis();
			scenario.awaitRenewedAfter(promotedAt);
			assertThat(scenario.markFailures()).as("the outage was seen by every generator").allMatch((n) -> n > 0);
			scenario.finish();
			scope.close();
		}
	}

	private void zooKeeperStoppedAndStartedAgain(Scope scope) throws Exception {
		String namespace = "zookeeper-outage";
		try (ThrowawayZooKeeper zooKeeper = ThrowawayZooKeeper.start()) {
			Scenario scenario = Scenario.start((name) -> {
				CuratorFramework client = zooKeeper.newClient(ZookeeperWorkerIdAssigner.DEFAULT_LEASE_DURATION);
				scope.add(client);
				return ZookeeperWorkerIdAssigner.builder(client).namespace(namespace).instanceId(name).build();
			});
			scope.add(scenario);
			scenario.awaitIssuing();

			zooKeeper.stop();
			long stoppedAt = System.nanoTime();
			scenario.awaitRenewalsFailed();
			holdUntil(stoppedAt + OUTAGE.toNanos());
			long restartedAt = System.currentTimeMillis();
			zooKeeper.restart();
			scenario.awaitRenewedAfter(restartedAt);
			scenario.finish();
			scope.close();
		}
	}

	/**
	 * Both instances crash (their keepers halted, nothing released, as a killed process) once renewals fail in a Redis
	 * outage of about 6 s; Redis comes back without its data. The instances start again under the same instance IDs
	 * beside two newcomers: after a restart that lost the registry every claim waits the registry-loss margin (30 s
	 * from the new Redis process's start), so all four start after it, and nothing they issue repeats what the
	 * crashed ones issued on their leases.
	 */
	private void crashDuringARedisOutage(Path dir, Scope scope) throws Exception {
		String namespace = "crash-outage";
		String tag = "{uid-test:" + namespace + "}";
		try (ThrowawayRedis redis = ThrowawayRedis.start(dir.resolve("redis"))) {
			redis.cli(TestRedis.markNewRegistryCommand(tag));
			RedisStandaloneConfiguration configuration = new RedisStandaloneConfiguration("127.0.0.1", redis.port());
			List<LettuceConnectionFactory> crashing = new ArrayList<>();
			Scenario before = Scenario.start((name) -> {
				LettuceConnectionFactory factory = scope.redis(configuration, false);
				crashing.add(factory);
				return redisAssigner(factory, namespace, name);
			});
			scope.add(before);
			before.awaitIssuing();

			redis.stop();
			long stoppedAt = System.nanoTime();
			before.awaitRenewalsFailed();
			// A killed process's client dies with it: nothing it had queued reaches Redis once it is back.
			crashing.forEach(LettuceConnectionFactory::destroy);
			before.crash();
			long[][] issuedBefore = before.ids();
			assertThat(before.refusals()).as("no call refused before the crash").isZero();
			holdUntil(stoppedAt + Duration.ofSeconds(6).toNanos());
			redis.start();

			// Restarted under the same instance IDs, and two newcomers, each starting on a thread of its own: every
			// claim waits the registry-loss margin.
			List<CompletableFuture<AbstractUidGenerator>> starting = new ArrayList<>();
			for (String name : List.of("default", "cached", "newcomer-default", "newcomer-cached")) {
				boolean cached = name.endsWith("cached");
				starting.add(CompletableFuture.supplyAsync(
						() -> generator(cached, redisAssigner(scope.redis(configuration, false), namespace, name)),
						(task) -> new Thread(task, "start-" + name).start()));
			}
			List<AbstractUidGenerator> after = new ArrayList<>();
			for (CompletableFuture<AbstractUidGenerator> start : starting) {
				AbstractUidGenerator generator = start.get(BOUND.toSeconds(), TimeUnit.SECONDS);
				scope.add(generator::close);
				after.add(generator);
			}
			List<long[]> all = new ArrayList<>(Arrays.asList(issuedBefore));
			for (AbstractUidGenerator generator : after) {
				long[] ids = new long[20_000];
				for (int i = 0; i < ids.length; i++) {
					ids[i] = generator.getUID();
				}
				all.add(ids);
			}
			assertThat(Duplicates.count(all.toArray(long[][]::new))).as("IDs issued twice, before and after").isZero();
			assertThat(after.stream().map((generator) -> generator.status().worker().id()).distinct())
				.as("four worker IDs of their own")
				.hasSize(4);
			scope.close();
		}
	}

	/** Holds the store down until the outage's end: the outage's length is what the scenario is about. */
	private static void holdUntil(long nanos) {
		long left;
		while ((left = nanos - System.nanoTime()) > 0) {
			LockSupport.parkNanos(left);
		}
	}

	/** The redis assigner at its defaults (30 s lease, 30 s registry-loss margin). */
	private static WorkerIdAssigner redisAssigner(LettuceConnectionFactory factory, String namespace, String name) {
		return RedisWorkerIdAssigner.builder(factory).keyPrefix("uid-test").namespace(namespace).instanceId(name).build();
	}

	private static AbstractUidGenerator generator(boolean cached, WorkerIdAssigner assigner) {
		return cached ? CachedUidGenerator.builder().clock(UidClock.SYSTEM).workerIdAssigner(assigner).build()
				: DefaultUidGenerator.builder().clock(UidClock.SYSTEM).workerIdAssigner(assigner).build();
	}

	/** What one scenario opened, closed the latest first, before the scenario stops its servers. */
	private static final class Scope implements AutoCloseable {

		private final List<AutoCloseable> open = Collections.synchronizedList(new ArrayList<>());

		void add(AutoCloseable resource) {
			this.open.add(resource);
		}

		/** A connection factory set up as the starter sets up the application's client; closed with the scope. */
		LettuceConnectionFactory redis(RedisConfiguration configuration, boolean cluster) {
			ClientResources clientResources = DefaultClientResources.builder()
				.reconnectDelay(Delay.exponential(Duration.ofMillis(10), Duration.ofMillis(500), 2, TimeUnit.MILLISECONDS))
				.build();
			LettuceClientConfiguration.LettuceClientConfigurationBuilder client = LettuceClientConfiguration.builder()
				.clientResources(clientResources);
			if (cluster) {
				client.clientOptions(ClusterClientOptions.builder()
					.topologyRefreshOptions(ClusterTopologyRefreshOptions.builder()
						.enableAllAdaptiveRefreshTriggers()
						.adaptiveRefreshTriggersTimeout(Duration.ofSeconds(1))
						.enablePeriodicRefresh(Duration.ofSeconds(10))
						.build())
					.build());
			}
			LettuceConnectionFactory factory;
			if (configuration instanceof RedisClusterConfiguration clusterConfiguration) {
				factory = new LettuceConnectionFactory(clusterConfiguration, client.build());
			}
			else if (configuration instanceof RedisSentinelConfiguration sentinelConfiguration) {
				factory = new LettuceConnectionFactory(sentinelConfiguration, client.build());
			}
			else {
				factory = new LettuceConnectionFactory((RedisStandaloneConfiguration) configuration, client.build());
			}
			factory.afterPropertiesSet();
			factory.start();
			add(() -> clientResources.shutdown(0, 2, TimeUnit.SECONDS));
			add(factory::destroy);
			return factory;
		}

		@Override
		public void close() throws Exception {
			List<AutoCloseable> all;
			synchronized (this.open) {
				all = new ArrayList<>(this.open);
				this.open.clear();
			}
			for (int i = all.size() - 1; i >= 0; i--) {
				all.get(i).close();
			}
		}

	}

	/** A default and a cached generator at their defaults, each with threads taking IDs at a steady pace. */
	private static final class Scenario implements AutoCloseable {

		/** One scenario's steps. */
		interface Body {

			void run(Scope scope) throws Exception;

		}

		private final List<AbstractUidGenerator> generators = new ArrayList<>();

		private final List<PacedLoad> loads = new ArrayList<>();

		private boolean crashed;

		static Scenario start(Function<String, WorkerIdAssigner> assigners) {
			Scenario scenario = new Scenario();
			try {
				for (String name : List.of("default", "cached")) {
					AbstractUidGenerator generator = generator(name.equals("cached"), assigners.apply(name));
					scenario.generators.add(generator);
					scenario.loads.add(new PacedLoad(generator, name));
				}
			}
			catch (RuntimeException ex) {
				try {
					scenario.close();
				}
				catch (InterruptedException interrupted) {
					Thread.currentThread().interrupt();
				}
				throw ex;
			}
			return scenario;
		}

		void awaitIssuing() {
			await("every generator to issue").atMost(BOUND)
				.until(() -> this.loads.stream().allMatch((load) -> load.count() > 1_000));
		}

		/** Waits until every generator has seen renewals fail, or not answer within a renewal interval. */
		void awaitRenewalsFailed() {
			await("renewals to fail").atMost(BOUND)
				.pollInterval(Duration.ofMillis(20))
				.until(() -> this.generators.stream().allMatch((g) -> g.status().worker().markFailures() >= 1));
		}

		/**
		 * Waits until every generator has renewed its lease with a renewal sent after the given time: issue may go on
		 * on the lease to a time more than 20 s past it.
		 */
		void awaitRenewedAfter(long millis) {
			Instant past = Instant.ofEpochMilli(millis + 20_000);
			await("renewals to reach the store again").atMost(BOUND)
				.pollInterval(Duration.ofMillis(50))
				.until(() -> this.generators.stream().allMatch((g) -> {
					Instant until = g.status().worker().issuableUntil();
					return until != null && until.isAfter(past) && g.status().failure() == null;
				}));
		}

		List<Long> markFailures() {
			return this.generators.stream().map((g) -> g.status().worker().markFailures()).toList();
		}

		/** Issues a while longer after the store is back, then stops the load and checks every ID and every call. */
		void finish() throws InterruptedException {
			int[] counts = this.loads.stream().mapToInt(PacedLoad::count).toArray();
			await("issue after the outage").atMost(BOUND)
				.until(() -> {
					for (int i = 0; i < counts.length; i++) {
						if (this.loads.get(i).count() < counts[i] + 5_000) {
							return false;
						}
					}
					return true;
				});
			for (PacedLoad load : this.loads) {
				load.stop();
			}
			for (PacedLoad load : this.loads) {
				assertThat(load.firstRefusal()).as("the first call refused by " + load.name).isNull();
			}
			assertThat(refusals()).as("calls refused").isZero();
			assertThat(Duplicates.count(ids())).as("IDs issued twice").isZero();
		}

		/** Stops the load, then halts both generators as a killed process stops: nothing released. */
		void crash() throws InterruptedException {
			for (PacedLoad load : this.loads) {
				load.stop();
			}
			for (AbstractUidGenerator generator : this.generators) {
				generator.simulateCrash();
			}
			this.crashed = true;
		}

		long[][] ids() {
			return this.loads.stream().map(PacedLoad::ids).toArray(long[][]::new);
		}

		long refusals() {
			return this.loads.stream().mapToLong(PacedLoad::refusals).sum();
		}

		@Override
		public void close() throws InterruptedException {
			for (PacedLoad load : this.loads) {
				load.stop();
			}
			if (!this.crashed) {
				this.generators.forEach(AbstractUidGenerator::close);
			}
		}

	}

	/** {@link #THREADS} threads taking {@link #PER_TICK} IDs each about every millisecond, every ID and refusal kept. */
	private static final class PacedLoad {

		final String name;

		private final List<Issuer> issuers = new ArrayList<>();

		PacedLoad(UidGenerator generator, String name) {
			this.name = name;
			for (int i = 0; i < THREADS; i++) {
				this.issuers.add(Issuer.pacedThroughRefusals(generator, "load-" + name + "-" + i, PER_TICK));
			}
		}

		int count() {
			return this.issuers.stream().mapToInt(Issuer::count).sum();
		}

		long refusals() {
			return this.issuers.stream().mapToLong(Issuer::refusals).sum();
		}

		UidException firstRefusal() {
			return this.issuers.stream()
				.map(Issuer::firstRefusal)
				.filter((refusal) -> refusal != null)
				.findFirst()
				.orElse(null);
		}

		void stop() throws InterruptedException {
			for (Issuer issuer : this.issuers) {
				issuer.stop();
			}
		}

		long[] ids() {
			return Duplicates.concat(this.issuers.stream().map(Issuer::ids).toArray(long[][]::new));
		}

	}

}
