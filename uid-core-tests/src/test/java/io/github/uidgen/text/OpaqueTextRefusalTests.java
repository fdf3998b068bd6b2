package io.github.uidgen.text;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import io.github.uidgen.CapturedLog;
import io.github.uidgen.UidLayout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * Every text the opaque form does not decode is refused with the same words, {@code it is not a valid ID of this
 * service}, whatever is wrong with it: a key version the service does not have (every character that can stand
 * first), a length (every length from 0 to past the longest), a character outside the alphabet (at every position),
 * digits beyond the layout's bits. Different words would tell a caller which key versions exist and how large the
 * layout is. The reason goes to the log at DEBUG, without the text. (That a refusal also takes a reading's time is
 * measured in uid-benchmarks, not asserted here: a unit test on a shared machine cannot time it.)
 */
class OpaqueTextRefusalTests {

	private static final byte[] KEY = OpaqueUidFormat.decodeKey("q83vEjRWeJCrze8SNFZ4kKvN7xI0VniQq83vEjRWeJA=");

	private static final byte[] OLD_KEY = OpaqueUidFormat.decodeKey("AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=");

	private static final String ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

	/** Characters a text may carry that are no digit: ASCII punctuation, space, a letter outside ASCII. */
	private static final String OTHERS = "!-_+/=. ~é\u00ff\u0100";

	@RegisterExtension
	final CapturedLog formatLog = CapturedLog.of(OpaqueUidFormat.class, Level.DEBUG);

	/** The forms tried: rotated keys over the default layout's 63 bits, one key over 40 bits, a tweak, a prefix. */
	private static Map<String, UidFormat> forms() {
		Map<String, UidFormat> forms = new LinkedHashMap<>();
		OpaqueUidFormat rotated = OpaqueUidFormat.builder(UidLayout.defaults().totalBits())
			.key("c", KEY)
			.key("b", OLD_KEY)
			.key("", OLD_KEY)
			.build();
		forms.put("versions c, b and none, 63 bits", rotated);
		forms.put("version c, tweaked", OpaqueUidFormat.builder(63).key("c", KEY).build().tweaked("orders"));
		forms.put("no version, 40 bits", OpaqueUidFormat.builder(40).key("", KEY).build());
		forms.put("version 7, 20 bits", OpaqueUidFormat.builder(20).key("7", OLD_KEY).build());
		forms.put("'ORD_' + versions c, b and none", new AffixedUidFormat("ORD_", rotated, ""));
		return forms;
	}

	@Test
	void everyTextThatDoesNotDecodeIsRefusedWithTheSameWords() {
		Set<String> reasons = new LinkedHashSet<>();
		int refused = 0;
		for (Map.Entry<String, UidFormat> named : forms().entrySet()) {
			UidFormat form = named.getValue();
			OpaqueUidFormat opaque = opaque(form);
			String prefix = (form instanceof AffixedUidFormat affixed) ? affixed.prefix() : "";
			for (String text : refusedTexts(opaque)) {
				UidTextException refusal = catchThrowableOfType(UidTextException.class, () -> form.parse(prefix + text));
				assertThat(refusal).as("%s: '%s' is refused", named.getKey(), text).isNotNull();
				String reason = (prefix.isEmpty()) ? refusal.getReason()
						: refusal.getReason().replace("between '" + prefix + "' and '': ", "");
				assertThat(reason).as("%s: the reason for '%s'", named.getKey(), text)
					.isEqualTo("it is not a valid ID of this service");
				assertThat(refusal.getMessage()).isEqualTo("'" + UidTextException.echo(prefix + text) + "' is not "
						+ ((prefix.isEmpty()) ? "an opaque" : "a '" + prefix + "' + opaque") + " ID: "
						+ refusal.getReason());
				reasons.add(reason);
				refused++;
			}
		}
		assertThat(reasons).containsExactly("it is not a valid ID of this service");
		assertThat(refused).isGreaterThan(500);
	}

