package io.github.uidgen.snowflake;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.uidgen.worker.FixedWorkerIdAssigner;
import io.github.uidgen.worker.WorkerAssignment;
import io.github.uidgen.worker.WorkerLeaseLostException;
import io.github.uidgen.worker.WorkerStoreUnavailableException;

/**
 * A worker ID given in code whose lease a test takes away on cue: a renewal can be held until the test answers it
 * with "lost", and claims after the loss fail until the test allows them, so the test decides when each step of a
 * lost lease happens instead of hoping for an order.
 */
final class CuedLeaseAssigner extends FixedWorkerIdAssigner {

	private final long workerId;

	private volatile CountDownLatch answer = new CountDownLatch(0);

	private final CountDownLatch renewalHeld = new CountDownLatch(1);

	private volatile boolean lost;

	private volatile boolean claimsAllowed = true;

	private final AtomicInteger releases = new AtomicInteger();

	CuedLeaseAssigner(long workerId) {
		super(workerId);
		this.workerId = workerId;
	}

	/** Makes the next renewals wait until {@link #loseLease()}; claims fail from then on until allowed again. */
	void holdRenewals() {
		this.claimsAllowed = false;
		this.answer = new CountDownLatch(1);
	}

	/** Waits, within a bound, until a renewal waits for its answer. */
	void awaitHeldRenewal() throws InterruptedException {
		if (!this.renewalHeld.await(30, TimeUnit.SECONDS)) {
			throw new AssertionError("no renewal of worker " + this.workerId + " within 30 s");
		}
	}

	/** Every renewal from now on, and the one held, finds the lease lost; claims fail until allowed. */
	void loseLease() {
		this.claimsAllowed = false;
		this.lost = true;
		this.answer.countDown();
	}

	/** Lets claims succeed again, with a lease that renews normally. */
	void allowClaims() {
		this.lost = false;
		this.claimsAllowed = true;
	}

	@Override
	public WorkerAssignment assign(long maxWorkerId) {
		if (!this.claimsAllowed) {
			throw new WorkerStoreUnavailableException("claims are held by the test", null);
		}
		return super.assign(maxWorkerId);
	}

	@Override
	public void renew(long workerId, long highWaterMarkMillis) {
		CountDownLatch waitFor = this.answer;
		if (waitFor.getCount() > 0) {
			this.renewalHeld.countDown();
			try {
				if (!waitFor.await(30, TimeUnit.SECONDS)) {
					throw new WorkerStoreUnavailableException("the test did not answer within 30 s", null);
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new WorkerStoreUnavailableException("interrupted", ex);
			}
		}
		if (this.lost) {
			throw new WorkerLeaseLostException(workerId, "taken away by the test");
		}
		super.renew(workerId, highWaterMarkMillis);
	}

	@Override
	public void release(long workerId, long highWaterMarkMillis) {
		this.releases.incrementAndGet();
		super.release(workerId, highWaterMarkMillis);
	}

	/** Returns how many times a worker ID was released. */
	int releases() {
		return this.releases.get();
	}

	/** Renews often, so a loss is found within milliseconds. */
	@Override
	public Duration renewInterval() {
		return Duration.ofMillis(10);
	}

	@Override
	public String name() {
		return "cued";
	}

}
