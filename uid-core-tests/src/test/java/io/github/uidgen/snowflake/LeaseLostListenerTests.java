package io.github.uidgen.snowflake;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.uidgen.UidClock;
import org.junit.jupiter.api.Test;

import static io.github.uidgen.snowflake.TestGenerators.LAYOUT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A generator registers for its session's lost lease while the session's keeper already renews, so the loss may race
 * the registration. Whatever the order, the generator is told exactly once: told twice, it starts a second recovery
 * (and health reads DOWN while it issues); never told, it never recovers. Each test forces one order.
 */
class LeaseLostListenerTests {

	private static final WorkerSession.Settings SETTINGS = new WorkerSession.Settings(Duration.ofMillis(200),
			Duration.ofSeconds(5), Duration.ofSeconds(5), Duration.ZERO, Duration.ofSeconds(2));

	@Test
	void aLossWhileTheListenerIsBeingRegisteredIsToldOnce() {
		CuedLeaseAssigner assigner = new CuedLeaseAssigner(3);
		try (WorkerSession session = WorkerSession.open(assigner, LAYOUT, 0, UidClock.SYSTEM, SETTINGS)) {
			AtomicInteger told = new AtomicInteger();
			// The keeper finds the lease lost, tells its listeners and records the loss, all in the middle of the
			// registration.
			session.duringRegistration(() -> {
				assigner.loseLease();
				await().atMost(Duration.ofSeconds(30)).until(session::isLeaseLost);
			});
			session.onLeaseLost((reason) -> told.incrementAndGet());
			assertThat(told).as("times the listener was told").hasValue(1);
		}
	}

	@Test
	void aListenerRegisteredWhileTheKeeperTellsTheOthersIsToldOnce() throws Exception {
		CuedLeaseAssigner assigner = new CuedLeaseAssigner(4);
		try (WorkerSession session = WorkerSession.open(assigner, LAYOUT, 0, UidClock.SYSTEM, SETTINGS)) {
			CountDownLatch firstTold = new CountDownLatch(1);
			CountDownLatch firstDone = new CountDownLatch(1);
			session.onLeaseLost((reason) -> {
				firstTold.countDown();
				try {
					firstDone.await(30, TimeUnit.SECONDS);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			});
			assigner.loseLease();
			assertThat(firstTold.await(30, TimeUnit.SECONDS)).as("the keeper tells the first listener").isTrue();
			// The keeper is telling the first listener and has not recorded the loss yet.
			AtomicInteger told = new AtomicInteger();
			session.onLeaseLost((reason) -> told.incrementAndGet());
			firstDone.countDown();
			await().atMost(Duration.ofSeconds(30)).until(session::isLeaseLost);
			await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(told).hasValue(1));
		}
	}

}
