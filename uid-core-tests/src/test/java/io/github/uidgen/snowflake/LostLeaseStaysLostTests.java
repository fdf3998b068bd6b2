package io.github.uidgen.snowflake;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import io.github.uidgen.UidClock;
import io.github.uidgen.UidUnavailableException;
import io.github.uidgen.worker.FixedWorkerIdAssigner;
import io.github.uidgen.worker.WorkerLeaseLostException;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A lost lease stays lost: a renewal failure counted on one thread while another records the loss must not put the
 * plain failure back over it. When it did, the lost session no longer counted as revoked, and closing it released its
 * worker ID, which the generator had by then claimed again from the same assigner: the new claim was released under
 * the generator, another instance took the worker ID, and both issued its IDs until the next renewal (101 duplicate
 * IDs in a fleet run of 1,000 on ZooKeeper, 2026-12-07, where the first failure's log line was slow to write).
 * Nor does a session whose loss is being told when it is closed: the generator may close it from the claim that
 * follows the loss before the loss is recorded.
 */
class LostLeaseStaysLostTests {

	private static final long WORKER_ID = 7;

	private static final WorkerSession.Settings SETTINGS = new WorkerSession.Settings(Duration.ofMillis(200),
			Duration.ofSeconds(5), Duration.ofSeconds(5), Duration.ZERO, Duration.ofSeconds(2));

	@Test
	void aFailureCountedWhileTheLeaseIsLostDoesNotHideTheLoss() throws InterruptedException {
		MarkRecorder recorder = new MarkRecorder(new FixedWorkerIdAssigner(WORKER_ID), WORKER_ID, TestGenerators.LAYOUT,
				UidClock.SYSTEM);
		CountDownLatch logging = new CountDownLatch(1);
		CountDownLatch lost = new CountDownLatch(1);
		// The first failure of a series is logged: the log line is held until the loss is recorded, as a busy log
		// held it in the fleet run.
		AppenderBase<ILoggingEvent> slowLog = new AppenderBase<>() {

			@Override
			protected void append(ILoggingEvent event) {
				if (event.getFormattedMessage().contains("could not record its high-water mark")) {
					logging.countDown();
					try {
						lost.await(10, TimeUnit.SECONDS);
					}
					catch (InterruptedException ex) {
						Thread.currentThread().interrupt();
					}
				}
			}

		};
		Logger logger = (Logger) LoggerFactory.getLogger(HighWaterMarkKeeper.class);
		Level levelBefore = logger.getLevel();
		logger.setLevel(Level.WARN);
		slowLog.start();
		logger.addAppender(slowLog);
		try {
			Thread counting = new Thread(
					() -> recorder.recordFailure(new UidUnavailableException("a renewal not answered in time (test)")));
			counting.start();
			assertThat(logging.await(10, TimeUnit.SECONDS)).as("the failure's log line was written").isTrue();
			WorkerLeaseLostException loss = new WorkerLeaseLostException(WORKER_ID, "another instance took it (test)");
			recorder.leaseLost(loss);
			lost.countDown();
			counting.join(TimeUnit.SECONDS.toMillis(10));
			assertThat(counting.isAlive()).isFalse();
			assertThat(recorder.failure()).as("the failure once both are recorded").isSameAs(loss);
		}
		finally {
			lost.countDown();
			logger.detachAppender(slowLog);
			logger.setLevel(levelBefore);
			recorder.stop(0);
		}
	}

	@Test
	void aSessionClosedWhileItsLossIsToldReleasesNothing() throws InterruptedException {
		CuedLeaseAssigner assigner = new CuedLeaseAssigner(WORKER_ID);
		WorkerSession session = WorkerSession.open(assigner, TestGenerators.LAYOUT, 0, UidClock.SYSTEM, SETTINGS);
		CountDownLatch closed = new CountDownLatch(1);
		Thread closer = new Thread(() -> {
			session.close();
			closed.countDown();
		});
		// The listener closes the session and is told no more until the close is done: as a claim after the loss that
		// resumes issue before the keeper has recorded the loss (a thread not scheduled on a loaded machine), the close
		// outlasts its wait for the keeper's calls.
		session.onLeaseLost((reason) -> {
			closer.start();
			try {
				closed.await(30, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		});
		try {
			assigner.loseLease();
			assertThat(closed.await(30, TimeUnit.SECONDS)).as("the session was closed").isTrue();
			assertThat(assigner.releases()).as("releases of the lost worker ID").isZero();
		}
		finally {
			session.halt();
		}
	}

}
