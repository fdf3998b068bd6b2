package io.github.uidgen.snowflake;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.time.LocalDate;
import java.util.function.LongSupplier;

import io.github.uidgen.UidGenerator;
import io.github.uidgen.UidLayout;
import io.github.uidgen.UidTimeUnit;
import io.github.uidgen.worker.FixedWorkerIdAssigner;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Counts the bytes the calling thread allocates across a million calls of each hot path. Anything allocated per
 * call would show up as at least 16 MB; the bound leaves room only for one-off allocations such as the
 * measurement itself.
 */
class HotPathAllocationTests {

	private static final int CALLS = 1_000_000;

	private static final long ONE_OFF_ALLOWANCE = 64 * 1024;

	private static final UidLayout LAYOUT = new UidLayout(UidTimeUnit.MILLISECONDS, LocalDate.of(2025, 1, 1), 41, 4,
			18);

	@Test
	void defaultGeneratorAllocatesNothingPerId() {
		try (DefaultUidGenerator generator = DefaultUidGenerator.builder().layout(LAYOUT)
			.workerIdAssigner(new FixedWorkerIdAssigner(1))
			.build()) {
			assertThat(bytesAllocatedBy(generator)).isLessThan(ONE_OFF_ALLOWANCE);
		}
	}

	@Test
	void cachedGeneratorAllocatesNothingPerId() {
		// A 256-slot ring, so takers also run into the empty ring and wait for the filler.
		UidLayout small = new UidLayout(UidTimeUnit.MILLISECONDS, LocalDate.of(2025, 1, 1), 41, 4, 6);
		try (CachedUidGenerator generator = CachedUidGenerator.builder().layout(small).boostPower(2)
			.maxAhead(Duration.ofHours(1))
			.workerIdAssigner(new FixedWorkerIdAssigner(1))
			.build()) {
			assertThat(bytesAllocatedBy(generator)).isLessThan(ONE_OFF_ALLOWANCE);
			assertThat(generator.ringBuffer().takeRejections()).as("empty-ring path taken too").isPositive();
		}
	}

	private static long bytesAllocatedBy(UidGenerator generator) {
		LongSupplier call = generator::getUID;
		long warmUpLast = run(call);
		com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory
			.getThreadMXBean();
		long thread = Thread.currentThread().getId();
		long before = threads.getThreadAllocatedBytes(thread);
		long measuredLast = run(call);
		long allocated = threads.getThreadAllocatedBytes(thread) - before;
		assertThat(measuredLast).isGreaterThan(warmUpLast);
		return allocated;
	}

	/** Returns the last ID, so the calls cannot be optimised away. */
	private static long run(LongSupplier call) {
		long last = 0;
		for (int i = 0; i < CALLS; i++) {
			last = call.getAsLong();
		}
		return last;
	}

}