	@Test
	void theTextsOfEachKeyStillDecode() {
		for (UidFormat form : forms().values()) {
			OpaqueUidFormat opaque = opaque(form);
			long largest = (1L << bits(opaque)) - 1;
			for (long id : new long[] { 0, 1, 42, largest / 3, largest - 1, largest }) {
				assertThat(form.parse(form.format(id))).isEqualTo(id);
			}
		}
	}

	@Test
	void theReasonIsLoggedAtDebugWithoutTheText() {
		OpaqueUidFormat rotated = (OpaqueUidFormat) forms().get("versions c, b and none, 63 bits");
		String body = rotated.format(123456789L).substring(1);
		Map<String, String> texts = new LinkedHashMap<>();
		texts.put("x" + body, "the key version 'x' is none of the versions [c, b, ]");
		texts.put("c" + body.substring(0, 5) + "!" + body.substring(6), "the character at position 7");
		texts.put("czzzzzzzzzzz", "beyond the largest value of 63 bits");
		texts.put("c" + body + body, "texts have 11 characters, 12 with a key version");
		for (Map.Entry<String, String> text : texts.entrySet()) {
			this.formatLog.clear();
			catchThrowableOfType(UidTextException.class, () -> rotated.parse(text.getKey()));
			assertThat(this.formatLog.events()).singleElement().satisfies((event) -> {
				assertThat(event.getLevel()).isEqualTo(Level.DEBUG);
				assertThat(event.getFormattedMessage()).contains(text.getValue());
				for (int i = 0; i + 4 <= body.length(); i++) {
					assertThat(event.getFormattedMessage()).doesNotContain(body.substring(i, i + 4));
				}
				assertThat(event.getFormattedMessage()).doesNotContain("zzzz");
			});
		}
	}

	/**
	 * Texts of every kind of wrong: every first character that is no version of the form in front of a valid body,
	 * every length but the two of the form, a character outside the alphabet at every position, digits beyond the
	 * bits, and a long text.
	 */
	private static List<String> refusedTexts(OpaqueUidFormat opaque) {
		int width = opaque.width();
		String version = opaque.format(0).length() > width ? opaque.format(0).substring(0, 1) : "";
		String valid = opaque.format(977);
		String body = valid.substring(version.length());
		List<String> texts = new ArrayList<>();
		for (char c : (ALPHABET + OTHERS).toCharArray()) {
			String text = c + body;
			if (!decodes(opaque, text)) {
				texts.add(text);
			}
		}
		for (int length = 0; length <= width + 3; length++) {
			if (length != width && length != width + 1) {
				texts.add(valid.repeat(3).substring(0, length));
				texts.add("0".repeat(length));
			}
		}
		for (int position = 0; position < valid.length(); position++) {
			for (char c : OTHERS.toCharArray()) {
				texts.add(valid.substring(0, position) + c + valid.substring(position + 1));
			}
		}
		String largest = RadixUidFormat.radix62((1L << bits(opaque)) - 1, true).format((1L << bits(opaque)) - 1);
		texts.add(version + "z".repeat(width));
		texts.add(version + beyond(largest));
		texts.add(version + "z".repeat(2000));
		return texts;
	}

	/** The smallest text of the width beyond the largest value: its last digit one more, carried. */
	private static String beyond(String largest) {
		char[] digits = largest.toCharArray();
		for (int i = digits.length - 1; i >= 0; i--) {
			int value = ALPHABET.indexOf(digits[i]);
			if (value < 61) {
				digits[i] = ALPHABET.charAt(value + 1);
				return new String(digits);
			}
			digits[i] = '0';
		}
		throw new IllegalStateException("no text of the width lies beyond " + largest);
	}

	private static boolean decodes(OpaqueUidFormat opaque, String text) {
		try {
			opaque.parse(text);
			return true;
		}
		catch (UidTextException ex) {
			return false;
		}
	}

	private static OpaqueUidFormat opaque(UidFormat form) {
		return (OpaqueUidFormat) ((form instanceof AffixedUidFormat affixed) ? affixed.form() : form);
	}

	private static int bits(OpaqueUidFormat opaque) {
		return Integer.parseInt(opaque.toString().replaceAll("^opaque form of (\\d+) bits.*$", "$1"));
	}

}
