package io.github.uidgen.test.assigners;

import java.nio.file.Path;
import java.util.Set;

import io.github.uidgen.testsupport.ThrowawayRedisCluster;
import io.github.uidgen.worker.WorkerIdAssigner;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The redis assigner on a three-master Redis Cluster, through {@code RedisClusterConfiguration}: the lease contract,
 * generators sharing a namespace, and the namespace's keys all on the one master that serves its hash tag's slot.
 */
class RedisClusterAssignerTests extends AbstractRedisTopologyAssignerTests {

	private ThrowawayRedisCluster cluster;

	@Override
	void startServers(Path dir) {
		this.cluster = ThrowawayRedisCluster.start(dir);
	}

	@Override
	LettuceConnectionFactory newConnectionFactory() {
		return this.cluster.connectionFactory();
	}

	@Override
	void stopServers() {
		this.cluster.close();
	}

	@Test
	void aNamespaceLivesOnTheOneMasterThatServesItsHashTag() {
		WorkerIdAssigner assigner = newAssigner("slotted");
		long workerId = assigner.assign(MAX_WORKER_ID).workerId();
		assigner.renew(workerId, MARK);
		Set<String> keys = new StringRedisTemplate(connectionFactory()).keys(hashTag() + "*");
		assertThat(keys).contains(hashTag() + ":leases", hashTag() + ":marks", hashTag() + ":generation");
		int owner = this.cluster.portOfKey(hashTag() + ":leases");
		for (String key : keys) {
			assertThat(this.cluster.portOfKey(key)).as(key).isEqualTo(owner);
			assertThat(this.cluster.cli(owner, "EXISTS", key)).as(key).isEqualTo("1");
		}
		assigner.release(workerId, MARK);
	}

}
