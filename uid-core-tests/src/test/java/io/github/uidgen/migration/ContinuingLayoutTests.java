package io.github.uidgen.migration;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;

import io.github.uidgen.InvalidLayoutException;
import io.github.uidgen.ManualClock;
import io.github.uidgen.UidLayout;
import io.github.uidgen.UidTimeUnit;
import io.github.uidgen.snowflake.DefaultUidGenerator;
import io.github.uidgen.worker.FixedWorkerIdAssigner;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A team's largest stored ID was issued by Baidu's default layout on 2024-06-30 by one of its highest workers; the
 * team switches on 2026-11-22. The layout {@link ContinuingLayout} chooses issues only larger IDs, the day after its
 * epoch would not, and layouts with no room are refused.
 */
class ContinuingLayoutTests {

	private static final BaiduLayout BAIDU = BaiduLayout.defaults();

	private static final Instant STORED_AT = Instant.parse("2024-06-30T12:00:00Z");

	/** Baidu's default layout: 2024-06-30T12:00:00Z, worker 4,000,000, sequence 8,191; 95.4% of the way to 2^63. */
	private static final long LARGEST_STORED = BAIDU.compose(
			STORED_AT.getEpochSecond() - BaiduLayout.DEFAULT_EPOCH.getEpochSecond(), 4_000_000, 8_191);

	private static final Instant SWITCH = Instant.parse("2026-11-22T00:00:00Z");

	@Test
	void theStoredIdIsReadAsBaiduWroteIt() {
		assertThat(LARGEST_STORED).isEqualTo(8_798_676_907_301_281_791L);
		assertThat(BAIDU.timestamp(LARGEST_STORED)).isEqualTo(STORED_AT);
		assertThat(BAIDU.workerId(LARGEST_STORED)).isEqualTo(4_000_000);
		assertThat(BAIDU.expiry()).isEqualTo(Instant.parse("2024-11-20T13:24:16Z"));
		assertThat(BaiduLayout.of(28, 22, 13, "2016-05-20", ZoneId.of("Asia/Shanghai"))).isEqualTo(BAIDU);
	}

	@Test
	void theChosenLayoutIssuesOnlyLargerIdsFromTheSwitchOn() {
		UidLayout layout = ContinuingLayout.after(LARGEST_STORED, UidTimeUnit.SECONDS, 35, 16, 12, SWITCH);

		assertThat(layout.getEpoch()).isEqualTo(LocalDate.of(988, 3, 17));
		assertThat(ContinuingLayout.smallestIdAt(layout, SWITCH)).isGreaterThan(LARGEST_STORED)
			.isEqualTo(8_798_684_605_474_406_400L);
		assertThat(layout.getExpiry()).isEqualTo(Instant.parse("2077-01-09T03:46:08Z"));
		ContinuingLayout.check(layout, LARGEST_STORED, SWITCH);

		ManualClock clock = new ManualClock(SWITCH.toEpochMilli());
		try (DefaultUidGenerator generator = DefaultUidGenerator.builder()
			.layout(layout)
			.workerIdAssigner(new FixedWorkerIdAssigner(0))
			.clock(clock)
			.build()) {
			long first = generator.getUID();
			assertThat(first).isGreaterThan(LARGEST_STORED);
			long last = first;
			for (int i = 0; i < 100_000; i++) {
				long id = generator.getUID();
				assertThat(id).isGreaterThan(last);
				last = id;
				if ((i & 1023) == 0) {
					clock.advance(1_000);
				}
			}
		}
	}

	@Test
	void aDayLaterEpochWouldIssueSmallerIds() {
		UidLayout chosen = ContinuingLayout.after(LARGEST_STORED, UidTimeUnit.SECONDS, 35, 16, 12, SWITCH);
		UidLayout dayLater = new UidLayout(UidTimeUnit.SECONDS, chosen.getEpoch().plusDays(1), 35, 16, 12,
				SWITCH.toEpochMilli());
		assertThat(ContinuingLayout.smallestIdAt(dayLater, SWITCH)).isLessThanOrEqualTo(LARGEST_STORED);
		assertThatExceptionOfType(InvalidLayoutException.class)
			.isThrownBy(() -> ContinuingLayout.check(dayLater, LARGEST_STORED, SWITCH))
			.withMessageContaining("not above the largest stored ID " + LARGEST_STORED)
			.withMessageContaining("set the epoch to 0988-03-17 or earlier");
	}

	@Test
	void uidsDefaultLayoutWouldRunOutWithinFourYears() {
		UidLayout defaults = ContinuingLayout.after(LARGEST_STORED, UidTimeUnit.MILLISECONDS, 41, 10, 12, SWITCH);
		assertThat(ContinuingLayout.smallestIdAt(defaults, SWITCH)).isGreaterThan(LARGEST_STORED);
		assertThat(defaults.getExpiry()).isEqualTo(Instant.parse("2030-02-05T15:47:35.552Z"));
	}

	@Test
	void aLayoutWithNoRoomAboveTheStoredIdsIsRefused() {
		assertThatExceptionOfType(InvalidLayoutException.class)
			.isThrownBy(() -> ContinuingLayout.after(Long.MAX_VALUE - 5, UidTimeUnit.SECONDS, 31, 19, 13, SWITCH))
			.withMessageContaining("No epoch lets this layout issue IDs above " + (Long.MAX_VALUE - 5))
			.withMessageContaining("give the time more bits");
	}

	@Test
	void baidusOwnWidthsWouldLastOnlyTillTheTopOfTheRange() {
		UidLayout sameWidths = ContinuingLayout.after(LARGEST_STORED, UidTimeUnit.SECONDS, 28, 22, 13, SWITCH);
		assertThat(ContinuingLayout.smallestIdAt(sameWidths, SWITCH)).isGreaterThan(LARGEST_STORED);
		assertThat(sameWidths.getExpiry()).isBefore(SWITCH.plusSeconds(5L * 365 * 86_400));
	}

	@Test
	void aFreshTableNeedsNoPastEpoch() {
		UidLayout layout = ContinuingLayout.after(0, UidTimeUnit.MILLISECONDS, 41, 10, 12, SWITCH);
		assertThat(layout.getEpoch()).isEqualTo(LocalDate.of(2026, 11, 21));
		assertThat(ContinuingLayout.smallestIdAt(layout, SWITCH)).isPositive();
	}

}
