package io.github.uidgen.worker.redis;

import java.time.Duration;

import io.github.uidgen.testsupport.TestRedis;
import io.github.uidgen.worker.fleet.FleetWorker;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * A namespace of a claim-ahead test's own, marked new so that claims wait no margin: assigners on it with a 100 ms
 * heartbeat, which keeps each claim's probation short (1.2 s), and what its registry shows of a worker ID.
 *
 * @param connectionFactory the Redis it lives on
 * @param namespace its name
 */
record ClaimAheadNamespace(LettuceConnectionFactory connectionFactory, String namespace) {

	static ClaimAheadNamespace create(LettuceConnectionFactory connectionFactory, String prefix) {
		ClaimAheadNamespace created = new ClaimAheadNamespace(connectionFactory, TestRedis.uniqueNamespace(prefix));
		TestRedis.markNewRegistry(connectionFactory, created.hashTag());
		return created;
	}

	String hashTag() {
		return "{uid-test:" + this.namespace + "}";
	}

	RedisWorkerIdAssigner assigner(String instanceId) {
		return RedisWorkerIdAssigner.builder(this.connectionFactory)
			.keyPrefix("uid-test")
			.namespace(this.namespace)
			.leaseDuration(Duration.ofSeconds(5))
			.heartbeatInterval(Duration.ofMillis(100))
			.instanceId(instanceId)
			.build();
	}

	FleetWorker worker(long workerId) {
		return assigner("reader").fleet()
			.orElseThrow()
			.read(10)
			.workers()
			.stream()
			.filter((worker) -> worker.workerId() == workerId)
			.findFirst()
			.orElseThrow();
	}

	int claimsOf(long workerId) {
		return assigner("reader").fleet().orElseThrow().history(workerId).claims().size();
	}

	void wipe() {
		TestRedis.wipe(this.connectionFactory, hashTag());
	}

}
