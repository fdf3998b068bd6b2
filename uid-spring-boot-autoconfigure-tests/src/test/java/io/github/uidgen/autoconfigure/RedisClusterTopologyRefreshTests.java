package io.github.uidgen.autoconfigure;

import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Collectors;

import io.github.uidgen.testsupport.ThrowawayRedisCluster;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * With the redis assigner the starter sets the topology refresh of the application's Lettuce Cluster client: Lettuce's
 * adaptive triggers at most once a second, and a periodic refresh every 10 s (Spring Boot sets neither; Lettuce 7.5's
 * own triggers wait 5 s between refreshes, older versions have none), unless the application set a
 * {@code spring.data.redis.lettuce.cluster.refresh.*} property. Against a real Cluster of the test's own: the
 * application's client follows a replica's takeover.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RedisClusterTopologyRefreshTests {

	private static final String KEY = "{uid-refresh}:probe";

	private ThrowawayRedisCluster cluster;

	private ApplicationContextRunner contextRunner;

	@BeforeAll
	void startCluster(@TempDir Path dir) {
		this.cluster = ThrowawayRedisCluster.start(dir);
		String nodes = this.cluster.ports()
			.stream()
			.map((port) -> "127.0.0.1:" + port)
			.collect(Collectors.joining(","));
		// Only the Redis client and the assigner: the generator is not what is tested here.
		this.contextRunner = new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(DataRedisAutoConfiguration.class, RedisWorkerIdAssignerAutoConfiguration.class))
			.withPropertyValues("spring.data.redis.cluster.nodes=" + nodes, "spring.data.redis.timeout=5s",
					"uid.worker.assigner=redis");
	}

	@AfterAll
	void stopCluster() {
		if (this.cluster != null) {
			this.cluster.close();
		}
	}

	@Test
	void theClusterClientRefreshesItsTopologyOnAdaptiveTriggersAndPeriodically() {
		this.contextRunner.run((context) -> {
			ClusterTopologyRefreshOptions refresh = refreshOptions(context.getBean(RedisConnectionFactory.class));
			assertThat(refresh.getAdaptiveRefreshTriggers()).containsExactlyInAnyOrder(
					ClusterTopologyRefreshOptions.RefreshTrigger.values());
			assertThat(refresh.getAdaptiveRefreshTimeout()).isEqualTo(Duration.ofSeconds(1));
			assertThat(refresh.isPeriodicRefreshEnabled()).isTrue();
			assertThat(refresh.getRefreshPeriod()).isEqualTo(Duration.ofSeconds(10));
		});
	}

	/** Whoever set a refresh property gets Spring Boot's and Lettuce's settings, untouched. */
	@Test
	void aRefreshPropertyOfTheApplicationsLeavesTheRefreshToIt() {
		this.contextRunner.withPropertyValues("spring.data.redis.lettuce.cluster.refresh.period=30s").run((context) -> {
			ClusterTopologyRefreshOptions refresh = refreshOptions(context.getBean(RedisConnectionFactory.class));
			assertThat(refresh.getAdaptiveRefreshTimeout())
				.isEqualTo(ClusterTopologyRefreshOptions.DEFAULT_ADAPTIVE_REFRESH_TIMEOUT_DURATION);
			assertThat(refresh.getRefreshPeriod()).isEqualTo(Duration.ofSeconds(30));
		});
		this.contextRunner.withPropertyValues("spring.data.redis.lettuce.cluster.refresh.dynamic-refresh-sources=false")
			.run((context) -> {
				ClusterTopologyRefreshOptions refresh = refreshOptions(context.getBean(RedisConnectionFactory.class));
				assertThat(refresh.useDynamicRefreshSources()).isFalse();
				assertThat(refresh.isPeriodicRefreshEnabled()).isFalse();
				assertThat(refresh.getAdaptiveRefreshTimeout())
					.isEqualTo(ClusterTopologyRefreshOptions.DEFAULT_ADAPTIVE_REFRESH_TIMEOUT_DURATION);
			});
	}

	/**
	 * The master of a key's slot is killed; its replica takes over. The application's client sends the next commands
	 * for that slot to the new master, within the bound (a client that never refreshed its topology would keep sending
	 * them to the dead master, each failing after the test's 5 s command timeout).
	 */
	@Test
	void theApplicationsClientFollowsAReplicaTakingOverFromAMasterThatDied(@TempDir Path dir) {
		int master = this.cluster.portOfKey(KEY);
		int replica = this.cluster.addReplica(master, dir);
		this.contextRunner.run((context) -> {
			StringRedisTemplate redis = new StringRedisTemplate(context.getBean(RedisConnectionFactory.class));
			redis.opsForValue().set(KEY, "before");
			// A Cluster replica redirects reads; it holds the one key once it has replicated the write.
			await("the replica to have the key").atMost(Duration.ofSeconds(30))
				.until(() -> this.cluster.cli(replica, "DBSIZE").trim().equals("1"));
			this.cluster.node(master).kill();
			this.cluster.takeOver(replica);
			await("the application's client to reach the new master").atMost(Duration.ofSeconds(60))
				.pollInterval(Duration.ofMillis(200))
				.ignoreExceptions()
				.until(() -> {
					redis.opsForValue().set(KEY, "after");
					return "after".equals(redis.opsForValue().get(KEY));
				});
			assertThat(this.cluster.cli(replica, "GET", KEY).trim()).isEqualTo("after");
		});
	}

	private static ClusterTopologyRefreshOptions refreshOptions(RedisConnectionFactory factory) {
		ClusterClientOptions options = (ClusterClientOptions) ((LettuceConnectionFactory) factory).getClientConfiguration()
			.getClientOptions()
			.orElseThrow();
		return options.getTopologyRefreshOptions();
	}

}
