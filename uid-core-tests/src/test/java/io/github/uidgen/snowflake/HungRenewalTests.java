package io.github.uidgen.snowflake;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import io.github.uidgen.UidClock;
import io.github.uidgen.testsupport.Duplicates;
import io.github.uidgen.worker.FixedWorkerIdAssigner;
import io.github.uidgen.worker.WorkerStoreUnavailableException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * One renewal that the store's client holds (Lettuce waits 60 s by default for a command sent to a Cluster master that
 * died) must not hold the renewals after it: the keeper waits for a call only within the renewal interval, counts
 * the call that did not come back once as a failed renewal, and renews again beside it, so issue goes on as soon as
 * the store answers again. The call that finally comes back late changes nothing newer.
 */
class HungRenewalTests {

	private static final Duration BOUND = Duration.ofSeconds(30);

	@Test
	void aRenewalThatHangsDoesNotHoldTheRenewalsAfterIt() throws InterruptedException {
		HangingOnce defaultAssigner = new HangingOnce(1);
		HangingOnce cachedAssigner = new HangingOnce(2);
		AbstractUidGenerator defaultGenerator = DefaultUidGenerator.builder()
			.clock(UidClock.SYSTEM)
			.workerIdAssigner(defaultAssigner)
			.build();
		AbstractUidGenerator cachedGenerator = CachedUidGenerator.builder()
			.clock(UidClock.SYSTEM)
			.workerIdAssigner(cachedAssigner)
			.build();
		Issuer defaultIssuer = Issuer.throughRefusals(defaultGenerator, "hung-default");
		Issuer cachedIssuer = Issuer.throughRefusals(cachedGenerator, "hung-cached");
		try {
			defaultAssigner.hangNext();
			cachedAssigner.hangNext();
			for (HangingOnce assigner : new HangingOnce[] { defaultAssigner, cachedAssigner }) {
				assertThat(assigner.hung.await(BOUND.toSeconds(), TimeUnit.SECONDS)).as("a renewal hangs").isTrue();
			}
			long renewedBefore = defaultAssigner.renewed.get();
			long cachedRenewedBefore = cachedAssigner.renewed.get();
			// With the call still hanging, renewals go on beside it, well within the lease.
			await("renewals after the hung one").atMost(BOUND)
				.pollInterval(Duration.ofMillis(20))
				.until(() -> defaultAssigner.renewed.get() >= renewedBefore + 5
						&& cachedAssigner.renewed.get() >= cachedRenewedBefore + 5);
			assertThat(defaultAssigner.outstanding()).as("the hung call is still outstanding").isTrue();
			// At least the hung call; a renewal whose thread a loaded machine did not run within the wait counts too.
			long failures = defaultGenerator.status().worker().markFailures();
			long cachedFailures = cachedGenerator.status().worker().markFailures();
			assertThat(failures).as("the hung call counted").isPositive();
			assertThat(cachedFailures).as("the hung call counted").isPositive();
			assertThat(defaultGenerator.status().failure()).isNull();
			assertThat(cachedGenerator.status().failure()).isNull();
			assertThat(defaultGenerator.status().worker().storeSilent()).as("the store answers the later renewals")
				.isZero();
			assertThat(cachedGenerator.status().worker().storeSilent()).isZero();

			// The hung call comes back with success, late: nothing newer is overwritten, nothing counted again.
			Instant markBefore = defaultGenerator.status().worker().highWaterMark();
			Instant cachedMarkBefore = cachedGenerator.status().worker().highWaterMark();
			defaultAssigner.answer.countDown();
			cachedAssigner.answer.countDown();
			await("the late answers").atMost(BOUND)
				.until(() -> !defaultAssigner.outstanding() && !cachedAssigner.outstanding());
			assertThat(defaultGenerator.status().worker().highWaterMark()).isAfterOrEqualTo(markBefore);
			assertThat(cachedGenerator.status().worker().highWaterMark()).isAfterOrEqualTo(cachedMarkBefore);
			assertThat(defaultGenerator.status().worker().markFailures()).as("the late answer counted no more")
				.isEqualTo(failures);
			assertThat(cachedGenerator.status().worker().markFailures()).as("the late answer counted no more")
				.isEqualTo(cachedFailures);
			long[] defaultIds = defaultIssuer.stop();
			long[] cachedIds = cachedIssuer.stop();
			assertThat(defaultIssuer.refusals()).as("no call refused").isZero();
			assertThat(cachedIssuer.refusals()).as("no call refused").isZero();
			assertThat(Duplicates.count(defaultIds)).isZero();
			assertThat(Duplicates.count(cachedIds)).isZero();
		}
		finally {
			defaultAssigner.answer.countDown();
			cachedAssigner.answer.countDown();
			defaultIssuer.stop();
			cachedIssuer.stop();
			defaultGenerator.close();
			cachedGenerator.close();
		}
	}

