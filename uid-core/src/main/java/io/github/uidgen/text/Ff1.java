package io.github.uidgen.text;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.security.GeneralSecurityException;
import java.util.concurrent.atomic.AtomicReferenceArray;

import javax.crypto.Cipher;
import javax.crypto.spec.SecretKeySpec;

/**
 * NIST SP 800-38G FF1 format-preserving encryption over bit strings of 20 to 64 bits (radix 2), with AES from the
 * JDK (which uses the processor's AES instructions): a keyed permutation of {@code [0, 2^bits)}. The general FF1 works
 * on numbers of any size; for radix 2 and at most 64 bits every value it handles fits a {@code long}, and every
 * round's pseudo-random function is one AES block, because the blocks before the last are the same in every round
 * and are encrypted once here. A round then costs one {@code Cipher.update} and two 8-byte writes and reads.
 */
final class Ff1 {

	private static final int ROUNDS = 10;

	/** FF1 needs radix^minlen >= 1,000,000: 20 bits for radix 2. */
	static final int MIN_BITS = 20;

	/** Reads and writes 8 bytes of a block as one big-endian long, as FF1's NUM and STR read and write them. */
	private static final VarHandle EIGHT_BYTES = MethodHandles.byteArrayViewVarHandle(long[].class,
			ByteOrder.BIG_ENDIAN);

	/** Slots of idle ciphers; a power of two. */
	private static final int SLOTS = 16;

	/** Array elements between two slots, so that threads on different cores do not share a cache line. */
	private static final int SLOT_SPACING = 16;

	private final SecretKeySpec key;

	private final int bits;

	private final int u;

	private final int v;

	/** Bytes that hold NUM(B): ceil(v / 8). */
	private final int b;

	/**
	 * The CBC-MAC state after P and every block of Q but the last, XORed with the last block of Q: what AES
	 * encrypts in a round, before the round number and NUM(B) are XORed into its last bytes. Every cipher's input
	 * block holds its first 8 bytes for good; a round writes the last 8.
	 */
	private final byte[] base;

	/** The last 8 bytes of {@link #base}, as a long. */
	private final long baseTail;

	/**
	 * Idle ciphers, each used by one thread at a time: a thread takes one from its slot (or any) and puts it back
	 * there. Unlike a ThreadLocal this keeps a few ciphers for any number of threads, so a virtual thread per
	 * request does not build a cipher (a few microseconds) per request. A cipher put back over another is dropped.
	 */
	private final AtomicReferenceArray<Aes> idle = new AtomicReferenceArray<>(SLOTS * SLOT_SPACING);

	/**
	 * Creates the cipher.
	 * @param key an AES key of 16, 24 or 32 bytes
	 * @param bits the length of the bit strings, 20 to 64
	 * @param tweak the tweak, may be empty
	 */
	Ff1(byte[] key, int bits, byte[] tweak) {
		this(aesKey(key), bits, tweak);
	}

	/**
	 * Creates the cipher of a key already checked, as the opaque form keeps it.
	 * @param key an AES key of 16, 24 or 32 bytes
	 * @param bits the length of the bit strings, 20 to 64
	 * @param tweak the tweak, may be empty
	 */
	Ff1(SecretKeySpec key, int bits, byte[] tweak) {
		if (bits < MIN_BITS || bits > 64) {
			throw new IllegalArgumentException("FF1 over bits works on 20 to 64 bits, not " + bits);
		}
		this.key = key;
		this.bits = bits;
		this.u = bits / 2;
		this.v = bits - this.u;
		this.b = (this.v + 7) / 8;
		int t = tweak.length;
		byte[] p = { 1, 2, 1, 0, 0, 2, 10, (byte) this.u, (byte) (bits >>> 24), (byte) (bits >>> 16),
				(byte) (bits >>> 8), (byte) bits, (byte) (t >>> 24), (byte) (t >>> 16), (byte) (t >>> 8), (byte) t };
		int qLength = t + Math.floorMod(-t - this.b - 1, 16) + 1 + this.b;
		byte[] q = new byte[qLength];
		System.arraycopy(tweak, 0, q, 0, t);
		Aes cipher = new Aes(this.key);
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
		this.baseTail = (long) EIGHT_BYTES.get(this.base, 8);
		release(cipher.ready(this.base));
	}

	private static SecretKeySpec aesKey(byte[] key) {
		if (key.length != 16 && key.length != 24 && key.length != 32) {
			throw new IllegalArgumentException("An AES key has 16, 24 or 32 bytes, not " + key.length);
		}
		return new SecretKeySpec(key, "AES");
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
		Aes cipher = acquire();
		long a = x >>> this.v;
		long b = x & mask(this.v);
		for (int i = 0; i < ROUNDS; i++) {
			int m = ((i & 1) == 0) ? this.u : this.v;
			long c = (a + prf(cipher, i, b)) & mask(m);
			a = b;
			b = c;
		}
		release(cipher);
		return (a << this.v) | b;
	}

	/**
	 * Decrypts a bit string made by {@link #encrypt(long)} with the same key and tweak.
	 * @param y the encrypted bits
	 * @return the bits encrypted
	 */
	long decrypt(long y) {
		Aes cipher = acquire();
		long a = y >>> this.v;
		long b = y & mask(this.v);
		for (int i = ROUNDS - 1; i >= 0; i--) {
			int m = ((i & 1) == 0) ? this.u : this.v;
			long c = (b - prf(cipher, i, a)) & mask(m);
			b = a;
			a = c;
		}
		release(cipher);
		return (a << this.v) | b;
	}

	/** NUM(S): the first 8 bytes (d = 8 for b <= 4) of PRF(P || Q) with Q ending in [i] || [NUM(B)]^b. */
	private long prf(Aes cipher, int round, long half) {
		// [i] and NUM(B) lie in the last 1 + b <= 5 bytes, inside the block's last 8; the first 8 never change.
		EIGHT_BYTES.set(cipher.in, 8, this.baseTail ^ ((long) round << (8 * this.b)) ^ half);
		return (long) EIGHT_BYTES.get(cipher.encryptInPlace(), 0);
	}

	/** Takes an idle cipher, or builds one when every slot is empty (more threads at once than ciphers so far). */
	private Aes acquire() {
		int home = slot();
		for (int i = 0; i < SLOTS; i++) {
			Aes cipher = this.idle.getAndSet(((home + i) & (SLOTS - 1)) * SLOT_SPACING, null);
			if (cipher != null) {
				return cipher;
			}
		}
		return new Aes(this.key).ready(this.base);
	}

	private void release(Aes cipher) {
		this.idle.setRelease((slot() & (SLOTS - 1)) * SLOT_SPACING, cipher);
	}

	@SuppressWarnings("deprecation") // Thread.threadId() is Java 19+; getId() is the same number.
	private static int slot() {
		return (int) Thread.currentThread().getId();
	}

	private static long mask(int bits) {
		return (bits == 64) ? -1L : (1L << bits) - 1;
	}

	/** AES for one thread at a time: a JDK {@code Cipher} is not safe to share, and its buffers are reused. */
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

		/** Fills the first 8 bytes of the input block, which every round leaves as they are. */
		Aes ready(byte[] base) {
			System.arraycopy(base, 0, this.in, 0, 8);
			return this;
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
