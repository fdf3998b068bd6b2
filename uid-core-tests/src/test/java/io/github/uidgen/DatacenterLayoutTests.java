package io.github.uidgen;

import java.time.Instant;
import java.time.LocalDate;
import java.util.SplittableRandom;

import io.github.uidgen.migration.BaiduLayout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The data-center part of a layout: taken from the top of the worker bits, refused when it leaves no worker bits
 * or cannot hold the data-center ID, read back by decoding; and a layout without it reads every ID as before.
 */
class DatacenterLayoutTests {

	private static final long NOW = Instant.parse("2026-06-01T00:00:00Z").toEpochMilli();

	private static final UidLayout DEFAULTS = new UidLayout(UidTimeUnit.MILLISECONDS, LocalDate.of(2025, 1, 1), 41,
			10, 12, NOW);

	@Test
	void dataCenterBitsAreTakenFromTheWorkerBitsAndLeaveTimeAndSequenceInPlace() {
		UidLayout layout = DEFAULTS.withDatacenterBits(3);
		assertThat(layout.getWorkerBits()).isEqualTo(10);
		assertThat(layout.getDatacenterBits()).isEqualTo(3);
		assertThat(layout.getMaxDatacenterId()).isEqualTo(7);
		assertThat(layout.getMaxWorkerId()).isEqualTo(127);
		assertThat(layout.getMaxSequence()).isEqualTo(DEFAULTS.getMaxSequence());
		assertThat(layout.getMaxTime()).isEqualTo(DEFAULTS.getMaxTime());
		assertThat(layout.getExpiry()).isEqualTo(DEFAULTS.getExpiry());
		assertThat(layout.maxUid()).isEqualTo(DEFAULTS.maxUid());
		// Data center 5, worker 9: the worker field 5 << 7 | 9.
		long uid = layout.compose(1000, 5, 9, 17);
		assertThat(uid).isEqualTo(DEFAULTS.compose(1000, (5 << 7) | 9, 17));
		assertThat(layout).isNotEqualTo(DEFAULTS).isEqualTo(DEFAULTS.withDatacenterBits(3));
		assertThat(layout.hashCode()).isEqualTo(DEFAULTS.withDatacenterBits(3).hashCode());
		assertThat(layout.withDatacenterBits(0)).isEqualTo(DEFAULTS);
		assertThat(layout.toString()).contains("worker 10 bits (data center 3 of them)");
	}

	@Test
	void withoutDataCenterBitsNothingChanges() {
		assertThat(DEFAULTS.withDatacenterBits(0)).isSameAs(DEFAULTS);
		assertThat(DEFAULTS.getDatacenterBits()).isZero();
		assertThat(DEFAULTS.getMaxDatacenterId()).isZero();
		assertThat(DEFAULTS.getMaxWorkerId()).isEqualTo(1023);
		assertThat(DEFAULTS.toString()).doesNotContain("data center");
		long uid = DEFAULTS.compose(123_456, 1000, 4095);
		assertThat(DEFAULTS.compose(123_456, 0, 1000, 4095)).isEqualTo(uid);
		DecodedUid decoded = DEFAULTS.decode(uid);
		assertThat(decoded.datacenterId()).isNull();
		assertThat(decoded.workerId()).isEqualTo(1000);
		assertThat(decoded.toReferenceJson()).doesNotContain("datacenter");
		DEFAULTS.checkDatacenterId(0);
	}

	@Test
	void decodesDataCenterAndWorkerBackFromWhatItComposes() {
		SplittableRandom random = new SplittableRandom(19);
		for (int bits = 1; bits <= 9; bits++) {
			UidLayout layout = DEFAULTS.withDatacenterBits(bits);
			for (int i = 0; i < 2_000; i++) {
				long time = random.nextLong(layout.getMaxTime() + 1);
				long datacenter = random.nextLong(layout.getMaxDatacenterId() + 1);
				long worker = random.nextLong(layout.getMaxWorkerId() + 1);
				long sequence = random.nextLong(layout.getMaxSequence() + 1);
				long uid = layout.compose(time, datacenter, worker, sequence);
				DecodedUid decoded = layout.decode(uid);
				assertThat(decoded.uid()).isEqualTo(uid);
				assertThat(decoded.timestamp()).isEqualTo(Instant.ofEpochMilli(layout.startMillis(time)));
				assertThat(decoded.datacenterId()).isEqualTo(datacenter);
				assertThat(decoded.workerId()).isEqualTo(worker);
				assertThat(decoded.sequence()).isEqualTo(sequence);
				assertThat(layout.compose(time, decoded.datacenterId(), decoded.workerId(), decoded.sequence()))
					.isEqualTo(uid);
			}
		}
	}

	@Test
	void anIdIssuedBeforeDataCenterBitsDecodesAsDataCenterZeroWithTheSameWorker() {
		// A single-data-center deployment whose worker IDs stayed below 2^(10 - 2) takes 2 data-center bits.
		long before = DEFAULTS.compose(987_654_321, 200, 3000);
		DecodedUid old = DEFAULTS.decode(before);
		DecodedUid now = DEFAULTS.withDatacenterBits(2).decode(before);
		assertThat(now.datacenterId()).isZero();
		assertThat(now.workerId()).isEqualTo(old.workerId()).isEqualTo(200);
		assertThat(now.timestamp()).isEqualTo(old.timestamp());
		assertThat(now.sequence()).isEqualTo(old.sequence());
	}

