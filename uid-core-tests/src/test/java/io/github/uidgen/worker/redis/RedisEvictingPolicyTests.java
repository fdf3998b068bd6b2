package io.github.uidgen.worker.redis;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import io.github.uidgen.CapturedLog;
import io.github.uidgen.testsupport.TestRedis;
import io.github.uidgen.testsupport.ThrowawayRedis;
import io.github.uidgen.testsupport.ThrowawayRedisCluster;
import io.github.uidgen.worker.WorkerAssignment;
import io.github.uidgen.worker.WorkerAssignmentException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A Redis whose {@code maxmemory-policy} is {@code allkeys-*} may evict the registry's keys, none of which expires,
 * with the effect of a restore: a claim is refused, naming the policy and the fix, unless the application allows it,
 * in which case each claim warns. {@code volatile-*} policies only evict keys with an expiry and are accepted. On a
 * Cluster the master that holds the registry's slot is the one read.
 */
class RedisEvictingPolicyTests {

	private static final String TAG = "{uid-test:evicting}";

	@RegisterExtension
	final CapturedLog assignerLog = CapturedLog.of(RedisWorkerIdAssigner.class, Level.INFO);

	@Test
	void aClaimOnARedisThatMayEvictTheRegistryIsRefusedUnlessAllowedWithAWarning(@TempDir Path dir) {
		try (ThrowawayRedis redis = ThrowawayRedis.start(dir, "--maxmemory-policy", "allkeys-lru")) {
			LettuceConnectionFactory factory = redis.connectionFactory();
			try {
				TestRedis.markNewRegistry(factory, TAG);
				assertThatExceptionOfType(WorkerAssignmentException.class)
					.isThrownBy(() -> assigner(factory, "refused", false).assign(1023))
					.withMessageContaining("maxmemory-policy allkeys-lru")
					.withMessageContaining("noeviction")
					.withMessageContaining("uid.worker.redis.allow-evicting-policy=true");
				assertThat(redis.cli("EXISTS", TAG + ":leases")).as("nothing claimed").isEqualTo("0");

				RedisWorkerIdAssigner allowing = assigner(factory, "allowing", true);
				WorkerAssignment assignment = allowing.assign(1023);
				assertThat(assignment.workerId()).isZero();
				assertThat(warnings()).anySatisfy((message) -> assertThat(message).contains("maxmemory-policy allkeys-lru")
					.contains("accepted because allow-evicting-policy is on"));
				allowing.release(assignment.workerId(), WorkerAssignment.NO_MARK);

				for (String policy : List.of("volatile-lru", "noeviction")) {
					assertThat(redis.cli("CONFIG", "SET", "maxmemory-policy", policy)).isEqualTo("OK");
					RedisWorkerIdAssigner accepted = assigner(factory, policy, false);
					long workerId = accepted.assign(1023).workerId();
					accepted.release(workerId, WorkerAssignment.NO_MARK);
				}
			}
			finally {
				factory.destroy();
			}
		}
	}

	/** The script reads the master it runs on: the one that holds the registry's slot. */
	@Test
	void onAClusterTheMasterThatHoldsTheRegistryIsRead(@TempDir Path dir) {
		try (ThrowawayRedisCluster cluster = ThrowawayRedisCluster.start(dir)) {
			LettuceConnectionFactory factory = cluster.connectionFactory();
			try {
				TestRedis.markNewRegistry(factory, TAG);
				int holding = cluster.portOfKey(TAG + ":leases");
				assertThat(cluster.cli(holding, "CONFIG", "SET", "maxmemory-policy", "allkeys-lfu")).isEqualTo("OK");
				assertThatExceptionOfType(WorkerAssignmentException.class)
					.isThrownBy(() -> assigner(factory, "refused", false).assign(1023))
					.withMessageContaining("maxmemory-policy allkeys-lfu");
				assertThat(cluster.cli(holding, "CONFIG", "SET", "maxmemory-policy", "noeviction")).isEqualTo("OK");
				assertThat(assigner(factory, "accepted", false).assign(1023).workerId()).isZero();
			}
			finally {
				factory.destroy();
			}
		}
	}

	private List<String> warnings() {
		return this.assignerLog.events().stream()
			.filter((event) -> event.getLevel().isGreaterOrEqual(Level.WARN))
			.map(ILoggingEvent::getFormattedMessage)
			.toList();
	}

	private static RedisWorkerIdAssigner assigner(RedisConnectionFactory factory, String instanceId, boolean allow) {
		return RedisWorkerIdAssigner.builder(factory)
			.keyPrefix("uid-test")
			.namespace("evicting")
			.leaseDuration(Duration.ofSeconds(3))
			.heartbeatInterval(Duration.ofMillis(200))
			.allowEvictingPolicy(allow)
			.instanceId(instanceId)
			.build();
	}

}
