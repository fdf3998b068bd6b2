package io.github.uidgen;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class UidLayoutTests {

	private static final long NOW = Instant.parse("2026-06-01T00:00:00Z").toEpochMilli();

	@Test
	void defaultsLastPastTheYear2090() {
		UidLayout layout = UidLayout.defaults();
		assertThat(layout.getTimeUnit()).isEqualTo(UidTimeUnit.MILLISECONDS);
		assertThat(layout.totalBits()).isEqualTo(63);
		assertThat(layout.getExpiry()).isAfter(Instant.parse("2090-12-31T23:59:59Z"));
		assertThat(layout.getExpiry()).isEqualTo(Instant.ofEpochMilli(
				LocalDate.of(2025, 1, 1).atStartOfDay(ZoneOffset.UTC).toInstant().toEpochMilli() + (1L << 41)));
		assertThat(layout.getMaxWorkerId()).isEqualTo(1023);
		assertThat(layout.getMaxSequence()).isEqualTo(4095);
	}

	@ParameterizedTest
	@CsvSource({ "0, 10, 12, TIME_BITS, time", "41, 0, 12, WORKER_BITS, worker", "41, 10, -1, SEQ_BITS, sequence" })
	void refusesAFieldWithoutBits(int timeBits, int workerBits, int seqBits, LayoutField field, String name) {
		assertThatExceptionOfType(InvalidLayoutException.class)
			.isThrownBy(() -> layout(UidTimeUnit.MILLISECONDS, "2025-01-01", timeBits, workerBits, seqBits))
			.withMessageContaining("The " + name + " field needs at least one bit")
			.satisfies((ex) -> assertThat(ex.getFields()).containsExactly(field));
	}

	@Test
	void refusesBitsThatDoNotFit63() {
		assertThatExceptionOfType(InvalidLayoutException.class)
			.isThrownBy(() -> layout(UidTimeUnit.MILLISECONDS, "2025-01-01", 41, 10, 13))
			.withMessageContaining("41 + 10 + 13 = 64")
			.withMessageContaining("63 or less")
			.satisfies((ex) -> assertThat(ex.getFields()).containsExactly(LayoutField.TIME_BITS,
					LayoutField.WORKER_BITS, LayoutField.SEQ_BITS));
	}

	@Test
	void refusesAnEpochInTheFuture() {
		assertThatExceptionOfType(InvalidLayoutException.class)
			.isThrownBy(() -> layout(UidTimeUnit.MILLISECONDS, "2026-06-02", 41, 10, 12))
			.withMessageContaining("The epoch lies in the future (2026-06-02)")
			.satisfies((ex) -> assertThat(ex.getFields()).containsExactly(LayoutField.EPOCH));
	}

	@Test
	void refusesTheReferenceDefaultWhichRanOutIn2024() {
		// Baidu's default: 28 bits of seconds from 2016-05-20.
		assertThatExceptionOfType(InvalidLayoutException.class)
			.isThrownBy(() -> layout(UidTimeUnit.SECONDS, "2016-05-20", 28, 22, 13))
			.withMessageContaining("The layout ran out on 2024-11-20")
			.withMessageContaining("more time bits or a later epoch")
			.satisfies((ex) -> assertThat(ex.getFields()).containsExactly(LayoutField.TIME_BITS, LayoutField.EPOCH));
	}

	@Test
	void refusesAnEpochBefore1970WhoseRangeRanOutLongAgo() {
		// 2^40 ms is 34.8 years: from 1900 the range ended in 1934. The expiry arithmetic must not overflow into
		// "never expires".
		assertThatExceptionOfType(InvalidLayoutException.class)
			.isThrownBy(() -> layout(UidTimeUnit.MILLISECONDS, "1900-01-01", 40, 10, 12))
			.withMessageContaining("The layout ran out on 1934-11-04")
			.withMessageContaining("more time bits or a later epoch");
	}

	@Test
	void acceptsTheReferenceBitsWithAnEpochThatStillHasRoom() {
		UidLayout layout = layout(UidTimeUnit.SECONDS, "2025-01-01", 28, 22, 13);
		assertThat(layout.getExpiry()).isEqualTo(Instant.parse("2025-01-01T00:00:00Z").plusSeconds(1L << 28));
	}

	@Test
	void refusesMissingUnitAndEpoch() {
		assertThatExceptionOfType(InvalidLayoutException.class)
			.isThrownBy(() -> new UidLayout(null, LocalDate.of(2025, 1, 1), 41, 10, 12, NOW))
			.satisfies((ex) -> assertThat(ex.getFields()).containsExactly(LayoutField.TIME_UNIT));
		assertThatExceptionOfType(InvalidLayoutException.class)
			.isThrownBy(() -> new UidLayout(UidTimeUnit.SECONDS, null, 41, 10, 12, NOW))
			.satisfies((ex) -> assertThat(ex.getFields()).containsExactly(LayoutField.EPOCH));
	}

	@ParameterizedTest
	@CsvSource({ "MILLISECONDS, 2025-01-01, 41, 10, 12", "SECONDS, 2025-01-01, 31, 13, 19",
			"SECONDS, 2024-03-01, 31, 8, 14", "MILLISECONDS, 2020-01-01, 42, 5, 16", "MILLISECONDS, 2026-01-01, 41, 1, 1" })
	void decodesWhatItComposes(UidTimeUnit unit, String epoch, int timeBits, int workerBits, int seqBits) {
		UidLayout layout = layout(unit, epoch, timeBits, workerBits, seqBits);
		SplittableRandom random = new SplittableRandom(42);
		for (int i = 0; i < 100_000; i++) {
			long time = random.nextLong(layout.getMaxTime() + 1);
			long worker = random.nextLong(layout.getMaxWorkerId() + 1);
			long sequence = random.nextLong(layout.getMaxSequence() + 1);
			long uid = layout.compose(time, worker, sequence);
			assertThat(uid).isNotNegative().isLessThanOrEqualTo(layout.maxUid());
			DecodedUid decoded = layout.decode(uid);
			assertThat(decoded.uid()).isEqualTo(uid);
			assertThat(decoded.workerId()).isEqualTo(worker);
			assertThat(decoded.sequence()).isEqualTo(sequence);
			assertThat(decoded.timestamp()).isEqualTo(Instant.ofEpochMilli(layout.startMillis(time)));
			assertThat(layout.toUnit(decoded.timestamp().toEpochMilli())).isEqualTo(time);
		}
	}

	@Test
	void decodesRandomIdsBackToTheSameId() {
		UidLayout layout = layout(UidTimeUnit.SECONDS, "2025-01-01", 31, 13, 19);
		SplittableRandom random = new SplittableRandom(7);
		for (int i = 0; i < 100_000; i++) {
			long uid = random.nextLong(Long.MAX_VALUE);
			DecodedUid decoded = layout.decode(uid);
			long time = layout.toUnit(decoded.timestamp().toEpochMilli());
			assertThat(layout.compose(time, decoded.workerId(), decoded.sequence())).isEqualTo(uid);
		}
	}

	@Test
	void refusesToDecodeANegativeId() {
		assertThatExceptionOfType(InvalidUidException.class).isThrownBy(() -> UidLayout.defaults().decode(-5))
			.withMessageContaining("UID -5 is negative");
	}

	@Test
	void refusesToDecodeAnIdWhoseTimeLiesBeyondAShortLayout() {
		UidLayout js = layout(UidTimeUnit.SECONDS, "2025-01-01", 31, 8, 14);
		assertThat(js.totalBits()).isEqualTo(53);
		assertThat(js.maxUid()).isEqualTo((1L << 53) - 1);
		assertThatExceptionOfType(InvalidUidException.class).isThrownBy(() -> js.decode(1L << 53))
			.withMessageContaining("has a time beyond this layout (53 bits");
	}

	@Test
	void parseUidKeepsTheReferenceShape() {
		UidLayout layout = layout(UidTimeUnit.SECONDS, "2025-01-01", 31, 13, 19);
		long uid = layout.compose(3600, 42, 7);
		UidGenerator generator = new UidGenerator() {
			@Override
			public long getUID() {
				return uid;
			}

			@Override
			public UidLayout layout() {
				return layout;
			}
		};
		assertThat(generator.parseUID(uid)).isEqualTo("{\"UID\":\"" + uid
				+ "\",\"timestamp\":\"2025-01-01T01:00:00Z\",\"workerId\":\"42\",\"sequence\":\"7\"}");
	}

	@Test
	void convertsBetweenClockAndUnits() {
		UidLayout seconds = layout(UidTimeUnit.SECONDS, "2025-01-01", 31, 13, 19);
		long epoch = Instant.parse("2025-01-01T00:00:00Z").toEpochMilli();
		assertThat(seconds.toUnit(epoch + 1999)).isEqualTo(1);
		assertThat(seconds.toUnit(epoch - 1)).isEqualTo(-1);
		assertThat(seconds.startMillis(2)).isEqualTo(epoch + 2000);
		UidLayout millis = UidLayout.defaults();
		assertThat(millis.toUnit(epoch + 1999)).isEqualTo(1999);
	}

	private static UidLayout layout(UidTimeUnit unit, String epoch, int timeBits, int workerBits, int seqBits) {
		return new UidLayout(unit, LocalDate.parse(epoch), timeBits, workerBits, seqBits, NOW);
	}

}
