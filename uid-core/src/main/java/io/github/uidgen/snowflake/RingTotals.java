package io.github.uidgen.snowflake;

import io.github.uidgen.UidGeneratorStatus;
import io.github.uidgen.buffer.RingBuffer;
import io.github.uidgen.buffer.ThreadRuns;

/**
 * What the rings a cached generator issued from before its current one handed out and counted, added to the current
 * ring's figures so that the generator's status never goes back when a lost lease replaces its ring. Used under the
 * generator's lifecycle lock.
 */
final class RingTotals {

	private long issued;

	private long clockBackwards;

	private long putRejections;

	private long takeRejections;

	private long fillErrors;

	/** Adds the figures of a ring the generator no longer issues from; its filler is closed already. */
	void add(RingBuffer ring, ThreadRuns runs, UidRingFiller filler) {
		this.issued += runs.takenCount();
		this.clockBackwards += filler.clockBackwardsCount();
		this.putRejections += ring.putRejections();
		this.takeRejections += ring.takeRejections();
		this.fillErrors += filler.fillErrors();
	}

	long issued(ThreadRuns current) {
		return this.issued + current.takenCount();
	}

	long clockBackwards(UidRingFiller current) {
		return this.clockBackwards + current.clockBackwardsCount();
	}

	/** The status of the current ring, with the counts of earlier ones added. */
	UidGeneratorStatus.Ring status(RingBuffer ring, UidRingFiller filler) {
		return new UidGeneratorStatus.Ring(ring.capacity(), ring.size(), this.putRejections + ring.putRejections(),
				this.takeRejections + ring.takeRejections(), this.fillErrors + filler.fillErrors());
	}

}
