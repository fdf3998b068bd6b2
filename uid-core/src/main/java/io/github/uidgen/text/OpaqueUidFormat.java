package io.github.uidgen.text;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
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

	/** What a text of no key of this service is told, whatever the reason: the versions in use are not its business. */
	private static final String NOT_OURS = "it is not a valid ID of this service";

	private final int bits;

	/** The keys as configured, in order, the current one first. */
	private final List<KeySpec> specs;

	/** This form's tweak, as UTF-8 bytes go into FF1. */
	private final String tweak;

	private final Key current;

	/** Every key that reads texts, by version ({@code ""} for none), each with the tweak its texts were made with. */
	private final Map<String, Key> keys;

	private final RadixUidFormat body;

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

	@Override
	public long parse(CharSequence text) {
		int length = text.length();
		int width = this.body.width();
		if (length == 0) {
			throw new UidTextException(NAME, text, "the text is empty");
		}
		String version;
		if (length == width) {
			version = "";
		}
		else if (length == width + 1) {
			version = String.valueOf(text.charAt(0));
		}
		else {
			throw new UidTextException(NAME, text, UidTextException.length(length) + "; opaque IDs have " + width
					+ ((this.keys.size() > 1 || !this.current.version.isEmpty()) ? " plus a key version" : ""));
		}
		Key key = this.keys.get(version);
		if (key == null) {
			// The caller learns only that the text is not ours; which versions are, the log may say.
			logger.debug("An opaque text of {} characters has the key version '{}', none of the versions {}",
					length, version, this.keys.keySet());
			throw new UidTextException(NAME, text, NOT_OURS);
		}
		long value;
		try {
			value = this.body.parse(text.subSequence(version.length(), length));
		}
		catch (UidTextException ex) {
			throw new UidTextException(NAME, text, ex.getReason());
		}
		return key.cipher.decrypt(value);
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
