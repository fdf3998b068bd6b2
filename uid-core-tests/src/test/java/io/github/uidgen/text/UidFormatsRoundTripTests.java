package io.github.uidgen.text;

import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;

import io.github.uidgen.UidLayout;
import io.github.uidgen.UidTimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every text form reads back exactly the ID it wrote, on the layout's smallest and largest IDs, random IDs and a
 * million consecutive IDs, for the default layout, a layout of seconds and a layout with data-center bits; consecutive
 * IDs give distinct texts, and fixed-width radix texts sort as their IDs.
 */
class UidFormatsRoundTripTests {

	private static final byte[] KEY = OpaqueUidFormat.decodeKey("q83vEjRWeJCrze8SNFZ4kKvN7xI0VniQq83vEjRWeJA=");

	static Stream<Arguments> forms() {
		return forms(List.of(UidLayout.defaults(),
				new UidLayout(UidTimeUnit.SECONDS, LocalDate.of(2025, 1, 1), 31, 8, 14),
				UidLayout.defaults().withDatacenterBits(3)));
	}

	static Stream<Arguments> formsOfTheDefaultLayout() {
		return forms(List.of(UidLayout.defaults()));
	}

	private static Stream<Arguments> forms(List<UidLayout> layouts) {
		List<Arguments> arguments = new ArrayList<>();
		for (UidLayout layout : layouts) {
			long max = layout.maxUid();
			for (UidFormat form : List.of(RadixUidFormat.decimal(max), RadixUidFormat.radix62(max, false),
					RadixUidFormat.radix62(max, true), RadixUidFormat.radix36(max, false),
					RadixUidFormat.radix36(max, true), new ReadableUidFormat(layout, ZoneOffset.UTC),
					new ReadableUidFormat(layout, ZoneId.of("America/New_York")),
					new AffixedUidFormat("ORD_", RadixUidFormat.radix62(max, true), "-x"),
					OpaqueUidFormat.builder(layout.totalBits()).key("", KEY).build())) {
				arguments.add(Arguments.of(layout, form));
			}
		}
		return arguments.stream();
	}

	@ParameterizedTest(name = "{1} on {0}")
	@MethodSource("forms")
	void smallestLargestAndRandomIdsReadBack(UidLayout layout, UidFormat form) {
		assertRoundTrip(form, 0);
		assertRoundTrip(form, 1);
		assertRoundTrip(form, layout.maxUid());
		assertRoundTrip(form, layout.maxUid() - 1);
		SplittableRandom random = new SplittableRandom(24);
		for (int i = 0; i < 10_000; i++) {
			assertRoundTrip(form, random.nextLong() & layout.maxUid());
		}
		assertConsecutive(layout, form, 10_000);
	}

	@ParameterizedTest(name = "{1} on {0}")
	@MethodSource("formsOfTheDefaultLayout")
	void aMillionConsecutiveIdsReadBackAsDistinctTexts(UidLayout layout, UidFormat form) {
		assertConsecutive(layout, form, 1_000_000);
	}

	private static void assertConsecutive(UidLayout layout, UidFormat form, int count) {
		long first = layout.compose(layout.toUnit(System.currentTimeMillis()), 5, 0);
		boolean sorted = form.name().contains("fixed");
		String previous = null;
		for (long uid = first; uid < first + count; uid++) {
			String text = form.format(uid);
			long back = form.parse(text);
			if (back != uid) {
				assertThat(back).as("%s read back from '%s'", uid, text).isEqualTo(uid);
			}
			if (previous != null) {
				if (text.equals(previous)) {
					assertThat(text).as("text of %s and of the ID before it", uid).isNotEqualTo(previous);
				}
				if (sorted && text.compareTo(previous) <= 0) {
					assertThat(text).as("fixed-width text of %s sorts after the one before", uid)
						.isGreaterThan(previous);
				}
			}
			previous = text;
		}
	}

	private static void assertRoundTrip(UidFormat form, long uid) {
		String text = form.format(uid);
		assertThat(form.parse(text)).as("%s read back from '%s'", uid, text).isEqualTo(uid);
	}

}
