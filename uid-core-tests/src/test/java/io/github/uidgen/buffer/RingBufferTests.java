package io.github.uidgen.buffer;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import io.github.uidgen.UidException;
import io.github.uidgen.UidUnavailableException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class RingBufferTests {

	/**
	 * Values through the 64-slot ring: each wraps it over 15,000 times. The tests spin on two cores shared with the
	 * rest of the suite, so more values cost the suite's CPU without meeting a case these do not.
	 */
	private static final int VALUES = 1_000_000;

	/**
	 * A 64-slot ring between one filler that puts 0, 1, 2, ... as fast as it can and several takers: the full path
	 * (put rejected) and the empty path (take rejected, the default waiting policy) both run very often, and every
	 * value must come out exactly once.
	 */
	@ParameterizedTest
	@ValueSource(ints = { 1, 8 })
	void everyValueComesOutExactlyOnceThroughATinyRing(int takers) throws Exception {
		AtomicLong putRejections = new AtomicLong();
		RingBuffer ring = new RingBuffer(64, 50, (r, uid) -> putRejections.incrementAndGet(),
				new WaitingTakeHandler());
		Thread filler = new Thread(() -> {
			long next = 0;
			while (next < VALUES) {
				next += ring.putRange(next, (int) Math.min(7, VALUES - next));
			}
		}, "test-filler");
		int perTaker = VALUES / takers;
		long[][] taken = new long[takers][perTaker];
		CountDownLatch start = new CountDownLatch(1);
		AtomicReference<Throwable> failure = new AtomicReference<>();
		List<Thread> threads = new ArrayList<>();
		for (int t = 0; t < takers; t++) {
			long[] mine = taken[t];
			Thread taker = new Thread(() -> {
				try {
					start.await();
					for (int i = 0; i < perTaker; i++) {
						mine[i] = ring.take();
					}
				}
				catch (Throwable ex) {
					failure.compareAndSet(null, ex);
				}
			});
			threads.add(taker);
			taker.start();
		}
		filler.start();
		start.countDown();
		for (Thread thread : threads) {
			thread.join();
		}
		filler.join();
		assertThat(failure.get()).isNull();
		long[] all = new long[VALUES];
		for (int t = 0; t < takers; t++) {
			System.arraycopy(taken[t], 0, all, t * perTaker, perTaker);
			for (int i = 1; i < perTaker; i++) {
				assertThat(taken[t][i]).isGreaterThan(taken[t][i - 1]);
			}
		}
		Arrays.parallelSort(all);
		for (int i = 0; i < VALUES; i++) {
			if (all[i] != i) {
				throw new AssertionError("Value " + i + " came out " + ((all[i] < i) ? "twice" : "never"));
			}
		}
		assertThat(ring.size()).isZero();
		// How often the filler finds the ring full depends on how the threads are scheduled: that it did is asserted.
		assertThat(putRejections.get()).isEqualTo(ring.putRejections()).isPositive();
		assertThat(ring.takeRejections()).isPositive();
		assertThat(ring.takenCount()).isEqualTo(VALUES);
	}

	/**
	 * As above through a ring whose slots each hold a run of 8 consecutive IDs: the filler writes one slot per run,
	 * takers take single IDs and runs of up to 8, and every value still comes out exactly once, in increasing order
	 * for each taker.
	 */
	@Test
	void everyValueComesOutExactlyOnceThroughATinyRingOfRuns() throws Exception {
		RingBuffer ring = new RingBuffer(64, 8, 50, RejectedPutHandler.KEEP_FOR_NEXT_FILL, new WaitingTakeHandler());
		int takers = 4;
		int perTaker = VALUES / 4 / takers;
		int values = perTaker * takers;
		Thread filler = new Thread(() -> {
			long next = 0;
			while (next < values) {
				next += ring.putRange(next, 16);
			}
		}, "test-filler");
		long[][] taken = new long[takers][perTaker];
		AtomicReference<Throwable> failure = new AtomicReference<>();
		List<Thread> threads = new ArrayList<>();
		for (int t = 0; t < takers; t++) {
			long[] mine = taken[t];
			boolean inRuns = t % 2 == 0;
			Thread taker = new Thread(() -> {
				try {
					Run run = new Run(0);
					int i = 0;
					while (i < perTaker) {
						if (inRuns && ring.tryTakeRun(run, Math.min(8, perTaker - i))) {
							for (long uid = run.next; uid < run.end; uid++) {
								mine[i++] = uid;
							}
						}
						else if (!inRuns) {
							mine[i++] = ring.take();
						}
						else {
							Thread.onSpinWait();
						}
					}
				}
				catch (Throwable ex) {
					failure.compareAndSet(null, ex);
				}
			});
			threads.add(taker);
			taker.start();
		}
		filler.start();
		for (Thread thread : threads) {
			thread.join();
		}
		filler.join();
		assertThat(failure.get()).isNull();
		long[] all = new long[values];
		for (int t = 0; t < takers; t++) {
			System.arraycopy(taken[t], 0, all, t * perTaker, perTaker);
			for (int i = 1; i < perTaker; i++) {
				assertThat(taken[t][i]).isGreaterThan(taken[t][i - 1]);
			}
		}
		Arrays.parallelSort(all);
		for (int i = 0; i < values; i++) {
			if (all[i] != i) {
				throw new AssertionError("Value " + i + " came out " + ((all[i] < i) ? "twice" : "never"));
			}
		}
		assertThat(ring.takenCount()).isEqualTo(values);
		assertThat(ring.putRejections()).isPositive();
	}

	@Test
	void aRingOfRunsTakesWholeSlotsAndHandsOutTheIdsOfEachSlotInOrder() {
		RingBuffer ring = new RingBuffer(16, 4, 50, RejectedPutHandler.KEEP_FOR_NEXT_FILL, new FailFastTakeHandler());
		assertThatIllegalArgumentException().isThrownBy(() -> ring.putRange(0, 6))
			.withMessage("IDs go into the ring in whole slots of 4, but 6 came");
		assertThat(ring.putRange(100, 8)).isEqualTo(8);
		assertThat(ring.putRange(200, 12)).as("two slots of three fit").isEqualTo(8);
		assertThat(ring.size()).isEqualTo(16);
		assertThat(ring.putRejections()).isEqualTo(1);
		long[] taken = new long[16];
		for (int i = 0; i < taken.length; i++) {
			taken[i] = ring.take();
		}
		assertThat(taken).containsExactly(100, 101, 102, 103, 104, 105, 106, 107, 200, 201, 202, 203, 204, 205, 206,
				207);
		assertThat(ring.capacity()).isEqualTo(16);
		assertThat(ring.idsPerSlot()).isEqualTo(4);
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new RingBuffer(16, 32, 50, RejectedPutHandler.KEEP_FOR_NEXT_FILL,
					new FailFastTakeHandler()))
			.withMessageContaining("power of two up to the capacity");
	}

	@Test
	void replacingStaleIdsNeverLeavesTheRingEmpty() {
		RingBuffer ring = new RingBuffer(16, 4, 50, RejectedPutHandler.KEEP_FOR_NEXT_FILL, new FailFastTakeHandler());
		ThreadRuns runs = new ThreadRuns(ring, ThreadRuns.MAX_RUN);
		assertThat(ring.putRange(0, 16)).isEqualTo(16);
		assertThat(runs.take()).isEqualTo(0);
		ring.startReplacement();
		assertThat(ring.take()).isEqualTo(2);
		assertThat(ring.putRange(1000, 16)).as("room as if the stale IDs were gone").isEqualTo(16);
		assertThat(ring.take()).as("still a stale one, until the replacement completes").isEqualTo(3);
		assertThat(ring.size()).isEqualTo(16);
		assertThat(ring.completeReplacement()).isEqualTo(12);
		assertThat(ring.discardedCount()).isEqualTo(12);
		assertThat(ring.size()).isEqualTo(16);
		assertThat(runs.take()).as("1 dropped with the run it was in").isEqualTo(1000);
		assertThat(ring.take()).isEqualTo(1001);
		assertThat(ring.takeRejections()).isZero();
		assertThat(ring.putRange(2000, 4)).as("back to the plain capacity").isZero();
	}

	@Test
	void asksForARefillOnlyOnceUnderThePaddingThreshold() {
		AtomicLong requests = new AtomicLong();
		RingBuffer ring = new RingBuffer(8, 50, RejectedPutHandler.KEEP_FOR_NEXT_FILL, new FailFastTakeHandler());
		ring.setFiller(new CountingFiller(requests));
		assertThat(ring.putRange(100, 10)).isEqualTo(8);
		assertThat(ring.take()).isEqualTo(100);
		assertThat(ring.take()).isEqualTo(101);
		assertThat(ring.take()).isEqualTo(102);
		assertThat(ring.take()).isEqualTo(103);
		assertThat(requests.get()).isZero();
		assertThat(ring.take()).isEqualTo(104);
		assertThat(requests.get()).isEqualTo(1);
	}

	@Test
	void refusesIdsThatDoNotIncrease() {
		RingBuffer ring = new RingBuffer(8, 50, RejectedPutHandler.KEEP_FOR_NEXT_FILL, new FailFastTakeHandler());
		assertThat(ring.putRange(100, 3)).isEqualTo(3);
		assertThatIllegalArgumentException().isThrownBy(() -> ring.putRange(102, 1))
			.withMessage("IDs go into the ring in increasing order, but 102 came after 102");
		assertThat(ring.putRange(103, 1)).isEqualTo(1);
		assertThat(ring.size()).isEqualTo(4);
	}

	@Test
	void failFastPolicyThrowsOnAnEmptyRing() {
		RingBuffer ring = new RingBuffer(8, 50, RejectedPutHandler.KEEP_FOR_NEXT_FILL, new FailFastTakeHandler());
		assertThatExceptionOfType(UidUnavailableException.class).isThrownBy(ring::take)
			.withMessageContaining("The ring buffer is empty");
		assertThat(ring.takeRejections()).isEqualTo(1);
	}

	@Test
	void waitingPolicyGivesUpWithTheFillerFailure() {
		RingBuffer ring = new RingBuffer(8, 50, RejectedPutHandler.KEEP_FOR_NEXT_FILL, new WaitingTakeHandler());
		UidException stopped = new UidUnavailableException("filler stopped for the test");
		ring.setFiller(new CountingFiller(new AtomicLong()) {
			@Override
			public UidException failure() {
				return stopped;
			}
		});
		assertThatExceptionOfType(UidUnavailableException.class).isThrownBy(ring::take).isSameAs(stopped);
	}

	@Test
	void discardAllEmptiesTheRingAndCountsWhatItDropped() {
		RingBuffer ring = new RingBuffer(8, 50, RejectedPutHandler.KEEP_FOR_NEXT_FILL, new FailFastTakeHandler());
		ring.putRange(0, 5);
		ring.take();
		assertThat(ring.discardAll()).isEqualTo(4);
		assertThat(ring.size()).isZero();
		assertThat(ring.discardedCount()).isEqualTo(4);
		assertThat(ring.takenCount()).isEqualTo(1);
		assertThat(ring.tryTake()).isEqualTo(RingBuffer.EMPTY);
	}

	@Test
	void refusesBadSizes() {
		assertThatIllegalArgumentException().isThrownBy(() -> new RingBuffer(48, 50,
				RejectedPutHandler.KEEP_FOR_NEXT_FILL, new FailFastTakeHandler()))
			.withMessageContaining("power of two");
		assertThatIllegalArgumentException().isThrownBy(() -> new RingBuffer(64, 100,
				RejectedPutHandler.KEEP_FOR_NEXT_FILL, new FailFastTakeHandler()))
			.withMessageContaining("1 to 99");
	}

	private static class CountingFiller implements RingFiller {

		private final AtomicLong requests;

		CountingFiller(AtomicLong requests) {
			this.requests = requests;
		}

		@Override
		public void requestFill() {
			this.requests.incrementAndGet();
		}

		@Override
		public UidException failure() {
			return null;
		}

		@Override
		public String describe() {
			return "counting filler";
		}

	}

}
