package io.github.uidgen.snowflake;

import io.github.uidgen.InvalidSettingException;
import io.github.uidgen.UidLayout;
import io.github.uidgen.buffer.RejectedPutHandler;
import io.github.uidgen.buffer.RejectedTakeHandler;
import io.github.uidgen.buffer.RingBuffer;
import io.github.uidgen.buffer.ThreadRuns;

/**
 * Makes a cached generator's ring, its filler and the threads' runs over it from the builder's settings: once at
 * start, and again for each worker ID claimed after a lost lease.
 */
final class RingSetup {

	/** The largest ring: 2^28 slots, 2 GiB of IDs. */
	private static final int MAX_CAPACITY = 1 << 28;

	private final UidLayout layout;

	private final int capacity;

	private final int paddingFactor;

	private final RejectedPutHandler putHandler;

	private final RejectedTakeHandler takeHandler;

	private final long maxAheadUnits;

	private final long scheduleMillis;

	RingSetup(UidLayout layout, int capacity, int paddingFactor, RejectedPutHandler putHandler,
			RejectedTakeHandler takeHandler, long maxAheadMillis, long scheduleMillis) {
		this.layout = layout;
		this.capacity = capacity;
		this.paddingFactor = paddingFactor;
		this.putHandler = putHandler;
		this.takeHandler = takeHandler;
		this.maxAheadUnits = maxAheadMillis / layout.getTimeUnit().toMillis();
		this.scheduleMillis = scheduleMillis;
	}

	/**
	 * The ring's capacity for a boost power: {@code (maxSequence + 1) << boostPower} IDs.
	 * @throws InvalidSettingException when that ring would be larger than 2^28 slots
	 */
	static int capacity(UidLayout layout, int boostPower) {
		long perUnit = layout.getMaxSequence() + 1;
		if (boostPower > 30 || perUnit > (MAX_CAPACITY >> boostPower)) {
			throw new InvalidSettingException("boostPower", boostPower,
					"the ring of " + perUnit + " << " + boostPower + " IDs exceeds " + MAX_CAPACITY
							+ " slots; lower the boost power or the sequence bits");
		}
		return (int) (perUnit << boostPower);
	}

	RingBuffer newRing() {
		// A slot per run of consecutive IDs: the filler writes one slot for a thread's whole run.
		int idsPerSlot = (int) Math.min(ThreadRuns.MAX_RUN, this.layout.getMaxSequence() + 1);
		return new RingBuffer(this.capacity, idsPerSlot, this.paddingFactor, this.putHandler, this.takeHandler);
	}

	ThreadRuns newRuns(RingBuffer over) {
		return new ThreadRuns(over, ThreadRuns.MAX_RUN);
	}

	/** A filler for the ring from the session's worker, connected to the ring but not started. */
	UidRingFiller newFiller(RingBuffer target, WorkerSession on) {
		UidRingFiller filler = new UidRingFiller(target, on, this.maxAheadUnits, this.scheduleMillis);
		target.setFiller(filler);
		return filler;
	}

}
