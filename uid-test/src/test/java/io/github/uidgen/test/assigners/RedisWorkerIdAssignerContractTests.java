package io.github.uidgen.test.assigners;

import java.time.Duration;

import io.github.uidgen.test.AbstractLeaseWorkerIdAssignerContractTests;
import io.github.uidgen.test.WorkerFleetContract;
import io.github.uidgen.testsupport.TestRedis;
import io.github.uidgen.worker.WorkerIdAssigner;
import io.github.uidgen.worker.redis.RedisWorkerIdAssigner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.TestInstance;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * The lease contract on Redis, each test in a fresh namespace of its own.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RedisWorkerIdAssignerContractTests extends AbstractLeaseWorkerIdAssignerContractTests {

	/** The heartbeat, and so a probation of 75 ms per claim. */
	private static final Duration HEARTBEAT = Duration.ofMillis(50);

	private LettuceConnectionFactory connectionFactory;

	private String namespace;

	@BeforeAll
	void connect() {
		this.connectionFactory = TestRedis.connectionFactory();
	}

	@BeforeEach
	void newNamespace() {
		this.namespace = TestRedis.uniqueNamespace("contract");
		TestRedis.markNewRegistry(this.connectionFactory, hashTag());
	}

	@AfterEach
	void wipeNamespace() {
		TestRedis.wipe(this.connectionFactory, hashTag());
	}

	@AfterAll
	void disconnect() {
		this.connectionFactory.destroy();
	}

	private String hashTag() {
		return "{uid-test:" + this.namespace + "}";
	}

	@Override
	protected WorkerIdAssigner newAssigner(String instanceId, Duration lease) {
		return newAssigner(instanceId, lease, 256);
	}

	private WorkerIdAssigner newAssigner(String instanceId, Duration lease, int claimHistory) {
		return RedisWorkerIdAssigner.builder(this.connectionFactory)
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

	/** The fleet and the claim history, kept in the namespace's {@code …:claims} hash. */
	@Nested
	class Fleet extends WorkerFleetContract {

		@Override
		protected WorkerIdAssigner newAssigner(String instanceId, Duration lease, int claimHistory) {
			return RedisWorkerIdAssignerContractTests.this.newAssigner(instanceId, lease, claimHistory);
		}

	}

}