	@Test
	void aBaiduIdDecodesTheSameWithDataCenterBitsCarvedFromItsWorkerBits() {
		// Baidu's sample layout (29 + 21 + 13 bits of seconds) kept as a uid layout with 3 data-center bits.
		BaiduLayout baidu = BaiduLayout.of(29, 21, 13, "2016-09-20", java.time.ZoneOffset.UTC);
		UidLayout layout = new UidLayout(UidTimeUnit.SECONDS, LocalDate.of(2016, 9, 20), 29, 21, 13, NOW)
			.withDatacenterBits(3);
		long stored = baidu.compose(300_000_000L, 3000, 8191);
		DecodedUid decoded = layout.decode(stored);
		assertThat(decoded.timestamp()).isEqualTo(baidu.timestamp(stored));
		assertThat(decoded.datacenterId()).isZero();
		assertThat(decoded.workerId()).isEqualTo(baidu.workerId(stored)).isEqualTo(3000);
		assertThat(decoded.sequence()).isEqualTo(8191);
	}

	@Test
	void parseUidNamesTheDataCenterBeforeTheWorker() {
		UidLayout layout = DEFAULTS.withDatacenterBits(2);
		long uid = layout.compose(0, 3, 255, 4095);
		assertThat(layout.decode(uid).toReferenceJson()).isEqualTo("{\"UID\":\"" + uid
				+ "\",\"timestamp\":\"2025-01-01T00:00:00Z\",\"datacenterId\":\"3\",\"workerId\":\"255\",\"sequence\":\"4095\"}");
	}

	@ParameterizedTest
	@CsvSource({ "10, 10 data-center bits of 10 worker bits", "11, 11 data-center bits of 10 worker bits" })
	void refusesDataCenterBitsThatLeaveNoWorkerBits(int bits, String value) {
		assertThatExceptionOfType(InvalidLayoutException.class).isThrownBy(() -> DEFAULTS.withDatacenterBits(bits))
			.withMessage("The data-center bits are taken from the worker bits and would leave none for worker IDs ("
					+ value + "); use fewer data-center bits than worker bits (for example 2 of 10), or give the "
					+ "layout more worker bits, taking them from the sequence or time bits")
			.satisfies((ex) -> {
				assertThat(ex.getFields()).containsExactly(LayoutField.DATACENTER_BITS, LayoutField.WORKER_BITS);
				assertThat(ex.getValue()).isEqualTo(value);
			});
	}

	@Test
	void refusesNegativeDataCenterBits() {
		assertThatExceptionOfType(InvalidLayoutException.class).isThrownBy(() -> DEFAULTS.withDatacenterBits(-1))
			.withMessage("The data-center part cannot have fewer than 0 bits (-1); set 0 for a single data center, "
					+ "or 1 to 9 to take that many of the 10 worker bits for data centers")
			.satisfies((ex) -> assertThat(ex.getFields()).containsExactly(LayoutField.DATACENTER_BITS));
	}

	@Test
	void refusesADataCenterIdThatDoesNotFitItsBits() {
		UidLayout layout = DEFAULTS.withDatacenterBits(2);
		layout.checkDatacenterId(0);
		layout.checkDatacenterId(3);
		assertThatExceptionOfType(InvalidLayoutException.class).isThrownBy(() -> layout.checkDatacenterId(4))
			.withMessage("The data-center ID does not fit the layout's data-center bits, which hold 0 to 3 "
					+ "(data-center ID 4 with 2 data-center bits); use a data-center ID from 0 to 3, or give the "
					+ "layout at least 3 data-center bits")
			.satisfies((ex) -> assertThat(ex.getFields()).containsExactly(LayoutField.DATACENTER_ID,
					LayoutField.DATACENTER_BITS));
		assertThatExceptionOfType(InvalidLayoutException.class).isThrownBy(() -> layout.checkDatacenterId(-1))
			.withMessage("A data-center ID cannot be negative (data-center ID -1 with 2 data-center bits); use a "
					+ "data-center ID from 0 to 3")
			.satisfies((ex) -> assertThat(ex.getFields()).containsExactly(LayoutField.DATACENTER_ID));
	}

	@Test
	void refusesADataCenterIdForALayoutWithoutDataCenterBits() {
		assertThatExceptionOfType(InvalidLayoutException.class).isThrownBy(() -> DEFAULTS.checkDatacenterId(2))
			.withMessage("The layout has no data-center bits to hold a data-center ID (data-center ID 2 with 0 "
					+ "data-center bits); give the layout at least 2 data-center bits, taken from its 10 worker bits, "
					+ "or use data-center ID 0")
			.satisfies((ex) -> assertThat(ex.getFields()).containsExactly(LayoutField.DATACENTER_ID,
					LayoutField.DATACENTER_BITS));
	}

	@Test
	void refusesToDecodeAnIdBeyondTheLayoutAsBefore() {
		UidLayout shortLayout = new UidLayout(UidTimeUnit.SECONDS, LocalDate.of(2025, 1, 1), 31, 10, 12, NOW)
			.withDatacenterBits(4);
		assertThatExceptionOfType(InvalidUidException.class)
			.isThrownBy(() -> shortLayout.decode(shortLayout.maxUid() + 1));
		assertThatExceptionOfType(InvalidUidException.class).isThrownBy(() -> shortLayout.decode(-1));
	}

}