	@Test
	void aRenewalThatHangsAndThenFailsIsCountedOnce() throws InterruptedException {
		HangingOnce assigner = new HangingOnce(3);
		AbstractUidGenerator generator = DefaultUidGenerator.builder()
			.clock(UidClock.SYSTEM)
			.workerIdAssigner(assigner)
			.build();
		try {
			generator.getUID();
			assigner.failLate = true;
			assigner.hangNext();
			assertThat(assigner.hung.await(BOUND.toSeconds(), TimeUnit.SECONDS)).as("a renewal hangs").isTrue();
			long renewedBefore = assigner.renewed.get();
			await("renewals after the hung one").atMost(BOUND)
				.pollInterval(Duration.ofMillis(20))
				.until(() -> assigner.renewed.get() >= renewedBefore + 3);
			// At least the hung call; a renewal whose thread a loaded machine did not run within the wait counts too.
			long failures = generator.status().worker().markFailures();
			assertThat(failures).as("the hung call counted").isPositive();
			assigner.answer.countDown();
			await("the late failure").atMost(BOUND).until(() -> !assigner.outstanding());
			assertThat(generator.status().worker().markFailures()).as("the late failure counted no more")
				.isEqualTo(failures);
			long renewedAfter = assigner.renewed.get();
			await("a renewal after the late failure").atMost(BOUND).until(() -> assigner.renewed.get() > renewedAfter);
			assertThat(generator.status().failure()).isNull();
			generator.getUID();
		}
		finally {
			assigner.answer.countDown();
			generator.close();
		}
	}

	/**
	 * A worker ID given in code, leased as a store would lease it (30 s, renewed every 200 ms), whose next renewal,
	 * once asked to, hangs until the test answers it.
	 */
	private static final class HangingOnce extends FixedWorkerIdAssigner {

		final CountDownLatch hung = new CountDownLatch(1);

		final CountDownLatch answer = new CountDownLatch(1);

		final AtomicLong renewed = new AtomicLong();

		private final AtomicBoolean hangNext = new AtomicBoolean();

		private final AtomicBoolean outstanding = new AtomicBoolean();

		volatile boolean failLate;

		HangingOnce(long workerId) {
			super(workerId);
		}

		void hangNext() {
			this.hangNext.set(true);
		}

		boolean outstanding() {
			return this.outstanding.get();
		}

		@Override
		public void renew(long workerId, long highWaterMarkMillis) {
			if (this.hangNext.compareAndSet(true, false)) {
				this.outstanding.set(true);
				try {
					this.hung.countDown();
					try {
						if (!this.answer.await(2, TimeUnit.MINUTES)) {
							throw new WorkerStoreUnavailableException("the test did not answer", null);
						}
					}
					catch (InterruptedException ex) {
						Thread.currentThread().interrupt();
						throw new WorkerStoreUnavailableException("interrupted", ex);
					}
					if (this.failLate) {
						throw new WorkerStoreUnavailableException("the late answer is a failure", null);
					}
					super.renew(workerId, highWaterMarkMillis);
				}
				finally {
					this.outstanding.set(false);
				}
				return;
			}
			super.renew(workerId, highWaterMarkMillis);
			this.renewed.incrementAndGet();
		}

		@Override
		public Duration renewInterval() {
			return Duration.ofMillis(200);
		}

		@Override
		public Duration leaseHold() {
			return Duration.ofSeconds(30);
		}

	}

}
