package io.github.uidgen.text;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import javax.crypto.spec.SecretKeySpec;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * IDs as texts that hide their order, time and volume: the ID's bits go through FF1 (NIST SP 800-38G, AES) under a
 * secret key, a permutation of every value the layout's bits can hold, and the result is written in radix 62 at the
 * fixed width of those bits ({@code 4fR9x2KpQ0b} for 63 bits). Consecutive IDs give unrelated texts; without the key
 * nobody can tell which of two texts came first, when one was made, or how many lie between them; with the key the
 * service reads each text back into its ID. Unique because a permutation never maps two IDs to one text.
 *
 * <p>It is not a signature: whoever holds the key decodes every text, and a text made with another key (or made up)
 * decodes to a different ID that looks as valid as any, which a lookup then does not find. A key has 16, 24 or 32
 * random bytes; there is no default. Keys rotate with a version: a key given a one-character version starts each of
 * its texts with that character, and previous keys stay readable under their versions, so texts made before a
 * rotation still read back (a key without a version makes texts without one, told apart by their length).
 */
public final class OpaqueUidFormat implements UidFormat {

	private static final Logger logger = LoggerFactory.getLogger(OpaqueUidFormat.class);

	private static final String NAME = "opaque";

	private static final SecureRandom DECOY_RANDOM = new SecureRandom();

	/**
	 * What a text that does not decode is told, whatever the reason: which key versions exist and how large the layout
	 * is are not its business.
	 */
	static final String NOT_OURS = "it is not a valid ID of this service";

	/** Digit value of each ASCII character in radix 62 ({@code 0-9A-Za-z}), -1 for any other. */
	private static final byte[] DIGITS = new byte[128];

	static {
		Arrays.fill(DIGITS, (byte) -1);
		String alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
		for (int i = 0; i < alphabet.length(); i++) {
			DIGITS[alphabet.charAt(i)] = (byte) i;
		}
	}

	private final int bits;

	/** The keys as configured, in order, the current one first. */
	private final List<KeySpec> specs;

	/** This form's tweak, as UTF-8 bytes go into FF1. */
	private final String tweak;

	private final Key current;

	/** Every key that reads texts, by version ({@code ""} for none), each with the tweak its texts were made with. */
	private final Map<String, Key> keys;

	private final RadixUidFormat body;

	/**
	 * Decrypts, and its result is thrown away, where a text's key version is none of the service's: so that the
	 * refusal takes a reading's time.
	 */
	private final Key decoy;

	private final long maxUid;

	/** The forms of every tweak asked for, shared by all of them, so each tweak's ciphers are built once. */
	private final Map<String, OpaqueUidFormat> tweaked;

	private OpaqueUidFormat(int bits, List<KeySpec> specs, String tweak, Map<String, OpaqueUidFormat> tweaked) {
		this.bits = bits;
		this.specs = specs;
		this.tweak = tweak;
		this.tweaked = tweaked;
		this.maxUid = (bits == 64) ? -1L : (1L << bits) - 1;
		this.body = RadixUidFormat.radix62(this.maxUid, true);
		this.keys = new LinkedHashMap<>();
		byte[] tweakBytes = tweak.getBytes(StandardCharsets.UTF_8);
		byte[] none = new byte[0];
		Key first = null;
		for (KeySpec spec : specs) {
			Key key = new Key(spec.version, new Ff1(spec.key, bits, spec.untweaked ? none : tweakBytes));
			this.keys.put(spec.version, key);
			if (first == null) {
				first = key;
			}
		}
		this.current = first;
		// A random key of the current key's length, for the same AES rounds; no caller ever sees what it decrypts.
		byte[] decoyKey = new byte[specs.get(0).key.getEncoded().length];
		DECOY_RANDOM.nextBytes(decoyKey);
		this.decoy = new Key("", new Ff1(new SecretKeySpec(decoyKey, "AES"), bits, tweakBytes));
	}

	/**
	 * Starts a form over IDs of a number of bits: the layout's total bits, or 63 for IDs with no layout.
	 * @param bits 20 to 63
	 * @return a builder; add the current key first
	 */
	public static Builder builder(int bits) {
		return new Builder(bits);
	}

