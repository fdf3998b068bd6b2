package io.github.uidgen.text;

import java.security.GeneralSecurityException;

import javax.crypto.Cipher;
import javax.crypto.spec.SecretKeySpec;

/**
 * NIST SP 800-38G FF1 format-preserving encryption over bit strings of 20 to 64 bits (radix 2), with AES from the
 * JDK (which uses the processor's AES instructions): a keyed permutation of {@code [0, 2^bits)}. The general FF1 works
 * on numbers of any size; for radix 2 and at most 64 bits every value it handles fits a {@code long}, and every
 * round's pseudo-random function is one AES block, because the blocks before the last are the same in every round
 * and are encrypted once here.
 */
final class Ff1 {

	private static final int ROUNDS = 10;

	/** FF1 needs radix^minlen >= 1,000,000: 20 bits for radix 2. */
	static final int MIN_BITS = 20;

	private final SecretKeySpec key;

	private final int bits;

	private final int u;

	private final int v;

	/** Bytes that hold NUM(B): ceil(v / 8). */
	private final int b;

	/**
	 * The CBC-MAC state after P and every block of Q but the last, XORed with the last block of Q: what AES
	 * encrypts in a round, before the round number and NUM(B) are XORed into its last bytes.
	 */
	private final byte[] base;

	private final ThreadLocal<Aes> aes;

	/**
	 * Creates the cipher.
	 * @param key an AES key of 16, 24 or 32 bytes
	 * @param bits the length of the bit strings, 20 to 64
	 * @param tweak the tweak, may be empty
	 */
	Ff1(byte[] key, int bits, byte[] tweak) {
		if (bits < MIN_BITS || bits > 64) {
			throw new IllegalArgumentException("FF1 over bits works on 20 to 64 bits, not " + bits);
		}
		if (key.length != 16 && key.length != 24 && key.length != 32) {
			throw new IllegalArgumentException("An AES key has 16, 24 or 32 bytes, not " + key.length);
		}
		this.key = new SecretKeySpec(key.clone(), "AES");
		this.bits = bits;
		this.u = bits / 2;
		this.v = bits - this.u;
		this.b = (this.v + 7) / 8;
		this.aes = ThreadLocal.withInitial(() -> new Aes(this.key));
		int t = tweak.length;
		byte[] p = { 1, 2, 1, 0, 0, 2, 10, (byte) this.u, (byte) (bits >>> 24), (byte) (bits >>> 16),
				(byte) (bits >>> 8), (byte) bits, (byte) (t >>> 24), (byte) (t >>> 16), (byte) (t >>> 8), (byte) t };
		int qLength = t + Math.floorMod(-t - this.b - 1, 16) + 1 + this.b;
		byte[] q = new byte[qLength];
		System.arraycopy(tweak, 0, q, 0, t);
		Aes cipher = this.aes.get();
		byte[] state = cipher.encrypt(p);
		for (int offset = 0; offset < qLength - 16; offset += 16) {
			byte[] block = new byte[16];
			for (int i = 0; i < 16; i++) {
				block[i] = (byte) (state[i] ^ q[offset + i]);
			}
			state = cipher.encrypt(block);
		}
		this.base = new byte[16];
		for (int i = 0; i < 16; i++) {
			this.base[i] = (byte) (state[i] ^ q[qLength - 16 + i]);
		}
	}

	int bits() {
		return this.bits;
	}

	/**
	 * Encrypts a bit string.
	 * @param x the bits, as the low {@code bits} bits of a long; the first bit of the string is the highest
	 * @return the encrypted bits, as many
	 */
	long encrypt(long x) {
		Aes cipher = this.aes.get();
		long a = x >>> this.v;
		long b = x & mask(this.v);
		for (int i = 0; i < ROUNDS; i++) {
			int m = ((i & 1) == 0) ? this.u : this.v;
			long c = (a + prf(cipher, i, b)) & mask(m);
			a = b;
			b = c;
		}
		return (a << this.v) | b;
	}

	/**
	 * Decrypts a bit string made by {@link #encrypt(long)} with the same key and tweak.
	 * @param y the encrypted bits
	 * @return the bits encrypted
	 */
	long decrypt(long y) {
		Aes cipher = this.aes.get();
		long a = y >>> this.v;
		long b = y & mask(this.v);
		for (int i = ROUNDS - 1; i >= 0; i--) {
			int m = ((i & 1) == 0) ? this.u : this.v;
			long c = (b - prf(cipher, i, a)) & mask(m);
			b = a;
			a = c;
		}
		return (a << this.v) | b;
	}

	/** NUM(S): the first 8 bytes (d = 8 for b <= 4) of PRF(P || Q) with Q ending in [i] || [NUM(B)]^b. */
	private long prf(Aes cipher, int round, long half) {
		byte[] block = cipher.in;
		System.arraycopy(this.base, 0, block, 0, 16);
		int at = 16 - 1 - this.b;
		block[at] ^= (byte) round;
		for (int i = 0; i < this.b; i++) {
			block[at + 1 + i] ^= (byte) (half >>> (8 * (this.b - 1 - i)));
		}
		byte[] r = cipher.encryptInPlace();
		return ((r[0] & 0xffL) << 56) | ((r[1] & 0xffL) << 48) | ((r[2] & 0xffL) << 40) | ((r[3] & 0xffL) << 32)
				| ((r[4] & 0xffL) << 24) | ((r[5] & 0xffL) << 16) | ((r[6] & 0xffL) << 8) | (r[7] & 0xffL);
	}

	private static long mask(int bits) {
		return (bits == 64) ? -1L : (1L << bits) - 1;
	}

	/** One thread's AES: a JDK {@code Cipher} is not safe to share, and its buffers are reused call after call. */
	private static final class Aes {

		private final Cipher cipher;

		final byte[] in = new byte[16];

		private final byte[] out = new byte[16];

		Aes(SecretKeySpec key) {
			try {
				this.cipher = Cipher.getInstance("AES/ECB/NoPadding");
				this.cipher.init(Cipher.ENCRYPT_MODE, key);
			}
			catch (GeneralSecurityException ex) {
				throw new IllegalStateException("AES is not available in this JDK", ex);
			}
		}

		byte[] encrypt(byte[] block) {
			System.arraycopy(block, 0, this.in, 0, 16);
			return encryptInPlace().clone();
		}

		byte[] encryptInPlace() {
			try {
				// ECB without padding keeps no state between blocks: update encrypts the block, without doFinal's reset.
				this.cipher.update(this.in, 0, 16, this.out, 0);
			}
			catch (GeneralSecurityException ex) {
				throw new IllegalStateException("AES failed on one block", ex);
			}
			return this.out;
		}

	}

}
