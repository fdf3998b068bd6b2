package io.github.uidgen.worker.redis;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import io.github.uidgen.redis.StandaloneRedis;
import io.github.uidgen.testsupport.TestRedis;
import io.github.uidgen.testsupport.ThrowawayRedis;
import io.github.uidgen.testsupport.ThrowawayRedisCluster;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The registry names the Redis process that wrote it last ({@code :server}: run_id, Cluster node ID or {@code -},
 * replication ID), read from {@code INFO} at every call, a renewal's too; the node ID is asked for only where
 * {@code INFO} says Redis runs as a Cluster node. A renewal that finds another process named there tells which
 * change it was (a restart, a slot moved to another master, a registry that names nobody) and records it there.
 */
class RedisRegistryServerTests {

	private static final String TAG = "{uid-test:server}";

	private static final long MARK = 1_760_000_000_000L;

	/** A run_id and a node ID of no process that runs. */
	private static final String ELSEWHERE = "0123456789abcdef0123456789abcdef01234567";

	private final List<LettuceConnectionFactory> factories = new ArrayList<>();

	@AfterEach
	void disconnect() {
		this.factories.forEach(LettuceConnectionFactory::destroy);
	}

	@Test
	void onAStandaloneRedisARenewalNamesItsProcessWithoutANodeAndTellsARestartAndAnUnnamedRegistry(
			@TempDir Path dir) {
		try (ThrowawayRedis redis = ThrowawayRedis.start(dir)) {
			StringRedisTemplate keys = new StringRedisTemplate(connected(redis.connectionFactory()));
			TestRedis.markNewRegistry(this.factories.get(0), TAG);
			RedisWorkerIdAssigner holder = assigner(this.factories.get(0));
			long workerId = holder.assign(1023).workerId();
			holder.renew(workerId, MARK);
			String here = redis.runId() + " - " + info(redis::cli, "master_replid");
			assertThat(server(keys)).startsWith(here + " ");

			keys.opsForValue().set(TAG + ":server", ELSEWHERE + " - " + info(redis::cli, "master_replid"));
			holder.renew(workerId, MARK + 1);
			assertThat(server(keys)).as("the renewal told a restart").isEqualTo(here + " restarted");

			keys.delete(TAG + ":server");
			holder.renew(workerId, MARK + 2);
			assertThat(server(keys)).as("the renewal told a registry that names nobody").isEqualTo(here + " unnamed");
			assertThat(keys.opsForHash().get(TAG + ":marks", Long.toString(workerId)))
				.isEqualTo(Long.toString(MARK + 2));
		}
	}

	@Test
	void onAClusterARenewalNamesTheNodeThatHoldsTheRegistryAndTellsASlotMovedFromARestart(@TempDir Path dir) {
		try (ThrowawayRedisCluster cluster = ThrowawayRedisCluster.start(dir)) {
			StringRedisTemplate keys = new StringRedisTemplate(connected(cluster.connectionFactory()));
			TestRedis.markNewRegistry(this.factories.get(0), TAG);
			int holding = cluster.portOfKey(TAG + ":leases");
			Function<String[], String> cli = (args) -> cluster.cli(holding, args);
			RedisWorkerIdAssigner holder = assigner(this.factories.get(0));
			long workerId = holder.assign(1023).workerId();
			holder.renew(workerId, MARK);
			String here = info(cli, "run_id") + " " + cluster.nodeId(holding) + " " + info(cli, "master_replid");
			assertThat(server(keys)).startsWith(here + " ");

			keys.opsForValue().set(TAG + ":server", ELSEWHERE + " " + ELSEWHERE + " " + info(cli, "master_replid"));
			holder.renew(workerId, MARK + 1);
			assertThat(server(keys)).as("the renewal told a slot moved from a restart").isEqualTo(here + " moved");
			assertThat(keys.opsForHash().get(TAG + ":marks", Long.toString(workerId)))
				.isEqualTo(Long.toString(MARK + 1));
		}
	}

	private LettuceConnectionFactory connected(LettuceConnectionFactory factory) {
		this.factories.add(factory);
		return factory;
	}

	private static RedisWorkerIdAssigner assigner(LettuceConnectionFactory factory) {
		return RedisWorkerIdAssigner.builder(factory)
			.keyPrefix("uid-test")
			.namespace("server")
			.leaseDuration(Duration.ofSeconds(5))
			.heartbeatInterval(Duration.ofMillis(100))
			.registryLossMargin(Duration.ofMillis(700))
			.instanceId("holder")
			.build();
	}

	private static String server(StringRedisTemplate keys) {
		return keys.opsForValue().get(TAG + ":server");
	}

	/** A field of {@code INFO server} or {@code INFO replication}, as {@code redis-cli} prints it. */
	private static String info(Function<String[], String> cli, String field) {
		for (String section : List.of("server", "replication")) {
			for (String line : cli.apply(new String[] { "INFO", section }).split("\r?\n")) {
				if (line.startsWith(field + ":")) {
					return line.substring(field.length() + 1).trim();
				}
			}
		}
		throw new IllegalStateException("INFO has no " + field);
	}

}
