package io.github.uidgen.migration;

import java.time.Instant;
import java.time.LocalDate;

import io.github.uidgen.DecodedUid;
import io.github.uidgen.UidLayout;
import io.github.uidgen.UidTimeUnit;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Leaf's layout against Leaf's own arithmetic ({@code SnowflakeIDGenImpl.get} and {@code decodeSnowflakeId}): an epoch
 * that is an instant, not a date, and the same bits.
 */
class LeafLayoutTests {

	private static final long TWEPOCH = 1288834974657L;

	@Test
	void composesAndDecodesAsLeafDoes() {
		UidLayout layout = LeafLayout.layout();
		long timestamp = 1_767_225_600_123L;
		long leafId = ((timestamp - TWEPOCH) << 22) | (517L << 12) | 3071;
		assertThat(layout.compose(layout.toUnit(timestamp), 517, 3071)).isEqualTo(leafId);
		DecodedUid decoded = layout.decode(leafId);
		assertThat(decoded.timestamp()).isEqualTo(Instant.ofEpochMilli((leafId >> 22) + TWEPOCH));
		assertThat(decoded.workerId()).isEqualTo((leafId >> 12) ^ (leafId >> 22 << 10));
		assertThat(decoded.sequence()).isEqualTo(leafId ^ (leafId >> 12 << 12));
	}

	@Test
	void theEpochIsLeafsInstantAndTheLayoutRunsOutIn2080() {
		UidLayout layout = LeafLayout.layout();
		assertThat(layout.getEpochInstant()).isEqualTo(Instant.parse("2010-11-04T01:42:54.657Z"));
		assertThat(layout.getEpoch()).isEqualTo(LocalDate.of(2010, 11, 4));
		assertThat(layout.getExpiry()).isEqualTo(Instant.parse("2080-07-10T17:30:30.209Z"));
		assertThat(layout.getMaxWorkerId()).isEqualTo(1023);
		assertThat(layout.getMaxSequence()).isEqualTo(4095);
		assertThat(layout).hasToString("UidLayout[milliseconds since 2010-11-04T01:42:54.657Z, time 41 bits, worker "
				+ "10 bits, sequence 12 bits, expires 2080-07-10T17:30:30.209Z]");
		assertThat(layout).as("not the layout of midnight that day")
			.isNotEqualTo(new UidLayout(UidTimeUnit.MILLISECONDS, LocalDate.of(2010, 11, 4), 41, 10, 12));
		assertThat(UidLayout.since(Instant.parse("2010-11-04T00:00:00Z"), UidTimeUnit.MILLISECONDS, 41, 10, 12,
				System.currentTimeMillis()))
			.as("an instant at midnight is the date's layout")
			.isEqualTo(new UidLayout(UidTimeUnit.MILLISECONDS, LocalDate.of(2010, 11, 4), 41, 10, 12));
	}

}
