package io.github.uidgen.benchmarks;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import io.github.uidgen.UidLayout;
import io.github.uidgen.text.OpaqueUidFormat;
import io.github.uidgen.text.UidTextException;

/**
 * The texts of {@link OpaqueRefusalBenchmark} timed without JMH, for a machine without it: each kind parsed in
 * batches, the kinds in a new random order each round so that the machine's drift spreads over all of them, and the
 * tenth, fiftieth and ninetieth percentile of the batches' time per parse printed. Arguments: the batch size (20,000)
 * and the rounds (60).
 */
public final class OpaqueRefusalTiming {

	private static final byte[] KEY = Base64.getDecoder().decode("q83vEjRWeJCrze8SNFZ4kKvN7xI0VniQq83vEjRWeJA=");

	private static final byte[] OLD_KEY = Base64.getDecoder().decode("AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=");

	/** Keeps the results alive, so that the JIT cannot drop the parse. */
	static volatile Object sink;

	private OpaqueRefusalTiming() {
	}

	public static void main(String[] args) {
		int batch = (args.length > 0) ? Integer.parseInt(args[0]) : 20_000;
		int rounds = (args.length > 1) ? Integer.parseInt(args[1]) : 60;
		UidLayout layout = UidLayout.defaults();
		OpaqueUidFormat form = OpaqueUidFormat.builder(layout.totalBits())
			.key("c", KEY)
			.key("b", OLD_KEY)
			.key("", OLD_KEY)
			.build();
		String valid = form.format(layout.compose(layout.toUnit(System.currentTimeMillis()), 7, 42));
		String body = valid.substring(1);
		Map<String, String> kinds = new LinkedHashMap<>();
		kinds.put("valid", valid);
		kinds.put("wrong-version", "x" + body);
		kinds.put("bad-char", "c!" + body.substring(1));
		kinds.put("short", body.substring(1));
		kinds.put("long", valid + valid);
		kinds.put("beyond-max", "czzzzzzzzzzz");
		kinds.put("empty", "");
		Map<String, double[]> perParse = new LinkedHashMap<>();
		kinds.keySet().forEach((kind) -> perParse.put(kind, new double[rounds]));
		List<String> order = new ArrayList<>(kinds.keySet());
		Random random = new Random(1);
		for (int warmUp = 0; warmUp < 10; warmUp++) {
			for (String kind : order) {
				time(form, kinds.get(kind), batch);
			}
		}
		for (int round = 0; round < rounds; round++) {
			Collections.shuffle(order, random);
			for (String kind : order) {
				perParse.get(kind)[round] = time(form, kinds.get(kind), batch);
			}
		}
		System.out.printf("%-14s %8s %10s %8s%n", "kind", "p10 ns", "median ns", "p90 ns");
		for (Map.Entry<String, double[]> kind : perParse.entrySet()) {
			double[] times = kind.getValue().clone();
			Arrays.sort(times);
			System.out.printf("%-14s %8.0f %10.0f %8.0f%n", kind.getKey(), times[rounds / 10], times[rounds / 2],
					times[rounds * 9 / 10]);
		}
	}

	private static double time(OpaqueUidFormat form, String text, int parses) {
		long start = System.nanoTime();
		for (int i = 0; i < parses; i++) {
			try {
				sink = form.parse(text);
			}
			catch (UidTextException ex) {
				sink = ex;
			}
		}
		return (System.nanoTime() - start) / (double) parses;
	}

}
