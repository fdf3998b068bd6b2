package io.github.uidgen.snowflake;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.uidgen.UidClock;
import io.github.uidgen.UidException;
import io.github.uidgen.testsupport.TestRedis;
import io.github.uidgen.worker.WorkerAssignment;
import io.github.uidgen.worker.WorkerIdAssigner;
import io.github.uidgen.worker.WorkerLeaseLostException;
import io.github.uidgen.worker.WorkerStoreUnavailableException;
import io.github.uidgen.worker.redis.RedisWorkerIdAssigner;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A cached generator's process is frozen past its lease (SIGSTOP, a VM pause, a long GC) while its ring is full, and
 * another instance takes its worker ID meanwhile. When it resumes, its callers run before its mark keeper does: the
 * generator must notice that its lease was not renewed for a while and confirm it before handing out more, instead of
 * handing out the whole ring (tens of thousands of IDs, all below the stored mark, but past the lease). Its recovery
 * (on by default) is held until the loss has been looked at, then lets it issue again.
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
			long held = generator.status().worker().id();
			// A newcomer claims the lowest free worker ID: the frozen one's once its lease has run out.
			AtomicInteger attempts = new AtomicInteger();
			WorkerAssignment successor = await().atMost(Duration.ofSeconds(30))
				.pollInterval(Duration.ofMillis(100))
				.until(() -> claimUnless(assigner("successor-" + attempts.incrementAndGet()), held),
						(claimed) -> claimed.workerId() == held);
			assertThat(successor.workerId()).as("the lease expired and another instance took the worker ID")
				.isEqualTo(generator.status().worker().id());
			// The recovery (on by default) may not claim before the loss is looked at.
			frozen.holdClaims();

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
			frozen.allowClaims();
			// Once claims succeed it issues again, on whatever worker ID is free by then.
			await().atMost(Duration.ofSeconds(30)).until(() -> generator.status().failure() == null);
			generator.getUID();
		}
		finally {
			frozen.thaw();
			generator.close();
		}
	}

	/** Claims a worker ID as a newcomer; one other than {@code wanted} is released again at once. */
	private static WorkerAssignment claimUnless(WorkerIdAssigner assigner, long wanted) {
		WorkerAssignment claimed = assigner.assign(1023);
		if (claimed.workerId() != wanted) {
			assigner.release(claimed.workerId(), claimed.highWaterMarkMillis());
		}
		return claimed;
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

		private volatile boolean claimsHeld;

		FreezableAssigner(WorkerIdAssigner delegate) {
			this.delegate = delegate;
		}

		void freeze() {
			this.frozen = new CountDownLatch(1);
		}

		void thaw() {
			this.frozen.countDown();
		}

		/** Claims fail as the store being out of reach until {@link #allowClaims()}. */
		void holdClaims() {
			this.claimsHeld = true;
		}

		void allowClaims() {
			this.claimsHeld = false;
		}

		@Override
		public WorkerAssignment assign(long maxWorkerId, Duration maxMarkLead) {
			checkClaimsAllowed();
			return this.delegate.assign(maxWorkerId, maxMarkLead);
		}

		@Override
		public WorkerAssignment assign(long maxWorkerId) {
			checkClaimsAllowed();
			return this.delegate.assign(maxWorkerId);
		}

		private void checkClaimsAllowed() {
			if (this.claimsHeld) {
				throw new WorkerStoreUnavailableException("claims are held by the test", null);
			}
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