	/**
	 * Reads a key written in base64, as properties and environment variables carry it. A refusal says what is wrong
	 * and never repeats any part of the text, which is a secret.
	 * @param base64 the key, for example the output of {@code openssl rand -base64 32}
	 * @return the key's bytes
	 * @throws IllegalArgumentException when the text is not base64 or not 16, 24 or 32 bytes long
	 */
	public static byte[] decodeKey(String base64) {
		if (base64 == null || base64.isBlank()) {
			throw new IllegalArgumentException("No key is set; the opaque form has no default key");
		}
		byte[] key;
		try {
			key = Base64.getDecoder().decode(base64.strip().getBytes(StandardCharsets.US_ASCII));
		}
		catch (IllegalArgumentException ex) {
			// The decoder's message names the offending character: a piece of the key. Neither it nor the
			// exception is passed on.
			throw new IllegalArgumentException("The key is not base64 (A-Z, a-z, 0-9, + and /, padded with =, as "
					+ "openssl rand -base64 32 writes it)");
		}
		checkKey(key);
		return key;
	}

	private static void checkKey(byte[] key) {
		if (key.length < 16) {
			throw new IllegalArgumentException("The key has " + key.length + " bytes; a key has 16, 24 or 32 random "
					+ "bytes (openssl rand -base64 32 makes one), a shorter one is refused");
		}
		if (key.length != 24 && key.length != 32 && key.length != 16) {
			throw new IllegalArgumentException("The key has " + key.length + " bytes; an AES key has 16, 24 or 32 "
					+ "(openssl rand -base64 32 makes one)");
		}
	}

	/**
	 * Returns the form of one use of IDs, whose texts are unrelated to those of other uses: the same ID gives another
	 * text under another tweak (FF1's tweak, the UTF-8 bytes of {@code tweak}), so that texts of orders cannot be
	 * matched with texts of users made with the same key. Texts of versions built as
	 * {@link Builder#writtenWithoutTweak(String) written without a tweak} are still read as they were written.
	 * @param tweak the use's tweak, for example {@code orders}; empty for the form without one
	 * @return the form of that tweak, built once
	 */
	public OpaqueUidFormat tweaked(String tweak) {
		String t = (tweak != null) ? tweak : "";
		if (t.equals(this.tweak)) {
			return this;
		}
		return this.tweaked.computeIfAbsent(t, (key) -> new OpaqueUidFormat(this.bits, this.specs, key,
				this.tweaked));
	}

	/**
	 * Returns this form's tweak.
	 * @return the tweak, empty for none
	 */
	public String tweak() {
		return this.tweak;
	}

	@Override
	public boolean isKeyed() {
		return true;
	}

	@Override
	public String toString() {
		return "opaque form of " + this.bits + " bits, key versions " + this.keys.keySet() + ", tweak '" + this.tweak
				+ "'";
	}

	@Override
	public String name() {
		return NAME;
	}

	/**
	 * Returns the length of a text without a key version.
	 * @return the width of the largest value of the bits in radix 62
	 */
	public int width() {
		return this.body.width();
	}

	@Override
	public String format(long uid) {
		if (uid < 0 || uid > this.maxUid) {
			throw new IllegalArgumentException("ID " + uid + " lies outside 0 to " + this.maxUid);
		}
		String text = this.body.format(this.current.cipher.encrypt(uid));
		return this.current.version.isEmpty() ? text : this.current.version + text;
	}

	/**
	 * Reads a text back into its ID. Every text that does not decode is refused with the same words, {@code it is not
	 * a valid ID of this service}, whatever is wrong with it (its length, its key version, a character, a value
	 * beyond the bits), and after the same work: the digits of a text of any length are read at the form's width and
	 * decrypted, under a random key whose result is thrown away when the version is none of this service's. The
	 * caller learns neither which key versions exist nor how large the layout is; the reason is logged at DEBUG,
	 * without the text.
	 */
	@Override
	public long parse(CharSequence text) {
		int length = text.length();
		int width = this.body.width();
		int start = (length == width + 1) ? 1 : 0;
		String version = (start == 1) ? String.valueOf(text.charAt(0)) : "";
		Key key = this.keys.get(version);
		// Read exactly width digits whatever the length, a character outside the alphabet as 0, so that every
		// refusal does the same work as a reading.
		long value = 0;
		int badAt = 0;
		boolean beyond = false;
		for (int i = 0; i < width; i++) {
			int at = start + i;
			char c = (at < length) ? text.charAt(at) : '0';
			int digit = (c < 128) ? DIGITS[c] : -1;
			if (digit < 0 && badAt == 0) {
				badAt = at + 1;
			}
			digit = Math.max(digit, 0);
			beyond |= value > (this.maxUid - digit) / 62;
			value = value * 62 + digit;
		}
		long uid = ((key != null) ? key : this.decoy).cipher.decrypt(value & this.maxUid);
		if (key != null && badAt == 0 && !beyond && (length == width || length == width + 1)) {
			return uid;
		}
		if (logger.isDebugEnabled()) {
			logger.debug("An opaque text of {} characters was refused: {}", length,
					refusal(length, width, key == null, version, badAt, beyond));
		}
		throw new UidTextException(NAME, text, NOT_OURS);
	}

