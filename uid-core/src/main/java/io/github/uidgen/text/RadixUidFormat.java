package io.github.uidgen.text;

import java.util.Arrays;

/**
 * IDs in decimal, radix 62 ({@code 0-9A-Za-z}) or radix 36 ({@code 0-9a-z}, read in either case, for stores that
 * ignore case). The alphabets are in ASCII order, so with a fixed width (every text padded with {@code 0} to the
 * width of the largest ID) texts sort, byte by byte, in the order of their IDs.
 */
public final class RadixUidFormat implements UidFormat {

	private static final String DIGITS_62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

	private static final String DIGITS_36 = "0123456789abcdefghijklmnopqrstuvwxyz";

	private final String name;

	private final char[] alphabet;

	/** Digit value of each ASCII character, -1 where the character is no digit of this alphabet. */
	private final byte[] values = new byte[128];

	private final int radix;

	private final long maxUid;

	private final boolean fixedWidth;

	/** Digits of the largest ID: the fixed width, and the longest text accepted. */
	private final int width;

	/** A power of the radix that fits an int: longs are cut into chunks whose digits int arithmetic writes. */
	private final int chunk;

	private final int chunkDigits;

	/**
	 * {@code ceil(2^37 / radix)}: {@code (n * magic) >>> 37} is {@code n / radix} for every int {@code n >= 0} and
	 * radix up to 62 (the error stays below 2^-6), without the slow division by a radix that is not a constant.
	 */
	private final long magic;

	private RadixUidFormat(String name, String digits, boolean ignoreCase, long maxUid, boolean fixedWidth) {
		if (maxUid < 1) {
			throw new IllegalArgumentException("The largest ID must be positive, not " + maxUid);
		}
		this.name = name + (fixedWidth ? "-fixed" : "");
		this.alphabet = digits.toCharArray();
		int radix = digits.length();
		this.radix = radix;
		this.maxUid = maxUid;
		this.fixedWidth = fixedWidth;
		Arrays.fill(this.values, (byte) -1);
		for (int i = 0; i < radix; i++) {
			char digit = this.alphabet[i];
			this.values[digit] = (byte) i;
			if (ignoreCase) {
				this.values[Character.toUpperCase(digit)] = (byte) i;
			}
		}
		int count = 0;
		for (long rest = maxUid; rest > 0; rest /= radix) {
			count++;
		}
		this.width = count;
		int power = 1;
		int powerDigits = 0;
		while ((long) power * radix <= Integer.MAX_VALUE) {
			power *= radix;
			powerDigits++;
		}
		this.chunk = power;
		this.chunkDigits = powerDigits;
		this.magic = ((1L << 37) + radix - 1) / radix;
	}

	/**
	 * Returns the decimal form.
	 * @param maxUid the largest ID of the layout
	 * @return the form
	 */
	public static RadixUidFormat decimal(long maxUid) {
		return new RadixUidFormat("decimal", DIGITS_62.substring(0, 10), false, maxUid, false);
	}

	/**
	 * Returns the radix-62 form, {@code 0-9A-Za-z}, case-sensitive.
	 * @param maxUid the largest ID of the layout
	 * @param fixedWidth whether every text has the width of the largest ID, so texts sort as their IDs
	 * @return the form
	 */
	public static RadixUidFormat radix62(long maxUid, boolean fixedWidth) {
		return new RadixUidFormat("radix62", DIGITS_62, false, maxUid, fixedWidth);
	}

	/**
	 * Returns the radix-36 form, written {@code 0-9a-z} and read in either case.
	 * @param maxUid the largest ID of the layout
	 * @param fixedWidth whether every text has the width of the largest ID, so texts sort as their IDs
	 * @return the form
	 */
	public static RadixUidFormat radix36(long maxUid, boolean fixedWidth) {
		return new RadixUidFormat("radix36", DIGITS_36, true, maxUid, fixedWidth);
	}

	@Override
	public String name() {
		return this.name;
	}

	/**
	 * Returns the number of digits of the largest ID: the length of every text of a fixed-width form.
	 * @return the width
	 */
	public int width() {
		return this.width;
	}

	@Override
	public String format(long uid) {
		if (uid < 0 || uid > this.maxUid) {
			throw new IllegalArgumentException("ID " + uid + " lies outside 0 to " + this.maxUid);
		}
		if (this.radix == 10 && !this.fixedWidth) {
			// The same text; the JDK writes it straight into the string's Latin-1 bytes, twice as fast as a char[].
			return Long.toString(uid);
		}
		char[] text = new char[this.width];
		int position = this.width;
		long rest = uid;
		while (rest >= this.chunk) {
			long quotient = rest / this.chunk;
			int digits = (int) (rest - quotient * this.chunk);
			for (int i = 0; i < this.chunkDigits; i++) {
				int next = (int) ((digits * this.magic) >>> 37);
				text[--position] = this.alphabet[digits - next * this.radix];
				digits = next;
			}
			rest = quotient;
		}
		int digits = (int) rest;
		do {
			int next = (int) ((digits * this.magic) >>> 37);
			text[--position] = this.alphabet[digits - next * this.radix];
			digits = next;
		}
		while (digits != 0);
		if (this.fixedWidth) {
			while (position > 0) {
				text[--position] = this.alphabet[0];
			}
		}
		return new String(text, position, this.width - position);
	}

	@Override
	public long parse(CharSequence text) {
		int length = text.length();
		if (length == 0) {
			throw refused(text, "the text is empty");
		}
		if (this.fixedWidth && length != this.width) {
			throw refused(text, UidTextException.length(length) + "; every ID of this form has " + this.width);
		}
		if (length > this.width) {
			throw refused(text, UidTextException.length(length) + "; IDs of this layout have at most " + this.width);
		}
		long value = 0;
		for (int i = 0; i < length; i++) {
			char c = text.charAt(i);
			int digit = (c < 128) ? this.values[c] : -1;
			if (digit < 0) {
				throw refused(text, "'" + c + "' at position " + (i + 1) + " is not one of its digits ("
						+ digitsDescription() + ")");
			}
			// Fewer digits than the largest ID always fit; only the last of a full-width text can overflow.
			if (i == this.width - 1 && value > (this.maxUid - digit) / this.radix) {
				throw refused(text, "it is beyond the largest ID of this layout, " + format(this.maxUid));
			}
			value = value * this.radix + digit;
		}
		return value;
	}

	private String digitsDescription() {
		return switch (this.radix) {
			case 10 -> "0-9";
			case 36 -> "0-9, a-z in either case";
			default -> "0-9, A-Z, a-z";
		};
	}

	private UidTextException refused(CharSequence text, String reason) {
		return new UidTextException(this.name, text, reason);
	}

}
