package io.github.uidgen.snowflake;

import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.github.uidgen.UidLayout;
import io.github.uidgen.UidSets;
import io.github.uidgen.UidTimeUnit;
import io.github.uidgen.worker.FixedWorkerIdAssigner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Virtual threads (Java 21 and later) on the default carrier pool take from shared runs, one take at a time, and
 * move between carriers between takes. The build targets Java 17, so the executor is looked up by reflection; where
 * the machine has a JDK 25 (the CI's), uid-core-tests' profile {@code virtual-threads-on-jdk25} runs this class again on
 * it, as it is skipped on 17.
 */
@EnabledForJreRange(min = JRE.JAVA_21)
class VirtualThreadTakeTests {

	/** 262,144 IDs a millisecond and a ring of 1,048,576 (boost power 2): the ring holds every ID the test takes. */
	private static final UidLayout ROOMY = new UidLayout(UidTimeUnit.MILLISECONDS, LocalDate.of(2025, 1, 1), 41, 4, 18);

	private static final int THREADS = 10_000;

	private static final int PER_THREAD = 100;

	@Test
	void tenThousandVirtualThreadsGetIncreasingIdsNoneTwiceAndNoTakeIsRejectedWhileTheRingHoldsIds() throws Exception {
		try (CachedUidGenerator generator = CachedUidGenerator.builder().layout(ROOMY).boostPower(2)
			.maxAhead(Duration.ofMinutes(1))
			.workerIdAssigner(new FixedWorkerIdAssigner(7))
			.build()) {
			assertThat(generator.ringBuffer().size()).isGreaterThanOrEqualTo(THREADS * PER_THREAD);
			ExecutorService executor = (ExecutorService) Executors.class.getMethod("newVirtualThreadPerTaskExecutor")
				.invoke(null);
			List<Future<long[]>> results = new ArrayList<>();
			try {
				for (int t = 0; t < THREADS; t++) {
					results.add(executor.submit(() -> {
						assertThat(Thread.currentThread().getClass().getName()).isEqualTo("java.lang.VirtualThread");
						long[] ids = new long[PER_THREAD];
						for (int i = 0; i < ids.length; i++) {
							ids[i] = generator.getUID();
							if (i % 10 == 9) {
								// Unmounts, and may come back on the other carrier.
								Thread.yield();
							}
						}
						return ids;
					}));
				}
				long[][] ids = new long[THREADS][];
				for (int t = 0; t < THREADS; t++) {
					ids[t] = results.get(t).get(60, TimeUnit.SECONDS);
					assertThat(UidSets.firstNonIncreasing(ids[t])).as("thread %d's IDs increase", t).isEqualTo(-1);
				}
				assertThat(UidSets.countDuplicates(ids)).isZero();
				assertThat(generator.status().issued()).isEqualTo((long) THREADS * PER_THREAD);
				assertThat(generator.status().ring().takeRejections()).isZero();
			}
			finally {
				executor.shutdownNow();
				assertThat(executor.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
			}
		}
	}

}
