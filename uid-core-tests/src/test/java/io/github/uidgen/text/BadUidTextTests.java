package io.github.uidgen.text;

import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZoneOffset;

import io.github.uidgen.UidLayout;
import io.github.uidgen.UidTimeUnit;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Text that is not of a form is refused with the form's name and what is wrong: empty, too long, a character outside
 * the alphabet, a wrong prefix or suffix, a value outside the layout. Never a different number.
 */
class BadUidTextTests {

	/** 53 bits: some longs lie beyond its largest ID. */
	private final UidLayout small = new UidLayout(UidTimeUnit.SECONDS, LocalDate.of(2025, 1, 1), 31, 8, 14);

	private final long max = this.small.maxUid();

	@Test
	void decimal() {
		RadixUidFormat decimal = RadixUidFormat.decimal(this.max);
		assertRefused(decimal, "", "decimal", "empty");
		assertRefused(decimal, "12345678901234567", "decimal", "17 characters long; IDs of this layout have at most 16");
		assertRefused(decimal, "12a4", "decimal", "'a' at position 3 is not one of its digits (0-9)");
		assertRefused(decimal, "-5", "decimal", "'-' at position 1");
		assertRefused(decimal, " 5", "decimal", "' ' at position 1");
		assertRefused(decimal, Long.toString(this.max + 1), "decimal", "beyond the largest ID of this layout, "
				+ this.max);
		assertThat(decimal.parse(Long.toString(this.max))).isEqualTo(this.max);
	}

	@Test
	void radix62() {
		RadixUidFormat radix62 = RadixUidFormat.radix62(this.max, false);
		assertRefused(radix62, "", "radix62", "empty");
		assertRefused(radix62, "1234567890", "radix62", "10 characters long; IDs of this layout have at most 9");
		assertRefused(radix62, "ab_c", "radix62", "'_' at position 3 is not one of its digits (0-9, A-Z, a-z)");
		assertRefused(radix62, "abé", "radix62", "'é' at position 3");
		assertRefused(radix62, "zzzzzzzzz", "radix62", "beyond the largest ID of this layout");
		assertThatIllegalArgumentException().isThrownBy(() -> radix62.format(this.max + 1))
			.withMessageContaining("outside 0 to " + this.max);
		assertThatIllegalArgumentException().isThrownBy(() -> radix62.format(-1));
	}

	@Test
	void fixedWidthRadixRefusesShortTexts() {
		RadixUidFormat fixed = RadixUidFormat.radix62(this.max, true);
		assertThat(fixed.format(61)).isEqualTo("00000000z");
		assertRefused(fixed, "z", "radix62-fixed", "it is 1 character long; every ID of this form has 9");
		assertRefused(fixed, "0000000000z", "radix62-fixed", "it is 11 characters long; every ID of this form has 9");
		assertThat(fixed.parse("00000000z")).isEqualTo(61);
	}

	@Test
	void radix36ReadsEitherCaseAndRefusesOtherCharacters() {
		RadixUidFormat radix36 = RadixUidFormat.radix36(this.max, false);
		assertThat(radix36.format(35)).isEqualTo("z");
		assertThat(radix36.parse("Z")).isEqualTo(35).isEqualTo(radix36.parse("z"));
		assertRefused(radix36, "", "radix36", "empty");
		assertRefused(radix36, "y!", "radix36", "'!' at position 2 is not one of its digits (0-9, a-z in either case)");
		assertRefused(radix36, "zzzzzzzzzzzz", "radix36", "at most 11");
	}

	@Test
	void readable() {
		ReadableUidFormat readable = new ReadableUidFormat(UidLayout.defaults(), ZoneOffset.UTC);
		long uid = readable.parse("20261125T194156.123-7-42");
		assertThat(readable.format(uid)).isEqualTo("20261125T194156.123-7-42");
		assertRefused(readable, "", "readable", "empty");
		assertRefused(readable, "20261125T194156.123-7-42".repeat(3), "readable", "at most 64");
		assertRefused(readable, "20261125X194156.123-7-42", "readable", "expected 'T' between the date and the time");
		assertRefused(readable, "20261125T194156.123-7", "readable", "ends before '-' before the sequence");
		assertRefused(readable, "20261125T194156.123-7-42-1", "readable", "unexpected '-' at position 25");
		assertRefused(readable, "20261131T194156.123-7-42", "readable", "not a valid date and time");
		assertRefused(readable, "20261125T194156.123-1024-42", "readable", "the worker ID is larger than this "
				+ "layout's largest, 1023");
		assertRefused(readable, "20261125T194156.123-7-4096", "readable", "the sequence is larger");
		assertRefused(readable, "20241125T194156.123-7-42", "readable", "outside the layout, which runs from 2025-01-01");
		assertRefused(readable, "20261125T194156.123-x-42", "readable", "expected the worker ID (digits)");
	}

