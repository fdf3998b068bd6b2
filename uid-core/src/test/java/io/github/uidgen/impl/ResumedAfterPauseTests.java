package io.github.uidgen.impl;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.github.uidgen.UidClock;
import io.github.uidgen.UidException;
import io.github.uidgen.testsupport.TestRedis;
import io.github.uidgen.worker.WorkerAssignment;
import io.github.uidgen.worker.WorkerIdAssigner;
import io.github.uidgen.worker.WorkerLeaseLostException;
import io.github.uidgen.worker.redis.RedisWorkerIdAssigner;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A cached generator's process is frozen past its lease (SIGSTOP, a VM pause, a long GC) while its ring is full, and
 * another instance takes its worker ID meanwhile. When it resumes, its callers run before its mark keeper does: the
 * generator must notice that its lease was not renewed for a while and confirm it before handing out more, instead of
 * handing out the whole ring (tens of thousands of IDs, all below the stored mark, but past the lease).
 */
class ResumedAfterPauseTests {

	private static final Duration LEASE = Duration.ofSeconds(1);

	private LettuceConnectionFactory connectionFactory;

	private String namespace;

	@BeforeEach
	void connect() {
		this.connectionFactory = TestRedis.connectionFactory();
		this.namespace = TestRedis.uniqueNamespace("pause");
		TestRedis.markNewRegistry(this.connectionFactory, "{uid-test:" + this.namespace + "}");
	}

	@AfterEach
	void wipe() {
		TestRedis.wipe(this.connectionFactory, "{uid-test:" + this.namespace + "}");
		this.connectionFactory.destroy();
	}

	@Test
	void aResumedGeneratorConfirmsItsLeaseBeforeHandingOutMoreAndStopsOnceItFindsItLost() throws Exception {
		FreezableAssigner frozen = new FreezableAssigner(assigner("paused"));
		AbstractUidGenerator generator = CachedUidGenerator.builder()
			.clock(UidClock.SYSTEM)
			.workerIdAssigner(frozen)
			.build();
		try {
			generator.getUID();
			int ringSize = ((CachedUidGenerator) generator).ringBuffer().size();
			assertThat(ringSize).as("a full ring waits to be handed out").isGreaterThan(10_000);

			frozen.freeze();
			Thread.sleep(LEASE.plusMillis(600).toMillis());
			WorkerAssignment successor = assigner("successor").assign(1023);
			assertThat(successor.workerId()).as("the lease expired and another instance took the worker ID")
				.isEqualTo(generator.status().worker().id());

			// The keeper resumes a little after the callers, as it may after a real pause.
			CompletableFuture.runAsync(frozen::thaw, CompletableFuture.delayedExecutor(300, TimeUnit.MILLISECONDS));
			long handedOut = 0;
			UidException stopped = null;
			while (stopped == null && handedOut < ringSize + 1_000_000) {
				try {
					generator.getUID();
					handedOut++;
				}
				catch (UidException ex) {
					stopped = ex;
				}
			}
			assertThat(stopped).isInstanceOf(WorkerLeaseLostException.class);
			assertThat(handedOut).as("IDs handed out after the pause, of " + ringSize + " in the ring")
				.isLessThanOrEqualTo(256);
			assertThat(generator.status().failure()).isInstanceOf(WorkerLeaseLostException.class);
		}
		finally {
			frozen.thaw();
			generator.close();
		}
	}

	private WorkerIdAssigner assigner(String instanceId) {
		return RedisWorkerIdAssigner.builder(this.connectionFactory)
			.keyPrefix("uid-test")
			.namespace(this.namespace)
			.leaseDuration(LEASE)
			.heartbeatInterval(Duration.ofMillis(200))
			.instanceId(instanceId)
			.build();
	}

	/**
	 * A real assigner whose renewals can be held back, standing for a mark keeper frozen with the rest of its
	 * process.
	 */
	private static final class FreezableAssigner implements WorkerIdAssigner {

		private final WorkerIdAssigner delegate;

		private volatile CountDownLatch frozen = new CountDownLatch(0);

		FreezableAssigner(WorkerIdAssigner delegate) {
			this.delegate = delegate;
		}

		void freeze() {
			this.frozen = new CountDownLatch(1);
		}

		void thaw() {
			this.frozen.countDown();
		}

		@Override
		public WorkerAssignment assign(long maxWorkerId, Duration maxMarkLead) {
			return this.delegate.assign(maxWorkerId, maxMarkLead);
		}

		@Override
		public WorkerAssignment assign(long maxWorkerId) {
			return this.delegate.assign(maxWorkerId);
		}

		@Override
		public void renew(long workerId, long highWaterMarkMillis) {
			try {
				this.frozen.await(30, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			this.delegate.renew(workerId, highWaterMarkMillis);
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
