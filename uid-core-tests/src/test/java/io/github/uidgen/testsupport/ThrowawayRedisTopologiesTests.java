package io.github.uidgen.testsupport;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Redis Cluster and Sentinel sets the topology tests rely on are what they claim: three masters that split the
 * slots and serve each key from its slot's master, and a master, replica and sentinel that fail over on request or
 * when the master dies, with the data replicated. It also pins down what a client of Spring Data Redis (Lettuce,
 * sentinel configuration) sees across a requested failover: until the sentinel demotes the old master, writes of a
 * client connected before still go there and are lost; after it, the client follows the sentinel to the new master.
 */
class ThrowawayRedisTopologiesTests {

	@Test
	void threeMastersSplitTheSlotsAndEachKeyLivesOnItsSlotsMaster(@TempDir Path dir) {
		try (ThrowawayRedisCluster cluster = ThrowawayRedisCluster.start(dir)) {
			List<Integer> ports = cluster.ports();
			assertThat(ports).hasSize(3).doesNotHaveDuplicates();
			for (int port : ports) {
				assertThat(cluster.cli(port, "CLUSTER", "INFO")).contains("cluster_state:ok", "cluster_size:3");
			}
			LettuceConnectionFactory factory = cluster.connectionFactory();
			try {
				StringRedisTemplate redis = new StringRedisTemplate(factory);
				for (String key : List.of("{a}:x", "{b}:x", "{c}:x", "{d}:x")) {
					redis.opsForValue().set(key, "v-" + key);
					int owner = cluster.portOfKey(key);
					assertThat(cluster.cli(owner, "GET", key)).isEqualTo("v-" + key);
					ports.stream()
						.filter((port) -> port != owner)
						.forEach((port) -> assertThat(cluster.cli(port, "GET", key)).startsWith("MOVED"));
				}
				assertThat(ports.stream().map((port) -> cluster.cli(port, "DBSIZE")).filter((size) -> !"0".equals(size)))
					.as("the four keys are spread over more than one master")
					.hasSizeGreaterThan(1);
			}
			finally {
				factory.destroy();
			}
		}
	}

	@Test
	void theSentinelFailsOverOnRequestAndClientsFollowOnceTheOldMasterIsDemoted(@TempDir Path dir) {
		try (ThrowawayRedisSentinel set = ThrowawayRedisSentinel.start(dir)) {
			int first = set.masterPort();
			assertThat(set.serverPorts()).hasSize(2).contains(first);
			LettuceConnectionFactory before = set.connectionFactory();
			try {
				StringRedisTemplate redis = new StringRedisTemplate(before);
				redis.opsForValue().set("before-failover", "1");
				assertThat(set.cli(first, "WAIT", "1", "5000")).isEqualTo("1");

				// failover() gives up with an exception when no replica is promoted within its own generous bound.
				int second = set.failover();
				assertThat(second).isNotEqualTo(first).isIn(set.serverPorts());
				assertThat(set.cli(second, "GET", "before-failover")).as("replicated before the failover")
					.isEqualTo("1");
				// Until the sentinel demotes the old master (at its next look, some 15 s on), that server still takes
				// writes, and a client connected before the failover still sends them there: they are lost with the
				// demotion. This is the window a holder of a Redis lease must not trust.
				redis.opsForValue().set("split-brain", "1");
				assertThat(set.cli(first, "GET", "split-brain")).as("written to the old master").isEqualTo("1");
				assertThat(set.cli(second, "GET", "split-brain")).as("not on the new master").isEmpty();

				set.awaitFollowing(first);
				assertThat(set.cli(first, "GET", "split-brain")).as("lost with the demotion").isEmpty();
				assertThat(writeWithin(redis, "after-demotion", Duration.ofSeconds(20)))
					.as("the client follows the sentinel to the new master once the old one is demoted")
					.isTrue();
				assertThat(set.cli(second, "GET", "after-demotion")).isEqualTo("1");
			}
			finally {
				before.destroy();
			}
		}
	}

	@Test
	void theSentinelPromotesTheReplicaWhenTheMasterDiesAndClientsFollow(@TempDir Path dir) {
		try (ThrowawayRedisSentinel set = ThrowawayRedisSentinel.start(dir)) {
			int first = set.masterPort();
			LettuceConnectionFactory factory = set.connectionFactory();
			try {
				StringRedisTemplate redis = new StringRedisTemplate(factory);
				redis.opsForValue().set("before-crash", "1");
				// Replication is asynchronous: make sure the replica has the key before its master is killed.
				assertThat(set.cli(first, "WAIT", "1", "5000")).isEqualTo("1");

				int second = set.killMaster();
				assertThat(second).isNotEqualTo(first).isIn(set.serverPorts());
				assertThat(set.server(first).isAlive()).isFalse();
				assertThat(writeWithin(redis, "after-crash", Duration.ofSeconds(20))).isTrue();
				// Right after the promotion the client may still be re-resolving the master: read within a bound.
				set.server(second)
					.awaitTrue(Duration.ofSeconds(20), () -> servesThroughClient(redis, "before-crash")
							&& servesThroughClient(redis, "after-crash"), "serve both keys through the client");
				assertThat(set.cli(second, "GET", "after-crash")).isEqualTo("1");
			}
			finally {
				factory.destroy();
			}
		}
	}

	/**
	 * The sentinel saves its configuration with an fsync at each step of a failover, on its one event loop: on a
	 * disk busy with a parallel build one save stalled it 2.9 s, which it took for a clock jump (TILT mode, no
	 * failover for 30 s). Its configuration lies in memory, and goes with the set.
	 */
	@Test
	void theSentinelKeepsItsConfigurationInMemoryAndRemovesItOnClose(@TempDir Path dir) {
		Path config;
		try (ThrowawayRedisSentinel set = ThrowawayRedisSentinel.start(dir)) {
			String info = set.cli(set.sentinelPort(), "INFO", "server");
			String line = info.lines()
				.filter((entry) -> entry.startsWith("config_file:"))
				.findFirst()
				.orElseThrow(() -> new AssertionError("no config_file in INFO server: " + info));
			config = Path.of(line.substring("config_file:".length()).trim());
			assertThat(config).as("the sentinel's configuration file").startsWith(Path.of("/dev/shm")).exists();
		}
		assertThat(config.getParent()).as("its directory, once the set is closed").doesNotExist();
	}

	private static boolean servesThroughClient(StringRedisTemplate redis, String key) {
		try {
			return "1".equals(redis.opsForValue().get(key));
		}
		catch (RuntimeException ex) {
			return false;
		}
	}

	private static boolean writeWithin(StringRedisTemplate redis, String key, Duration bound) {
		long deadline = System.nanoTime() + bound.toNanos();
		while (System.nanoTime() < deadline) {
			try {
				redis.opsForValue().set(key, "1");
				return true;
			}
			catch (RuntimeException ex) {
				try {
					Thread.sleep(100);
				}
				catch (InterruptedException interrupted) {
					Thread.currentThread().interrupt();
					return false;
				}
			}
		}
		return false;
	}

}
