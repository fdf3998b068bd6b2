package io.github.uidgen.benchmarks;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Command-line options of the form {@code --name value}, with a clear message for anything not understood.
 */
final class Arguments {

	private final Map<String, String> options = new LinkedHashMap<>();

	Arguments(String[] args, String... known) {
		List<String> allowed = List.of(known);
		for (int i = 0; i < args.length; i++) {
			String arg = args[i];
			if (!arg.startsWith("--") || i + 1 >= args.length) {
				throw new IllegalArgumentException("Expected '--option value' but got '" + arg + "'; options: "
						+ allowed);
			}
			String name = arg.substring(2);
			if (!allowed.contains(name)) {
				throw new IllegalArgumentException("Unknown option '" + arg + "'; options: " + allowed);
			}
			this.options.put(name, args[++i]);
		}
	}

	String get(String name, String fallback) {
		return this.options.getOrDefault(name, fallback);
	}

	int getInt(String name, int fallback) {
		String value = this.options.get(name);
		try {
			return (value != null) ? Integer.parseInt(value.replace("_", "")) : fallback;
		}
		catch (NumberFormatException ex) {
			throw new IllegalArgumentException("--" + name + " needs a whole number, got '" + value + "'", ex);
		}
	}

	List<Integer> getInts(String name, String fallback) {
		List<Integer> values = new ArrayList<>();
		for (String value : get(name, fallback).split(",")) {
			try {
				values.add(Integer.parseInt(value.trim()));
			}
			catch (NumberFormatException ex) {
				throw new IllegalArgumentException("--" + name + " needs whole numbers separated by commas, got '"
						+ get(name, fallback) + "'", ex);
			}
		}
		return values;
	}

	/**
	 * Returns the given options that were set, as command-line arguments again, to hand to another part.
	 * @param names the options to pass on
	 * @return {@code --name value} pairs
	 */
	List<String> passOn(String... names) {
		List<String> args = new ArrayList<>();
		for (String name : names) {
			String value = this.options.get(name);
			if (value != null) {
				args.add("--" + name);
				args.add(value);
			}
		}
		return args;
	}

	List<Contender> getContenders(String name, String fallback) {
		List<Contender> contenders = new ArrayList<>();
		for (String value : get(name, fallback).split(",")) {
			contenders.add(Contender.of(value.trim()));
		}
		return contenders;
	}

}
