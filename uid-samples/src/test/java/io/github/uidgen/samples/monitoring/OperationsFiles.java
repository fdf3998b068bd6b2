package io.github.uidgen.samples.monitoring;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Where the monitoring files live ({@code docs/operations} of the repository, found upwards from the working
 * directory) and the {@code uid_*} names their expressions use.
 */
public final class OperationsFiles {

	/** A series name of the starter, as PromQL and the text format write it. */
	private static final Pattern UID_NAME = Pattern.compile("\\buid_[a-z_]+\\b");

	private OperationsFiles() {
	}

	/**
	 * Returns {@code docs/operations} of the repository the tests run in.
	 * @return the directory
	 */
	public static Path dir() {
		return Stream.iterate(Path.of("").toAbsolutePath(), (dir) -> dir != null, Path::getParent)
			.map((dir) -> dir.resolve("docs/operations"))
			.filter((candidate) -> Files.isRegularFile(candidate.resolve("uid-alerts.yml")))
			.findFirst()
			.orElseThrow(() -> new IllegalStateException("No docs/operations/uid-alerts.yml above "
					+ Path.of("").toAbsolutePath()));
	}

	/**
	 * Returns a file of {@code docs/operations} as text.
	 * @param name the file name
	 * @return its content
	 */
	public static String read(String name) {
		try {
			return Files.readString(dir().resolve(name));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * Returns the {@code uid_*} names a text mentions.
	 * @param text an expression, a rules file
	 * @return the names, sorted
	 */
	public static Set<String> uidNames(String text) {
		Set<String> names = new TreeSet<>();
		Matcher matcher = UID_NAME.matcher(text);
		while (matcher.find()) {
			names.add(matcher.group());
		}
		return names;
	}

}
