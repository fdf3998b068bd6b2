package io.github.uidgen.impl;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.github.uidgen.UidClock;
import io.github.uidgen.testsupport.Duplicates;
import io.github.uidgen.testsupport.TestRedis;
import io.github.uidgen.worker.WorkerLeaseLostException;
import io.github.uidgen.worker.redis.RedisWorkerIdAssigner;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static io.github.uidgen.impl.TestGenerators.LAYOUT;
import static io.github.uidgen.impl.TestGenerators.maxUnit;
import static io.github.uidgen.impl.TestGenerators.minUnit;
import static io.github.uidgen.impl.TestGenerators.take;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Redis loses every key while a cached generator runs ahead of the clock on worker 0: the generator stops at its
 * next renewal, and a newcomer that gets worker 0 from the empty registry still issues no ID twice.
 */
class RedisDataLossTests {

	/** Covers {@link TestGenerators#MAX_AHEAD} plus the mark reservation, with room for scheduling delays. */
	private static final Duration MARGIN = Duration.ofMillis(1_200);

	@Test
	void aGeneratorWhoseRegistryVanishedStopsAndTheNextHolderOfItsWorkerIdRepeatsNothing() throws Exception {
		LettuceConnectionFactory connectionFactory = TestRedis.connectionFactory();
		String namespace = TestRedis.uniqueNamespace("loss");
		String hashTag = "{uid-test:" + namespace + "}";
		TestRedis.markNewRegistry(connectionFactory, hashTag);
		AbstractUidGenerator before = TestGenerators.build(TestGenerators.Kind.CACHED, assigner(connectionFactory,
				namespace, "before"), UidClock.SYSTEM);
		AbstractUidGenerator after = null;
		try {
			long[] issuedBefore = take(before, 6_000);
			assertThat(LAYOUT.startMillis(maxUnit(issuedBefore))).as("borrowed ahead of the clock")
				.isGreaterThan(System.currentTimeMillis());

			TestRedis.wipe(connectionFactory, hashTag);
			long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
			while (!(before.status().failure() instanceof WorkerLeaseLostException) && System.nanoTime() < deadline) {
				Thread.sleep(20);
			}
			assertThat(before.status().failure()).isInstanceOf(WorkerLeaseLostException.class)
				.hasMessageContaining("data was lost");
			assertThatExceptionOfType(WorkerLeaseLostException.class).isThrownBy(before::getUID);

			after = TestGenerators.build(TestGenerators.Kind.CACHED, assigner(connectionFactory, namespace, "after"),
					UidClock.SYSTEM);
			assertThat(after.status().worker().id()).isEqualTo(before.status().worker().id());
			long[] issuedAfter = take(after, 6_000);
			assertThat(minUnit(issuedAfter)).isGreaterThan(maxUnit(issuedBefore));
			assertThat(Duplicates.count(issuedBefore, issuedAfter)).isZero();
		}
		finally {
			before.close();
			if (after != null) {
				after.close();
			}
			TestRedis.wipe(connectionFactory, hashTag);
			connectionFactory.destroy();
		}
	}

	private static RedisWorkerIdAssigner assigner(LettuceConnectionFactory connectionFactory, String namespace,
			String instanceId) {
		return RedisWorkerIdAssigner.builder(connectionFactory)
			.keyPrefix("uid-test")
			.namespace(namespace)
			.leaseDuration(Duration.ofSeconds(2))
			.heartbeatInterval(Duration.ofMillis(100))
			.registryLossMargin(MARGIN)
			.instanceId(instanceId)
			.build();
	}

}
