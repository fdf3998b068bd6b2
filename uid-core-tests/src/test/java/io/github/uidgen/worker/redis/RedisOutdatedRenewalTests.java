package io.github.uidgen.worker.redis;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongConsumer;
import java.util.function.UnaryOperator;

import io.github.uidgen.testsupport.TestRedis;
import io.github.uidgen.worker.WorkerAssignmentException;
import io.github.uidgen.worker.WorkerLeaseLostException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Renewals may be outstanding side by side (the client holds one while the next goes out, as during an outage), each
 * sent with the lease's expiry as this instance knew it then. One sent before a later renewal came back with a newer
 * expiry cannot tell, when it runs, that the lease is still live: where Redis lost the lease meanwhile (restarted
 * empty), it finds it gone. That is not the last word: the next renewal, sent with the newer expiry, knows the lease
 * could not have expired, and writes it again where nobody claimed the worker ID since. A fleet run saw 246 of 1,000
 * instances stop on such a renewal after an empty restart and refuse 77,739 calls for up to 37 s, their recoveries
 * waiting the registry-loss margin. Forced here: the earlier renewal is held back before it reaches Redis until its
 * expiry has passed, the later one has come back, and Redis has lost the lease.
 */
class RedisOutdatedRenewalTests {

	private static final long MARK = 1_760_000_000_000L;

	private final HeldBack heldBack = new HeldBack();

	private LettuceConnectionFactory connectionFactory;

	private StringRedisTemplate redis;

	private String tag;

	private RedisWorkerIdAssigner holder;

	@BeforeEach
	void claim() {
		this.connectionFactory = TestRedis.connectionFactory();
		this.redis = new StringRedisTemplate(this.connectionFactory);
		String namespace = TestRedis.uniqueNamespace("outdated");
		this.tag = "{uid-test:" + namespace + "}";
		TestRedis.markNewRegistry(this.connectionFactory, this.tag);
		this.holder = RedisWorkerIdAssigner.builder(this.connectionFactory)
			.keyPrefix("uid-test")
			.namespace(namespace)
			.leaseDuration(Duration.ofSeconds(3))
			.heartbeatInterval(Duration.ofMillis(100))
			.registryLossMargin(Duration.ofMillis(700))
			.instanceId("holder")
			.scriptsThrough(this.heldBack)
			.build();
	}

	@AfterEach
	void disconnect() {
		this.heldBack.release();
		TestRedis.wipe(this.connectionFactory, this.tag);
		this.connectionFactory.destroy();
	}

	@Test
	void aRenewalSentBeforeALaterOneCameBackDoesNotLoseALeaseRedisLostAndTheNextRenewalWritesItAgain() {
		// The lease's record lost, as from an empty restart once another holder's renewal made a new registry.
		long workerId = outdatedRenewalWhile(this::loseRecord);
		assertTheNextRenewalWritesItAgain(workerId);
	}

	@Test
	void aRenewalSentBeforeALaterOneCameBackDoesNotLoseALeaseOnAWipedRegistryAndTheNextRenewalWritesItAgain() {
		long workerId = outdatedRenewalWhile(
				(id) -> assertThat(TestRedis.wipe(this.connectionFactory, this.tag)).isNotEmpty());
		assertTheNextRenewalWritesItAgain(workerId);
	}

	@Test
	void aRenewalSentBeforeALaterOneCameBackDoesNotLoseALeaseRedisRewoundAndTheNextRenewalWritesItAgain() {
		// The lease's mark from before the first renewal, as from a restart on an older snapshot.
		long workerId = outdatedRenewalWhile((id) -> this.redis.opsForHash()
			.put(this.tag + ":marks", Long.toString(id), Long.toString(MARK - 1)));
		assertTheNextRenewalWritesItAgain(workerId);
	}

	/**
	 * Another instance's token in place of this one's, while this lease could not have expired: the outdated renewal
	 * cannot tell, the next one can, loses the lease for certain and makes newcomers wait the margin, so that a claim
	 * on probation is given back.
	 */
	@Test
	void aRenewalSentBeforeALaterOneCameBackLeavesALeaseTakenMeanwhileToTheNextRenewalWhichMakesNewcomersWait() {
		long workerId = outdatedRenewalWhile((id) -> {
			this.redis.opsForHash().put(this.tag + ":tokens", Long.toString(id), "other-token");
			this.redis.opsForHash().put(this.tag + ":holders", Long.toString(id), "other");
		});
		long before = redisTime();
		assertThatExceptionOfType(WorkerLeaseLostException.class)
			.isThrownBy(() -> this.holder.renew(workerId, MARK + 3))
			.withMessageContaining("cannot have expired");
		assertThat(Long.parseLong(this.redis.opsForValue().get(this.tag + ":generation")))
			.as("newcomers wait the margin").isGreaterThanOrEqualTo(before + 700);
	}

