package io.github.uidgen.text;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;

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

	private static final String NAME = "opaque";

	private final Key current;

	/** Every key that reads texts, by version ({@code ""} for none). */
	private final Map<String, Key> keys;

	private final RadixUidFormat body;

	private final long maxUid;

	private OpaqueUidFormat(Builder builder) {
		this.maxUid = (builder.bits == 64) ? -1L : (1L << builder.bits) - 1;
		this.body = RadixUidFormat.radix62(this.maxUid, true);
		this.keys = new LinkedHashMap<>();
		Key first = null;
		for (Map.Entry<String, byte[]> entry : builder.keys.entrySet()) {
			Key key = new Key(entry.getKey(), new Ff1(entry.getValue(), builder.bits, new byte[0]));
			this.keys.put(entry.getKey(), key);
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
	 * Reads a key written in base64, as properties and environment variables carry it.
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
			throw new IllegalArgumentException("The key is not base64 (" + ex.getMessage() + ")", ex);
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
			throw new UidTextException(NAME, text, version.isEmpty() ? "it has no key version, and every key has one"
					: "its key version '" + version + "' is none of this service's keys (" + this.keys.keySet() + ")");
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

	/**
	 * Builds an opaque form: the current key, then any previous keys that texts may still carry.
	 */
	public static final class Builder {

		private final int bits;

		private final Map<String, byte[]> keys = new LinkedHashMap<>();

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
		 * Builds the form.
		 * @return the form
		 * @throws IllegalArgumentException when no key is set
		 */
		public OpaqueUidFormat build() {
			if (this.keys.isEmpty()) {
				throw new IllegalArgumentException("No key is set; the opaque form has no default key");
			}
			return new OpaqueUidFormat(this);
		}

		private static boolean isVersionCharacter(char c) {
			return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
		}

	}

}
