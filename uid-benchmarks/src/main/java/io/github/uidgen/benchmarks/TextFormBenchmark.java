package io.github.uidgen.benchmarks;

import java.time.ZoneOffset;
import java.util.Base64;
import java.util.concurrent.TimeUnit;

import io.github.uidgen.UidLayout;
import io.github.uidgen.text.OpaqueUidFormat;
import io.github.uidgen.text.RadixUidFormat;
import io.github.uidgen.text.ReadableUidFormat;
import io.github.uidgen.text.UidFormat;
import org.bouncycastle.crypto.engines.AESEngine;
import org.bouncycastle.crypto.fpe.FPEFF1Engine;
import org.bouncycastle.crypto.params.FPEParameters;
import org.bouncycastle.crypto.params.KeyParameter;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * One thread writing IDs of the default layout as text and reading them back, per form, beside
 * {@code Long.toString} / {@code Long.parseLong} ({@code long}) and Bouncy Castle's FF1 over the same 63 bits
 * ({@code bc-ff1}, the library the opaque form could have used). The IDs are consecutive, as a generator hands
 * them out.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class TextFormBenchmark {

	private static final byte[] KEY = Base64.getDecoder().decode("q83vEjRWeJCrze8SNFZ4kKvN7xI0VniQq83vEjRWeJA=");

	@Param({ "long", "decimal", "radix62", "radix62-fixed", "radix36", "readable", "opaque", "bc-ff1" })
	public String form;

	private UidFormat format;

	private long first;

	private long next;

	private String text;

	@Setup(Level.Trial)
	public void setUp() {
		UidLayout layout = UidLayout.defaults();
		long max = layout.maxUid();
		this.format = switch (this.form) {
			case "long" -> new LongToString();
			case "decimal" -> RadixUidFormat.decimal(max);
			case "radix62" -> RadixUidFormat.radix62(max, false);
			case "radix62-fixed" -> RadixUidFormat.radix62(max, true);
			case "radix36" -> RadixUidFormat.radix36(max, false);
			case "readable" -> new ReadableUidFormat(layout, ZoneOffset.UTC);
			case "opaque" -> OpaqueUidFormat.builder(layout.totalBits()).key("", KEY).build();
			case "bc-ff1" -> new BouncyCastleFf1(layout.totalBits());
			default -> throw new IllegalArgumentException(this.form);
		};
		this.first = layout.compose(layout.toUnit(System.currentTimeMillis()), 7, 0);
		this.next = this.first;
		this.text = this.format.format(this.first);
	}

	@Benchmark
	public String format() {
		return this.format.format(this.next++);
	}

	@Benchmark
	public long parse() {
		return this.format.parse(this.text);
	}

	@Benchmark
	public long formatAndParse() {
		return this.format.parse(this.format.format(this.next++));
	}

	/** The floor: what the JDK does for decimal. */
	private static final class LongToString implements UidFormat {

		@Override
		public String format(long uid) {
			return Long.toString(uid);
		}

		@Override
		public long parse(CharSequence text) {
			return Long.parseLong(text, 0, text.length(), 10);
		}

		@Override
		public String name() {
			return "long";
		}

	}

	/** Bouncy Castle's FF1, radix 2 over the ID's bits, written in radix 62 as the opaque form is. */
	private static final class BouncyCastleFf1 implements UidFormat {

		private final int bits;

		private final FPEFF1Engine encrypt = new FPEFF1Engine(AESEngine.newInstance());

		private final FPEFF1Engine decrypt = new FPEFF1Engine(AESEngine.newInstance());

		private final byte[] in;

		private final byte[] out;

		private final RadixUidFormat body;

		BouncyCastleFf1(int bits) {
			this.bits = bits;
			this.in = new byte[bits];
			this.out = new byte[bits];
			this.encrypt.init(true, new FPEParameters(new KeyParameter(KEY), 2, new byte[0]));
			this.decrypt.init(false, new FPEParameters(new KeyParameter(KEY), 2, new byte[0]));
			this.body = RadixUidFormat.radix62((1L << bits) - 1, true);
		}

		@Override
		public String format(long uid) {
			return this.body.format(run(this.encrypt, uid));
		}

		@Override
		public long parse(CharSequence text) {
			return run(this.decrypt, this.body.parse(text));
		}

		private long run(FPEFF1Engine engine, long value) {
			for (int i = 0; i < this.bits; i++) {
				this.in[i] = (byte) ((value >>> (this.bits - 1 - i)) & 1);
			}
			engine.processBlock(this.in, 0, this.bits, this.out, 0);
			long result = 0;
			for (int i = 0; i < this.bits; i++) {
				result = (result << 1) | this.out[i];
			}
			return result;
		}

		@Override
		public String name() {
			return "bc-ff1";
		}

	}

}