	/** A renewal that runs alone and finds its lease gone after the lease ran out is lost, as before. */
	@Test
	void aRenewalWithNothingNewerThanItsOwnExpiryStillLosesALeaseThatRanOutBeforeRedisLostIt() {
		long workerId = this.holder.assign(1023).workerId();
		this.holder.renew(workerId, MARK);
		long expiry = leaseExpiry(workerId);
		await().atMost(Duration.ofSeconds(10)).until(() -> redisTime() > expiry);
		loseRecord(workerId);

		assertThatExceptionOfType(WorkerLeaseLostException.class)
			.isThrownBy(() -> this.holder.renew(workerId, MARK + 1))
			.withMessageContaining("its lease is gone from Redis");
	}

	/**
	 * Claims, renews, sends a renewal and holds it back before Redis until the lease it carries has run out by the
	 * Redis clock, renews again meanwhile (the registry intact: it comes back with a newer expiry), runs the loss, then
	 * lets the first one through: it stops nothing.
	 * @param loss what Redis loses of the lease's worker ID meanwhile
	 * @return the worker ID
	 */
	private long outdatedRenewalWhile(LongConsumer loss) {
		long workerId = this.holder.assign(1023).workerId();
		this.holder.renew(workerId, MARK);
		long expiry = leaseExpiry(workerId);
		this.heldBack.arm();
		CompletableFuture<Void> earlier = CompletableFuture.runAsync(() -> this.holder.renew(workerId, MARK + 1));
		this.heldBack.awaitHeld();
		await().atMost(Duration.ofSeconds(10)).until(() -> redisTime() > expiry);
		this.holder.renew(workerId, MARK + 2);
		assertThat(leaseExpiry(workerId)).as("the later renewal's expiry").isGreaterThan(expiry);
		loss.accept(workerId);
		this.heldBack.release();
		assertThat(earlier).failsWithin(Duration.ofSeconds(10))
			.withThrowableThat()
			.havingCause()
			.isExactlyInstanceOf(WorkerAssignmentException.class)
			.withMessageContaining("a later renewal");
		return workerId;
	}

	private void assertTheNextRenewalWritesItAgain(long workerId) {
		this.holder.renew(workerId, MARK + 3);
		assertThat(this.redis.opsForHash().get(this.tag + ":tokens", Long.toString(workerId))).isNotNull();
		assertThat(this.redis.opsForHash().get(this.tag + ":marks", Long.toString(workerId)))
			.as("the next renewal wrote the lease and its mark again")
			.isEqualTo(Long.toString(MARK + 3));
	}

	/** What Redis keeps of a lease, lost: its token, its holder and its place in the leases. */
	private void loseRecord(long workerId) {
		this.redis.opsForHash().delete(this.tag + ":tokens", Long.toString(workerId));
		this.redis.opsForHash().delete(this.tag + ":holders", Long.toString(workerId));
		this.redis.opsForZSet().remove(this.tag + ":leases", Long.toString(workerId));
	}

	private long leaseExpiry(long workerId) {
		Double score = this.redis.opsForZSet().score(this.tag + ":leases", Long.toString(workerId));
		assertThat(score).isNotNull();
		return score.longValue();
	}

	private long redisTime() {
		return this.redis.execute((RedisCallback<Long>) (connection) -> connection.serverCommands().time());
	}

	/** Holds the first renewal sent after {@link #arm()} before it reaches Redis, until {@link #release()}. */
	private static final class HeldBack implements UnaryOperator<RegistryScripts.Transport> {

		private final AtomicBoolean armed = new AtomicBoolean();

		private final CountDownLatch held = new CountDownLatch(1);

		private final CountDownLatch released = new CountDownLatch(1);

		@Override
		public RegistryScripts.Transport apply(RegistryScripts.Transport transport) {
			return (script, keys, args) -> {
				if ("renew".equals(args[0]) && this.armed.compareAndSet(true, false)) {
					this.held.countDown();
					await(this.released);
				}
				return transport.eval(script, keys, args);
			};
		}

		void arm() {
			this.armed.set(true);
		}

		void awaitHeld() {
			await(this.held);
		}

		void release() {
			this.released.countDown();
		}

		private static void await(CountDownLatch latch) {
			try {
				assertThat(latch.await(10, TimeUnit.SECONDS)).as("within 10 s").isTrue();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException(ex);
			}
		}

	}

}
