package io.github.uidgen.test.assigners;

import java.nio.file.Path;

import io.github.uidgen.testsupport.ThrowawayRedisSentinel;
import io.github.uidgen.worker.WorkerIdAssigner;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The redis assigner on a master, replica and sentinel, through {@code RedisSentinelConfiguration}: the lease
 * contract, generators sharing a namespace, and a lease replicated to the replica.
 */
class RedisSentinelAssignerTests extends AbstractRedisTopologyAssignerTests {

	private ThrowawayRedisSentinel sentinel;

	@Override
	void startServers(Path dir) {
		this.sentinel = ThrowawayRedisSentinel.start(dir);
	}

	@Override
	LettuceConnectionFactory newConnectionFactory() {
		return this.sentinel.connectionFactory();
	}

	@Override
	void stopServers() {
		this.sentinel.close();
	}

	@Test
	void leasesAndMarksAreWrittenToTheMasterAndReachTheReplica() {
		WorkerIdAssigner assigner = newAssigner("replicated");
		long workerId = assigner.assign(MAX_WORKER_ID).workerId();
		assigner.renew(workerId, MARK);
		int master = this.sentinel.masterPort();
		int replica = this.sentinel.serverPorts().stream().filter((port) -> port != master).findFirst().orElseThrow();
		assertThat(this.sentinel.cli(master, "WAIT", "1", "5000")).isEqualTo("1");
		for (int port : new int[] { master, replica }) {
			assertThat(this.sentinel.cli(port, "HGET", hashTag() + ":marks", Long.toString(workerId))).as("port " + port)
				.isEqualTo(Long.toString(MARK));
		}
		assigner.release(workerId, MARK);
	}

}
