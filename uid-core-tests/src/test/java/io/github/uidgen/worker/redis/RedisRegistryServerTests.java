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
import io.github.uidgen.worker.WorkerAssignment;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

/**
 * The registry names the Redis process that wrote it last ({@code :server}: run_id, Cluster node ID or {@code -},
 * replication ID), read from {@code INFO} at every claim and release and at a holder's checked renewals (the first,
 * any after a failed one, and one every {@code serverCheckInterval}); the node ID is asked for only where {@code INFO}
 * says Redis runs as a Cluster node. A call that finds another process named there tells which change it was (a
 * restart, a slot moved to another master, a registry that names nobody) and records it there.
 */
class RedisRegistryServerTests {

	private static final String TAG = "{uid-test:server}";

	private static final long MARK = 1_760_000_000_000L;

	/** A run_id and a node ID of no process that runs. */
	private static final String ELSEWHERE = "0123456789abcdef0123456789abcdef01234567";

	private final List<LettuceConnectionFactory> factories = new ArrayList<>();

	private long infoReadings;

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

	/**
	 * A renewal between checks does not read {@code INFO} (a fifth of what a renewal cost Redis) and so does not notice
	 * that another process serves the registry; the next claim does, and waits the margin. The renewal after a failed
	 * one reads it again.
	 */
	@Test
	void renewalsBetweenChecksLeaveTellingAnotherProcessToClaimsAndTheRenewalAfterAFailureChecks(@TempDir Path dir) {
		try (ThrowawayRedis redis = ThrowawayRedis.start(dir)) {
			StringRedisTemplate keys = new StringRedisTemplate(connected(redis.connectionFactory()));
			TestRedis.markNewRegistry(this.factories.get(0), TAG);
			RedisWorkerIdAssigner holder = builder(this.factories.get(0)).serverCheckInterval(Duration.ofHours(1))
				.build();
			long workerId = holder.assign(1023).workerId();
			long before = infoCalls(redis);
			holder.renew(workerId, MARK);
			assertThat(infoCalls(redis)).as("the first renewal checks").isEqualTo(before + 1);
			String here = server(keys);

			// As a slot moved to another node looks: the claim makes newcomers wait the margin from now.
			keys.opsForValue().set(TAG + ":server", ELSEWHERE + " " + ELSEWHERE + " -");
			for (int i = 1; i <= 3; i++) {
				holder.renew(workerId, MARK + i);
			}
			assertThat(infoCalls(redis)).as("renewals between checks read no INFO").isEqualTo(before + 1);
			assertThat(keys.opsForHash().get(TAG + ":marks", Long.toString(workerId)))
				.isEqualTo(Long.toString(MARK + 3));
			assertThat(server(keys)).as("not noticed by a renewal between checks").startsWith(ELSEWHERE);

			long changedAt = System.currentTimeMillis();
			WorkerAssignment next = builder(this.factories.get(0)).instanceId("next").build().assign(1023);
			assertThat(System.currentTimeMillis()).as("the newcomer waited the margin")
				.isGreaterThanOrEqualTo(changedAt + 700);
			assertThat(next.workerId()).isNotEqualTo(workerId);
			assertThat(server(keys)).as("told by the claim")
				.isEqualTo(here.substring(0, here.lastIndexOf(' ')) + " moved");

			// Redis refuses every script while it is over its memory limit: a renewal that fails.
			assertThat(redis.cli("CONFIG", "SET", "maxmemory", "1")).isEqualTo("OK");
			assertThatException().isThrownBy(() -> holder.renew(workerId, MARK + 4));
			assertThat(redis.cli("CONFIG", "SET", "maxmemory", "0")).isEqualTo("OK");
			long beforeRetry = infoCalls(redis);
			holder.renew(workerId, MARK + 5);
			assertThat(infoCalls(redis)).as("the renewal after a failed one checks").isEqualTo(beforeRetry + 1);
			holder.renew(workerId, MARK + 6);
			assertThat(infoCalls(redis)).as("and the next does not").isEqualTo(beforeRetry + 1);
		}
	}

	/**
	 * How many times Redis ran {@code INFO}, scripts' calls included, less this test's readings: each counts itself
	 * once it has answered.
	 */
	private long infoCalls(ThrowawayRedis redis) {
		String stats = redis.cli("INFO", "commandstats");
		long readingsBefore = this.infoReadings++;
		for (String line : stats.split("\\r?\\n")) {
			if (line.startsWith("cmdstat_info:")) {
				return Long.parseLong(line.replaceAll("^cmdstat_info:calls=(\\d+),.*", "$1")) - readingsBefore;
			}
		}
		throw new IllegalStateException("INFO commandstats counts no INFO: " + stats);
	}

	private LettuceConnectionFactory connected(LettuceConnectionFactory factory) {
		this.factories.add(factory);
		return factory;
	}

	/** The holder of the tests that rename the registry's writer by hand: it reads who serves it at every renewal. */
	private static RedisWorkerIdAssigner assigner(LettuceConnectionFactory factory) {
		return builder(factory).serverCheckInterval(Duration.ZERO).build();
	}

	private static RedisWorkerIdAssigner.Builder builder(LettuceConnectionFactory factory) {
		return RedisWorkerIdAssigner.builder(factory)
			.keyPrefix("uid-test")
			.namespace("server")
			.leaseDuration(Duration.ofSeconds(5))
			.heartbeatInterval(Duration.ofMillis(100))
			.registryLossMargin(Duration.ofMillis(700))
			.instanceId("holder");
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
