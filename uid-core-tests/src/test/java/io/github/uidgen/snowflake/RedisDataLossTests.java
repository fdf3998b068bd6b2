package io.github.uidgen.snowflake;

import java.time.Duration;

import io.github.uidgen.UidClock;
import io.github.uidgen.testsupport.Duplicates;
import io.github.uidgen.testsupport.TestRedis;
import io.github.uidgen.worker.WorkerLeaseLostException;
import io.github.uidgen.worker.redis.RedisWorkerIdAssigner;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static io.github.uidgen.snowflake.TestGenerators.LAYOUT;
import static io.github.uidgen.snowflake.TestGenerators.maxUnit;
import static io.github.uidgen.snowflake.TestGenerators.minUnit;
import static io.github.uidgen.snowflake.TestGenerators.take;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Redis loses every key while a cached generator runs ahead of the clock on worker 0: the generator stops at its
 * next renewal, and a newcomer that gets worker 0 from the empty registry still issues no ID twice. By default the
 * generator then claims a worker ID again by itself once the registry-loss margin has passed; told not to, it stays
 * stopped.
 */
class RedisDataLossTests {

	/** Covers {@link TestGenerators#MAX_AHEAD} plus the mark reservation, with room for scheduling delays. */
	private static final Duration MARGIN = Duration.ofMillis(1_200);

	private LettuceConnectionFactory connectionFactory;

	private String namespace;

	private String hashTag;

	@BeforeEach
	void newNamespace() {
		this.connectionFactory = TestRedis.connectionFactory();
		this.namespace = TestRedis.uniqueNamespace("loss");
		this.hashTag = "{uid-test:" + this.namespace + "}";
		TestRedis.markNewRegistry(this.connectionFactory, this.hashTag);
	}

	@AfterEach
	void wipe() {
		TestRedis.wipe(this.connectionFactory, this.hashTag);
		this.connectionFactory.destroy();
	}

	@Test
	void aGeneratorWhoseRegistryVanishedClaimsAgainAfterTheMarginAndNobodyRepeatsAnId() throws Exception {
		AbstractUidGenerator before = TestGenerators.build(TestGenerators.Kind.CACHED, assigner("before"),
				UidClock.SYSTEM);
		AbstractUidGenerator after = null;
		try {
			long[] issuedBefore = take(before, 6_000);
			TestRedis.wipe(this.connectionFactory, this.hashTag);
			long wipedAt = System.currentTimeMillis();
			awaitLeaseLost(before);
			assertThatExceptionOfType(WorkerLeaseLostException.class).isThrownBy(before::getUID)
				.withMessageContaining("data was lost")
				.withMessageContaining("Claiming a worker ID again");

			after = TestGenerators.build(TestGenerators.Kind.CACHED, assigner("after"), UidClock.SYSTEM);
			long[] issuedAfter = take(after, 6_000);
			RedisRestoredFromSnapshotTests.awaitRecovered(before);
			long[] issuedOnRecovery = take(before, 6_000);

			assertThat(before.status().worker().id()).as("the newcomer holds a worker ID of its own")
				.isNotEqualTo(after.status().worker().id());
			assertThat(LAYOUT.startMillis(minUnit(issuedOnRecovery))).as("issued again after the margin only")
				.isGreaterThanOrEqualTo(wipedAt + MARGIN.toMillis() - 200);
			assertThat(Duplicates.count(issuedBefore, issuedAfter, issuedOnRecovery)).isZero();
		}
		finally {
			before.close();
			if (after != null) {
				after.close();
			}
		}
	}

	@Test
	void withReclaimOffAGeneratorWhoseRegistryVanishedStaysStoppedAndTheNextHolderOfItsWorkerIdRepeatsNothing()
			throws Exception {
		AbstractUidGenerator before = TestGenerators.build(TestGenerators.Kind.CACHED, assigner("before"),
				UidClock.SYSTEM, false);
		AbstractUidGenerator after = null;
		try {
			TestGenerators.Ahead ahead = TestGenerators.takeUntilAhead(before, 6_000);
			long[] issuedBefore = ahead.ids();
			assertThat(LAYOUT.startMillis(maxUnit(issuedBefore))).as("borrowed ahead of the clock")
				.isGreaterThan(ahead.clockMillis());

			TestRedis.wipe(this.connectionFactory, this.hashTag);
			awaitLeaseLost(before);
			assertThat(before.status().failure()).hasMessageContaining("data was lost")
				.hasMessageContaining("Restart the instance");
			assertThatExceptionOfType(WorkerLeaseLostException.class).isThrownBy(before::getUID);

			after = TestGenerators.build(TestGenerators.Kind.CACHED, assigner("after"), UidClock.SYSTEM);
			assertThat(after.status().worker().id()).isEqualTo(before.status().worker().id());
			long[] issuedAfter = take(after, 6_000);
			assertThat(minUnit(issuedAfter)).isGreaterThan(maxUnit(issuedBefore));
			assertThat(Duplicates.count(issuedBefore, issuedAfter)).isZero();
			assertThat(before.status().failure()).as("still stopped after the margin")
				.isInstanceOf(WorkerLeaseLostException.class);
			assertThat(before.status().worker().recoveries()).isZero();
		}
		finally {
			before.close();
			if (after != null) {
				after.close();
			}
		}
	}

	private static void awaitLeaseLost(AbstractUidGenerator generator) {
		await().atMost(Duration.ofSeconds(30))
			.pollInterval(Duration.ofMillis(5))
			.until(() -> generator.status().failure() instanceof WorkerLeaseLostException);
	}

	private RedisWorkerIdAssigner assigner(String instanceId) {
		return RedisWorkerIdAssigner.builder(this.connectionFactory)
			.keyPrefix("uid-test")
			.namespace(this.namespace)
			.leaseDuration(Duration.ofSeconds(2))
			.heartbeatInterval(Duration.ofMillis(100))
			.registryLossMargin(MARGIN)
			.instanceId(instanceId)
			.build();
	}

}
