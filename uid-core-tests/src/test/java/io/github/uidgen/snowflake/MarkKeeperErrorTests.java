package io.github.uidgen.snowflake;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import io.github.uidgen.UidClock;
import io.github.uidgen.UidUnavailableException;
import io.github.uidgen.snowflake.TestGenerators.Kind;
import io.github.uidgen.testsupport.TestRedis;
import io.github.uidgen.worker.WorkerAssignment;
import io.github.uidgen.worker.WorkerIdAssigner;
import io.github.uidgen.worker.redis.RedisWorkerIdAssigner;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An {@link Error} thrown from the assigner's {@code renew} (a driver's {@code NoClassDefFoundError}, an
 * {@code AssertionError}) is a failure like any other: reported at once, retried, and gone once renew works again.
 * The assigner is the redis one on the Redis server on 127.0.0.1, with the error thrown in front of its renewals.
 */
class MarkKeeperErrorTests {

	private LettuceConnectionFactory connectionFactory;

	private String namespace;

	@BeforeEach
	void connect() {
		this.connectionFactory = TestRedis.connectionFactory();
		this.namespace = TestRedis.uniqueNamespace("keeper-error");
		TestRedis.markNewRegistry(this.connectionFactory, "{uid-test:" + this.namespace + "}");
	}

	@AfterEach
	void wipe() {
		TestRedis.wipe(this.connectionFactory, "{uid-test:" + this.namespace + "}");
		this.connectionFactory.destroy();
	}

	@ParameterizedTest
	@EnumSource(Kind.class)
	void anErrorInRenewIsReportedRetriedAndRecoveredFrom(Kind kind) throws InterruptedException {
		FaultyAssigner assigner = new FaultyAssigner(RedisWorkerIdAssigner.builder(this.connectionFactory)
			.keyPrefix("uid-test")
			.namespace(this.namespace)
			.heartbeatInterval(Duration.ofMillis(50))
			.build());
		AbstractUidGenerator generator = TestGenerators.build(kind, assigner, UidClock.SYSTEM);
		try {
			generator.getUID();
			assigner.fault = new NoClassDefFoundError("com/example/driver/Protocol");
			awaitTrue(() -> generator.status().failure() != null, "the failure to be reported");
			assertThat(generator.status().failure()).isInstanceOf(UidUnavailableException.class)
				.hasMessageContaining("NoClassDefFoundError")
				.hasMessageContaining("com/example/driver/Protocol");
			long recordedBeforeTheFailure = assigner.recorded;
			long attemptsWhileFailing = assigner.attempts;
			awaitTrue(() -> assigner.attempts >= attemptsWhileFailing + 3, "renew to be retried");
			assertThat(generator.status().worker().markFailures()).as("each failed attempt counted for the meters")
				.isGreaterThanOrEqualTo(3);

			assigner.fault = null;
			awaitTrue(() -> generator.status().failure() == null, "the failure to clear once renew works");
			long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(600);
			long issued = 0;
			while (System.nanoTime() < deadline) {
				generator.getUID();
				issued++;
			}
			assertThat(issued).isPositive();
			assertThat(assigner.recorded).as("marks recorded again, past the reservation held when renew failed")
				.isGreaterThan(recordedBeforeTheFailure);
		}
		finally {
			generator.close();
		}
	}

	private static void awaitTrue(BooleanSupplier condition, String what) {
		await(what).atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(10)).until(condition::getAsBoolean);
	}

	/** A real assigner whose renewals throw whatever {@link #fault} holds first. */
	private static final class FaultyAssigner implements WorkerIdAssigner {

		private final WorkerIdAssigner delegate;

		volatile Throwable fault;

		volatile long attempts;

		volatile long recorded = Long.MIN_VALUE;

		FaultyAssigner(WorkerIdAssigner delegate) {
			this.delegate = delegate;
		}

		@Override
		public WorkerAssignment assign(long maxWorkerId) {
			return this.delegate.assign(maxWorkerId);
		}

		@Override
		public WorkerAssignment assign(long maxWorkerId, Duration maxMarkLead) {
			return this.delegate.assign(maxWorkerId, maxMarkLead);
		}

		@Override
		public void renew(long workerId, long highWaterMarkMillis) {
			this.attempts++;
			Throwable current = this.fault;
			if (current instanceof Error error) {
				throw error;
			}
			this.delegate.renew(workerId, highWaterMarkMillis);
			this.recorded = Math.max(this.recorded, highWaterMarkMillis);
		}

		@Override
		public void release(long workerId, long highWaterMarkMillis) {
			this.delegate.release(workerId, highWaterMarkMillis);
		}

		@Override
		public Duration renewInterval() {
			return this.delegate.renewInterval();
		}

		@Override
		public String name() {
			return this.delegate.name();
		}

	}

}
