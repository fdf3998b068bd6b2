package io.github.uidgen.snowflake;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import io.github.uidgen.UidClock;
import io.github.uidgen.UidUnavailableException;
import io.github.uidgen.buffer.RejectedPutHandler;
import io.github.uidgen.buffer.RingBuffer;
import io.github.uidgen.buffer.WaitingTakeHandler;
import io.github.uidgen.worker.FixedWorkerIdAssigner;
import io.github.uidgen.worker.WorkerAssignment;
import io.github.uidgen.worker.WorkerIdAssigner;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A caller interrupted while it waits (for an empty ring to be refilled, for the mark to be recorded) stops waiting
 * at once with a clear exception and keeps its interrupt flag set, instead of spinning at full CPU until the wait
 * times out (parking returns at once while the flag is set).
 */
class InterruptedWaitTests {

	private static final Duration LONG_WAIT = Duration.ofSeconds(20);

	@Test
	void aTakerInterruptedWhileTheRingIsEmptyStopsWaitingAndKeepsItsFlag() throws Exception {
		RingBuffer empty = new RingBuffer(16, 50, RejectedPutHandler.KEEP_FOR_NEXT_FILL,
				new WaitingTakeHandler(LONG_WAIT));
		assertInterruptEndsTheWait(empty::take, "ID");
	}

	@Test
	void aCallerInterruptedWhileTheMarkCannotBeRecordedStopsWaitingAndKeepsItsFlag() throws Exception {
		StuckAssigner assigner = new StuckAssigner();
		AbstractUidGenerator generator = DefaultUidGenerator.builder()
			.clock(UidClock.SYSTEM)
			.workerIdAssigner(assigner)
			.markReservation(Duration.ofMillis(200))
			.markTimeout(LONG_WAIT)
			.build();
		try {
			assigner.stuck.set(true);
			// The reservation runs out while the keeper's renewal hangs: the next unit must wait for the mark.
			await().atMost(Duration.ofSeconds(30))
				.until(() -> generator.status().worker().highWaterMark() != null
						&& generator.status().worker().highWaterMark().isBefore(Instant.now().minusMillis(50)));
			assertInterruptEndsTheWait(generator::getUID, "high-water mark");
		}
		finally {
			assigner.release.countDown();
			generator.close();
		}
	}

	private static void assertInterruptEndsTheWait(Runnable waiting, String waitedFor) throws Exception {
		AtomicReference<Throwable> thrown = new AtomicReference<>();
		AtomicBoolean flagKept = new AtomicBoolean();
		CountDownLatch done = new CountDownLatch(1);
		Thread caller = new Thread(() -> {
			try {
				waiting.run();
			}
			catch (Throwable ex) {
				thrown.set(ex);
			}
			flagKept.set(Thread.currentThread().isInterrupted());
			done.countDown();
		}, "interrupted-caller");
		caller.start();
		// Interrupted once it waits (parked), not before it started to.
		await().atMost(Duration.ofSeconds(30))
			.until(() -> caller.getState() == Thread.State.TIMED_WAITING || caller.getState() == Thread.State.WAITING);
		long interruptedAt = System.nanoTime();
		caller.interrupt();
		assertThat(done.await(LONG_WAIT.toSeconds() + 10, TimeUnit.SECONDS)).isTrue();
		// Its own timeout would end the wait after LONG_WAIT, with other words than "Interrupted".
		assertThat(Duration.ofNanos(System.nanoTime() - interruptedAt)).as("the wait ends when interrupted")
			.isLessThan(LONG_WAIT);
		assertThat(thrown.get()).isInstanceOf(UidUnavailableException.class)
			.hasMessageContaining("Interrupted")
			.hasMessageContaining(waitedFor);
		assertThat(flagKept).as("the interrupt flag stays set").isTrue();
	}

	/** A fixed worker whose renewals hang once {@link #stuck} is set, as a store that stopped answering. */
	private static final class StuckAssigner implements WorkerIdAssigner {

		private final FixedWorkerIdAssigner delegate = new FixedWorkerIdAssigner(2);

		final AtomicBoolean stuck = new AtomicBoolean();

		final CountDownLatch release = new CountDownLatch(1);

		@Override
		public WorkerAssignment assign(long maxWorkerId) {
			return this.delegate.assign(maxWorkerId);
		}

		@Override
		public void renew(long workerId, long highWaterMarkMillis) {
			if (this.stuck.get()) {
				try {
					this.release.await(60, TimeUnit.SECONDS);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			}
			this.delegate.renew(workerId, highWaterMarkMillis);
		}

		@Override
		public void release(long workerId, long highWaterMarkMillis) {
		}

		@Override
		public String name() {
			return "stuck";
		}

	}

}
