package io.github.uidgen.buffer;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

import io.github.uidgen.UidException;
import io.github.uidgen.UidUnavailableException;

/**
 * The default take policy: wait for the refill instead of failing, so a burst of demand slows callers down
 * rather than throwing at them. Spins briefly, then yields, then parks in short steps; gives up only after the
 * configured time, at once when the filler reports a real failure (layout exhausted, lease lost, closed), or when
 * the caller is interrupted (its interrupt flag stays set).
 * Allocates nothing unless it throws.
 */
public final class WaitingTakeHandler implements RejectedTakeHandler {

	/** Default limit on how long a taker waits for an ID. */
	public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(5);

	private static final int SPINS = 64;

	private static final int YIELDS = 64;

	private static final long PARK_NANOS = 20_000;

	private final long timeoutNanos;

	public WaitingTakeHandler() {
		this(DEFAULT_TIMEOUT);
	}

	/**
	 * Creates a handler that waits up to {@code timeout}.
	 * @param timeout a positive duration
	 */
	public WaitingTakeHandler(Duration timeout) {
		if (timeout == null || timeout.isNegative() || timeout.isZero()) {
			throw new IllegalArgumentException("The take timeout must be positive, was " + timeout);
		}
		this.timeoutNanos = timeout.toNanos();
	}

	@Override
	public long rejectTakeBuffer(RingBuffer ring) {
		ring.requestFill();
		long start = 0;
		for (int round = 0;; round++) {
			long uid = ring.tryTake();
			if (uid != RingBuffer.EMPTY) {
				return uid;
			}
			UidException failure = ring.fillerFailure();
			if (failure != null) {
				throw failure;
			}
			if (round < SPINS) {
				Thread.onSpinWait();
				continue;
			}
			if (round < SPINS + YIELDS) {
				Thread.yield();
				continue;
			}
			if (Thread.currentThread().isInterrupted()) {
				// Parking returns at once while the flag is set: waiting on would spin. Leave the flag for the caller.
				throw new UidUnavailableException("Interrupted while waiting for an ID from the ring buffer (" + ring
						+ ")");
			}
			long now = System.nanoTime();
			if (start == 0) {
				start = now;
			}
			else if (now - start > this.timeoutNanos) {
				throw new UidUnavailableException("No ID came into the ring buffer within "
						+ Duration.ofNanos(this.timeoutNanos).toMillis() + " ms (" + ring + ")");
			}
			ring.requestFill();
			LockSupport.parkNanos(PARK_NANOS);
		}
	}

	/**
	 * Returns the wait limit.
	 * @return the timeout
	 */
	public Duration getTimeout() {
		return Duration.ofNanos(this.timeoutNanos);
	}

}