	@Test
	void readableInAZoneNeedsTheZonesOffset() {
		ReadableUidFormat berlin = new ReadableUidFormat(UidLayout.defaults(), ZoneId.of("Europe/Berlin"));
		long uid = berlin.parse("20261025T023000.000+0200-1-0");
		long later = berlin.parse("20261025T023000.000+0100-1-0");
		// The hour the clock is set back happens twice; the offset tells which.
		assertThat(later - uid).isEqualTo(3_600_000L << 22);
		assertThat(berlin.format(uid)).isEqualTo("20261025T023000.000+0200-1-0");
		assertRefused(berlin, "20261025T023000.000-1-0", "readable (Europe/Berlin)", "followed by its offset from UTC");
		assertRefused(berlin, "20260725T023000.000+0100-1-0", "readable (Europe/Berlin)",
				"the offset +01:00 is not the offset of Europe/Berlin at that time (+02:00)");
	}

	@Test
	void prefixAndSuffix() {
		AffixedUidFormat orders = new AffixedUidFormat("ORD_", RadixUidFormat.radix62(this.max, false), "");
		assertThat(orders.format(61)).isEqualTo("ORD_z");
		assertThat(orders.parse("ORD_z")).isEqualTo(61);
		assertRefused(orders, "", "'ORD_' + radix62", "empty");
		assertRefused(orders, "INV_z", "'ORD_' + radix62", "does not start with 'ORD_'");
		assertRefused(orders, "ORD_", "'ORD_' + radix62", "between 'ORD_' and '': the text is empty");
		assertRefused(orders, "ORD_z!", "'ORD_' + radix62", "'!' at position 2");
		AffixedUidFormat suffixed = new AffixedUidFormat("", RadixUidFormat.decimal(this.max), ".o");
		assertRefused(suffixed, "12.x", "decimal + '.o'", "does not end with '.o'");
	}

	@Test
	void opaque() {
		OpaqueUidFormat opaque = OpaqueUidFormat.builder(this.small.totalBits())
			.key("", OpaqueUidFormat.decodeKey("AAECAwQFBgcICQoLDA0ODw=="))
			.build();
		assertThat(opaque.width()).isEqualTo(9);
		// Whatever is wrong, the same words: they tell neither the width nor the key versions nor the largest ID
		// (OpaqueTextRefusalTests tries every kind).
		assertRefused(opaque, "", "opaque", "it is not a valid ID of this service");
		assertRefused(opaque, "0123456789ab", "opaque", "it is not a valid ID of this service");
		assertRefused(opaque, "01234567_", "opaque", "it is not a valid ID of this service");
		assertRefused(opaque, "a012345678", "opaque", "it is not a valid ID of this service");
		assertRefused(opaque, "zzzzzzzzz", "opaque", "it is not a valid ID of this service");
		assertThatExceptionOfType(UidTextException.class).isThrownBy(() -> opaque.parse("é"))
			.withMessage("'é' is not an opaque ID: it is not a valid ID of this service");
	}

	@Test
	void anOpaqueTextOfAnUnknownKeyVersionDoesNotListTheVersionsOfTheService() {
		byte[] key = OpaqueUidFormat.decodeKey("AAECAwQFBgcICQoLDA0ODw==");
		OpaqueUidFormat rotated = OpaqueUidFormat.builder(this.small.totalBits())
			.key("c", key)
			.key("b", key)
			.key("", key)
			.build();
		assertThatExceptionOfType(UidTextException.class).isThrownBy(() -> rotated.parse("x012345678"))
			.withMessage("'x012345678' is not an opaque ID: it is not a valid ID of this service");
	}

	private static void assertRefused(UidFormat form, String text, String name, String reason) {
		assertThatExceptionOfType(UidTextException.class).as("'%s' as %s", text, name)
			.isThrownBy(() -> form.parse(text))
			.satisfies((ex) -> assertThat(ex.getForm()).isEqualTo(name))
			.withMessageStartingWith("'" + UidTextException.echo(text) + "' is not " + (name.equals("opaque") ? "an " : "a ")
					+ name + " ID: ")
			.withMessageContaining(reason);
	}

}