	/** Why a text was refused, for the log: no character of the text but a key version that is not the service's. */
	private String refusal(int length, int width, boolean unknownVersion, String version, int badAt,
			boolean beyond) {
		if (length != width && length != width + 1) {
			return "texts have " + width + " characters, " + (width + 1) + " with a key version";
		}
		if (unknownVersion) {
			return "the key version '" + version + "' is none of the versions " + this.keys.keySet();
		}
		if (badAt > 0) {
			return "the character at position " + badAt + " is not one of 0-9, A-Z, a-z";
		}
		return "its digits are beyond the largest value of " + this.bits + " bits";
	}

	private record Key(String version, Ff1 cipher) {
	}

	/** A key as configured; its bytes stay inside the JDK's key object and are never printed. */
	private record KeySpec(String version, SecretKeySpec key, boolean untweaked) {

		@Override
		public String toString() {
			return "key version '" + this.version + "'";
		}

	}

	/**
	 * Builds an opaque form: the current key, then any previous keys that texts may still carry.
	 */
	public static final class Builder {

		private final int bits;

		private final Map<String, byte[]> keys = new LinkedHashMap<>();

		private final Set<String> untweaked = new LinkedHashSet<>();

		private Builder(int bits) {
			if (bits < Ff1.MIN_BITS || bits > 63) {
				throw new IllegalArgumentException("The opaque form works on IDs of 20 to 63 bits, not " + bits
						+ ": fewer bits leave too few IDs to hide among");
			}
			this.bits = bits;
		}

		/**
		 * Sets the key that makes texts; the first key given is the current one.
		 * @param version one letter or digit that starts its texts, or {@code ""} for texts without a version
		 * @param key 16, 24 or 32 random bytes
		 * @return this builder
		 */
		public Builder key(String version, byte[] key) {
			String v = (version != null) ? version : "";
			if (v.length() > 1 || (v.length() == 1 && !isVersionCharacter(v.charAt(0)))) {
				throw new IllegalArgumentException("A key version is one letter or digit (or nothing), not '" + v + "'");
			}
			if (this.keys.containsKey(v)) {
				throw new IllegalArgumentException("Two keys have the version '" + v + "'; give each its own");
			}
			checkKey(key);
			this.keys.put(v, key.clone());
			return this;
		}

		/**
		 * Says that every text of a previous key's version was written without a tweak, before the uses took
		 * tweaks: such texts are read without one in every use, so they stay readable after a use takes a tweak
		 * (together with a new version for the current key).
		 * @param version the version of a previous key, {@code ""} for texts without a version
		 * @return this builder
		 */
		public Builder writtenWithoutTweak(String version) {
			this.untweaked.add((version != null) ? version : "");
			return this;
		}

		/**
		 * Builds the form, without a tweak; {@link OpaqueUidFormat#tweaked(String)} gives the form of a use.
		 * @return the form
		 * @throws IllegalArgumentException when no key is set, or versions written without a tweak are not those of
		 * previous keys
		 */
		public OpaqueUidFormat build() {
			if (this.keys.isEmpty()) {
				throw new IllegalArgumentException("No key is set; the opaque form has no default key");
			}
			List<KeySpec> specs = new ArrayList<>();
			boolean first = true;
			for (Map.Entry<String, byte[]> entry : this.keys.entrySet()) {
				String version = entry.getKey();
				if (first && this.untweaked.contains(version)) {
					throw new IllegalArgumentException("The current key's version '" + version + "' is among the "
							+ "versions written without a tweak; those are previous keys' versions, and the current "
							+ "key makes new texts, with the tweak of their use");
				}
				specs.add(new KeySpec(version, new SecretKeySpec(entry.getValue(), "AES"),
						this.untweaked.contains(version)));
				first = false;
			}
			for (String version : this.untweaked) {
				if (!this.keys.containsKey(version)) {
					throw new IllegalArgumentException("The version '" + version + "', written without a tweak, is "
							+ "none of the previous keys' versions");
				}
			}
			return new OpaqueUidFormat(this.bits, List.copyOf(specs), "", new ConcurrentHashMap<>());
		}

		private static boolean isVersionCharacter(char c) {
			return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
		}

	}

}
