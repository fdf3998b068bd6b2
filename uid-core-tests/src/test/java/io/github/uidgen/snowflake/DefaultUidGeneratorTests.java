package io.github.uidgen.snowflake;

import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import io.github.uidgen.ClockMovedBackwardsException;
import io.github.uidgen.DecodedUid;
import io.github.uidgen.LayoutExhaustedException;
import io.github.uidgen.ManualClock;
import io.github.uidgen.UidLayout;
import io.github.uidgen.UidSets;
import io.github.uidgen.UidTimeUnit;
import io.github.uidgen.UidUnavailableException;
import io.github.uidgen.worker.FixedWorkerIdAssigner;
import io.github.uidgen.worker.WorkerIdOutOfRangeException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class DefaultUidGeneratorTests {

	/** Room for 262,144 IDs per millisecond, so eight million IDs take no waiting. */
	private static final UidLayout ROOMY = new UidLayout(UidTimeUnit.MILLISECONDS, LocalDate.of(2025, 1, 1), 41, 4,
			18);

	@Test
	void eightThreadsGetAMillionUniqueIncreasingIdsEach() throws Exception {
		try (DefaultUidGenerator generator = DefaultUidGenerator.builder().layout(ROOMY)
			.workerIdAssigner(new FixedWorkerIdAssigner(5))
			.build()) {
			long[][] ids = Concurrently.take(generator::getUID, 8, 1_000_000);
			for (long[] perThread : ids) {
				assertThat(UidSets.firstNonIncreasing(perThread)).isEqualTo(-1);
				assertThat(Arrays.stream(perThread).min().getAsLong()).isPositive();
			}
			assertThat(UidSets.countDuplicates(ids)).isZero();
			assertThat(generator.decode(ids[0][0]).workerId()).isEqualTo(5);
			assertThat(generator.status().issued()).isEqualTo(8_000_000);
		}
	}

	@Test
	void waitsForTheNextUnitWhenTheSequenceRunsOutInsteadOfRepeating() throws Exception {
		UidLayout tiny = new UidLayout(UidTimeUnit.MILLISECONDS, LocalDate.of(2025, 1, 1), 41, 10, 4);
		try (DefaultUidGenerator generator = DefaultUidGenerator.builder().layout(tiny)
			.workerIdAssigner(new FixedWorkerIdAssigner(1))
			.build()) {
			long[][] ids = Concurrently.take(generator::getUID, 4, 2_000);
			assertThat(UidSets.countDuplicates(ids)).isZero();
			for (long[] perThread : ids) {
				assertThat(UidSets.firstNonIncreasing(perThread)).isEqualTo(-1);
				for (long uid : perThread) {
					assertThat(generator.decode(uid).sequence()).isLessThanOrEqualTo(15);
				}
			}
		}
	}

	@Test
	void absorbsASmallStepBackByCountingOnFromTheLastUnit() {
		ManualClock clock = ManualClock.atSystemTime();
		try (DefaultUidGenerator generator = DefaultUidGenerator.builder().layout(ROOMY).clock(clock)
			.clockBackwardsTolerance(Duration.ofMillis(500))
			.workerIdAssigner(new FixedWorkerIdAssigner(1))
			.build()) {
			long before = generator.getUID();
			clock.advance(-300);
			List<Long> during = new ArrayList<>();
			for (int i = 0; i < 1000; i++) {
				during.add(generator.getUID());
			}
			assertThat(during.get(0)).isGreaterThan(before);
			assertThat(during).isSorted().doesNotHaveDuplicates();
			DecodedUid last = generator.decode(during.get(during.size() - 1));
			assertThat(last.timestamp()).isEqualTo(generator.decode(before).timestamp());
			assertThat(generator.status().clockBackwards()).isEqualTo(1);
			clock.advance(301);
			assertThat(generator.getUID()).isGreaterThan(during.get(during.size() - 1));
		}
	}

	@Test
	void failsFastOnALargeStepBackSayingHowFar() {
		ManualClock clock = ManualClock.atSystemTime();
		try (DefaultUidGenerator generator = DefaultUidGenerator.builder().layout(ROOMY).clock(clock)
			.clockBackwardsTolerance(Duration.ofMillis(500))
			.workerIdAssigner(new FixedWorkerIdAssigner(1))
			.build()) {
			long before = generator.getUID();
			clock.advance(-5_000);
			assertThatExceptionOfType(ClockMovedBackwardsException.class).isThrownBy(generator::getUID)
				.withMessageContaining("moved backwards by 5000 ms")
				.withMessageContaining("500 ms")
				.satisfies((ex) -> assertThat(ex.getBackwards()).isEqualTo(Duration.ofMillis(5000)));
			clock.advance(5_001);
			assertThat(generator.getUID()).isGreaterThan(before);
		}
	}

	@Test
	void waitsOutASmallStepBackWhenTheSequenceOfTheLastUnitIsUsedUp() throws Exception {
		UidLayout tiny = new UidLayout(UidTimeUnit.MILLISECONDS, LocalDate.of(2025, 1, 1), 41, 10, 2);
		ManualClock clock = ManualClock.atSystemTime();
		try (DefaultUidGenerator generator = DefaultUidGenerator.builder().layout(tiny).clock(clock)
			.clockBackwardsTolerance(Duration.ofSeconds(1))
			.workerIdAssigner(new FixedWorkerIdAssigner(1))
			.build()) {
			long first = generator.getUID();
			clock.advance(-100);
			for (int i = 0; i < 3; i++) {
				generator.getUID();
			}
			Thread advancer = new Thread(() -> {
				sleep(50);
				clock.advance(101);
			});
			advancer.start();
			long afterWait = generator.getUID();
			advancer.join();
			assertThat(generator.decode(afterWait).timestamp()).isAfter(generator.decode(first).timestamp());
		}
	}

	@Test
	void refusesToIssueOnceTheTimeBitsRunOutAndNeverGoesNegative() {
		// The test clock stands one second before the last unit of the range.
		UidLayout shortLived = shortLivedLayout(UidTimeUnit.SECONDS, 20);
		long lastUnitStart = shortLived.startMillis(shortLived.getMaxTime());
		ManualClock clock = new ManualClock(lastUnitStart - 1000);
		UidLayout layout = new UidLayout(UidTimeUnit.SECONDS, shortLived.getEpoch(), 20, 10, 4, clock.get());
		try (DefaultUidGenerator generator = DefaultUidGenerator.builder().layout(layout).clock(clock)
			.workerIdAssigner(new FixedWorkerIdAssigner(3))
			.build()) {
			List<Long> ids = new ArrayList<>();
			for (int i = 0; i < 16; i++) {
				ids.add(generator.getUID());
			}
			clock.advance(1000);
			for (int i = 0; i < 16; i++) {
				ids.add(generator.getUID());
			}
			assertThatExceptionOfType(LayoutExhaustedException.class).isThrownBy(generator::getUID)
				.withMessageContaining("ran out at " + layout.getExpiry());
			clock.advance(1000);
			assertThatExceptionOfType(LayoutExhaustedException.class).isThrownBy(generator::getUID);
			assertThat(ids).hasSize(32).allSatisfy((uid) -> assertThat(uid).isNotNegative()).doesNotHaveDuplicates();
			assertThat(generator.decode(ids.get(31)).timestamp().toEpochMilli()).isEqualTo(lastUnitStart);
			assertThat(generator.status().failure()).isInstanceOf(LayoutExhaustedException.class);
		}
	}

	@Test
	void refusesAWorkerIdBeyondTheLayout() {
		assertThatExceptionOfType(WorkerIdOutOfRangeException.class)
			.isThrownBy(() -> DefaultUidGenerator.builder().workerIdAssigner(new FixedWorkerIdAssigner(1024)).build())
			.withMessageContaining("Worker ID 1024 does not fit the layout, which holds worker IDs 0 to 1023 (1024 workers)")
			.withMessageContaining("more worker bits");
	}

	@Test
	void startsStrictlyAfterTheMarkOfAPreviousRun() {
		FixedWorkerIdAssigner assigner = new FixedWorkerIdAssigner(9);
		long firstRunLast;
		try (DefaultUidGenerator first = DefaultUidGenerator.builder().layout(ROOMY).workerIdAssigner(assigner)
			.build()) {
			firstRunLast = first.getUID();
		}
		assertThat(assigner.highWaterMarkMillis())
			.isEqualTo(ROOMY.decode(firstRunLast).timestamp().toEpochMilli());
		try (DefaultUidGenerator second = DefaultUidGenerator.builder().layout(ROOMY).workerIdAssigner(assigner)
			.build()) {
			long next = second.getUID();
			assertThat(ROOMY.decode(next).timestamp()).isAfter(ROOMY.decode(firstRunLast).timestamp());
		}
	}

	@Test
	void stopsIssuingOnceClosed() {
		DefaultUidGenerator generator = DefaultUidGenerator.builder().workerIdAssigner(new FixedWorkerIdAssigner(1))
			.build();
		generator.getUID();
		generator.close();
		assertThatExceptionOfType(UidUnavailableException.class).isThrownBy(generator::getUID)
			.withMessageContaining("closed");
	}

	/** A layout with {@code timeBits} of seconds (about twelve days for 20 bits) that began ten days ago. */
	static UidLayout shortLivedLayout(UidTimeUnit unit, int timeBits) {
		return new UidLayout(unit, LocalDate.now(ZoneOffset.UTC).minusDays(10), timeBits, 10, 4);
	}

	static void sleep(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
