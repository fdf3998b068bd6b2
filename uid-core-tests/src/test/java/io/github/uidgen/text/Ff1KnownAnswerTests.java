package io.github.uidgen.text;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.SplittableRandom;

import org.bouncycastle.crypto.engines.AESEngine;
import org.bouncycastle.crypto.fpe.FPEFF1Engine;
import org.bouncycastle.crypto.params.FPEParameters;
import org.bouncycastle.crypto.params.KeyParameter;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * uid's FF1 against the standard: Bouncy Castle's FF1 reproduces the samples of NIST SP 800-38G (so it is a sound
 * reference), and uid's radix-2 FF1 gives Bouncy Castle's answers for random keys, tweaks, lengths and inputs. A few of
 * those answers are kept as constants, so a change to uid's FF1 shows up without the reference too.
 */
class Ff1KnownAnswerTests {

	private static final HexFormat HEX = HexFormat.of();

	/** The key of NIST's FF1-AES128 samples. */
	private static final byte[] NIST_KEY = HEX.parseHex("2b7e151628aed2a6abf7158809cf4f3c");

	@Test
	void theReferenceReproducesTheNistSamples() {
		assertThat(reference(NIST_KEY, 10, new byte[0], "0123456789")).isEqualTo("2433477484");
		assertThat(reference(NIST_KEY, 10, HEX.parseHex("39383736353433323130"), "0123456789"))
			.isEqualTo("6124200773");
		assertThat(reference(NIST_KEY, 36, HEX.parseHex("3737373770717273373737"), "0123456789abcdefghi"))
			.isEqualTo("a9tv40mll9kdu509eum");
	}

	@Test
	void radix2AnswersAreTheReferencesForRandomKeysTweaksLengthsAndInputs() {
		SplittableRandom random = new SplittableRandom(38);
		for (int trial = 0; trial < 300; trial++) {
			byte[] key = new byte[new int[] { 16, 24, 32 }[trial % 3]];
			random.nextBytes(key);
			byte[] tweak = new byte[(trial % 4 == 0) ? 0 : random.nextInt(40)];
			random.nextBytes(tweak);
			int bits = Ff1.MIN_BITS + random.nextInt(64 - Ff1.MIN_BITS + 1);
			long x = random.nextLong() & ((bits == 64) ? -1L : (1L << bits) - 1);
			Ff1 ff1 = new Ff1(key, bits, tweak);
			long encrypted = ff1.encrypt(x);
			assertThat(bitString(encrypted, bits))
				.as("%d bits, key %s, tweak %s", bits, HEX.formatHex(key), HEX.formatHex(tweak))
				.isEqualTo(referenceBits(key, tweak, bitString(x, bits)));
			assertThat(ff1.decrypt(encrypted)).isEqualTo(x);
		}
	}

	@Test
	void knownRadix2Answers() {
		// Computed by Bouncy Castle 1.83's FF1 (radix 2, empty tweak) and checked by the test above.
		byte[] key = HEX.parseHex("2b7e151628aed2a6abf7158809cf4f3c");
		Ff1 ff1 = new Ff1(key, 63, new byte[0]);
		for (long[] answer : new long[][] { { 0L, KNOWN_0 }, { 250085535756849152L, KNOWN_ID },
				{ Long.MAX_VALUE, KNOWN_MAX } }) {
			assertThat(ff1.encrypt(answer[0])).as("FF1 of %d", answer[0]).isEqualTo(answer[1]);
			assertThat(referenceBits(key, new byte[0], bitString(answer[0], 63))).isEqualTo(bitString(answer[1], 63));
		}
	}

	private static final long KNOWN_0 = 7407393923982924685L;

	private static final long KNOWN_ID = 362857142825516887L;

	private static final long KNOWN_MAX = 3989821467963092630L;

	private static String reference(byte[] key, int radix, byte[] tweak, String plain) {
		String alphabet = "0123456789abcdefghijklmnopqrstuvwxyz";
		byte[] digits = new byte[plain.length()];
		for (int i = 0; i < digits.length; i++) {
			digits[i] = (byte) alphabet.indexOf(plain.charAt(i));
		}
		byte[] out = encrypt(key, radix, tweak, digits);
		StringBuilder text = new StringBuilder();
		for (byte digit : out) {
			text.append(alphabet.charAt(digit));
		}
		return text.toString();
	}

	static String referenceBits(byte[] key, byte[] tweak, String bits) {
		byte[] digits = bits.getBytes(StandardCharsets.US_ASCII);
		for (int i = 0; i < digits.length; i++) {
			digits[i] -= '0';
		}
		byte[] out = encrypt(key, 2, tweak, digits);
		for (int i = 0; i < out.length; i++) {
			out[i] += '0';
		}
		return new String(out, StandardCharsets.US_ASCII);
	}

	private static byte[] encrypt(byte[] key, int radix, byte[] tweak, byte[] digits) {
		FPEFF1Engine engine = new FPEFF1Engine(AESEngine.newInstance());
		engine.init(true, new FPEParameters(new KeyParameter(key), radix, tweak));
		byte[] out = new byte[digits.length];
		engine.processBlock(digits, 0, digits.length, out, 0);
		return out;
	}

	static String bitString(long value, int bits) {
		StringBuilder text = new StringBuilder(bits);
		for (int i = bits - 1; i >= 0; i--) {
			text.append((value >>> i) & 1);
		}
		return text.toString();
	}

}
