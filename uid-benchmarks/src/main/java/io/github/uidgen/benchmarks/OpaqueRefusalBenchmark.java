package io.github.uidgen.benchmarks;

import java.util.Base64;
import java.util.concurrent.TimeUnit;

import io.github.uidgen.UidLayout;
import io.github.uidgen.text.OpaqueUidFormat;
import io.github.uidgen.text.UidTextException;
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
 * The time the opaque form takes to refuse a text, per kind of wrong, beside the time it takes to read a valid text:
 * a refusal that is quicker for one kind than another (an unknown key version refused before any decryption, a bad
 * character before the digits are read) tells a caller which kinds its texts are, and so which key versions exist.
 * The form has the key versions {@code c} (current), {@code b} and none, over the default layout's 63 bits; no kind
 * repeats a text's check digit, because the form has none. Sample mode, so that the median and the tail are printed.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class OpaqueRefusalBenchmark {

	private static final byte[] KEY = Base64.getDecoder().decode("q83vEjRWeJCrze8SNFZ4kKvN7xI0VniQq83vEjRWeJA=");

	private static final byte[] OLD_KEY = Base64.getDecoder().decode("AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=");

	/**
	 * {@code valid}: a text of the current key, read; {@code wrong-version}: a version the form does not have;
	 * {@code bad-char}: a character outside the alphabet, first of the digits; {@code short} and {@code long}: one
	 * character too few, a whole text too many; {@code beyond-max}: digits beyond 63 bits; {@code empty}.
	 */
	@Param({ "valid", "wrong-version", "bad-char", "short", "long", "beyond-max", "empty" })
	public String kind;

	private OpaqueUidFormat form;

	private String text;

	@Setup(Level.Trial)
	public void setUp() {
		UidLayout layout = UidLayout.defaults();
		this.form = OpaqueUidFormat.builder(layout.totalBits()).key("c", KEY).key("b", OLD_KEY).key("", OLD_KEY).build();
		String valid = this.form.format(layout.compose(layout.toUnit(System.currentTimeMillis()), 7, 42));
		String body = valid.substring(1);
		this.text = switch (this.kind) {
			case "valid" -> valid;
			case "wrong-version" -> "x" + body;
			case "bad-char" -> "c!" + body.substring(1);
			case "short" -> body.substring(1);
			case "long" -> valid + valid;
			case "beyond-max" -> "czzzzzzzzzzz";
			case "empty" -> "";
			default -> throw new IllegalArgumentException(this.kind);
		};
	}

	@Benchmark
	public Object parse() {
		try {
			return this.form.parse(this.text);
		}
		catch (UidTextException ex) {
			return ex;
		}
	}

}
