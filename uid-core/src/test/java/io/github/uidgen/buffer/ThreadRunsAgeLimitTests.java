package io.github.uidgen.buffer;

import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The age limit sees every ID a thread claims and none of the rest of its run; an ID it refuses goes, with all the ring
 * and the runs hold, and the thread gets what is put next instead.
 */
class ThreadRunsAgeLimitTests {

	/** IDs below this are too old; the test moves it as a clock would move on. */
	private final AtomicLong currentFrom = new AtomicLong();

	private final AtomicLong checked = new AtomicLong();

	/** Stands in for the filler: an empty ring gets current IDs, from 5000 on. */
	private final RingBuffer ring = new RingBuffer(64, 50, RejectedPutHandler.KEEP_FOR_NEXT_FILL, (empty) -> {
		empty.putRange(5000, 64);
		return empty.tryTake();
	});

	private final ThreadRuns runs = new ThreadRuns(this.ring, ThreadRuns.MAX_RUN, 0, null, (uid) -> {
		this.checked.incrementAndGet();
		return uid >= this.currentFrom.get();
	});

	@Test
	void aClaimedIdTooOldIsReplacedByWhatIsPutNextWithTheRestOfTheRing() {
		this.ring.putRange(1000, 64);
		assertThat(this.runs.take()).isEqualTo(1000);
		assertThat(this.checked.get()).as("the run's first ID was checked").isEqualTo(1);

		this.currentFrom.set(2000);
		assertThat(this.runs.take()).as("the rest of the run is not checked").isEqualTo(1001);
		assertThat(this.checked.get()).isEqualTo(1);
		assertThat(this.runs.take()).as("the next claim finds 1002 too old").isEqualTo(5000);
		assertThat(this.checked.get()).as("1002, then 5000").isEqualTo(3);
		// The claim took 1002 to 1005 into the run; 1003 to 1005 go with it.
		assertThat(this.ring.discardedCount()).as("1006 to 1063 withdrawn from the ring").isEqualTo(58);
		assertThat(this.runs.takenCount()).as("1000, 1001 and 5000 handed out").isEqualTo(3);
		assertThat(this.runs.take()).isEqualTo(5001);
	}

	@Test
	void currentIdsPassTheLimitOncePerClaimedRun() {
		this.ring.putRange(1000, 64);
		long[] taken = new long[64];
		for (int i = 0; i < taken.length; i++) {
			taken[i] = this.runs.take();
		}
		for (int i = 0; i < taken.length; i++) {
			assertThat(taken[i]).isEqualTo(1000 + i);
		}
		// Runs of 2, 4, 8, 16, 32, and the 2 left.
		assertThat(this.checked.get()).isEqualTo(6);
		assertThat(this.ring.discardedCount()).isZero();
	}

}
