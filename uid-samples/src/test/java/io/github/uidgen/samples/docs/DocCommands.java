package io.github.uidgen.samples.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Reads the commands a reader may paste from {@code README.md} and {@code docs/*.md} of the repository the tests run
 * in: the lines of {@code bash} and {@code sh} blocks, the {@code $ } lines of transcripts in {@code text} blocks with
 * the output under them, and {@code curl} commands in backticks.
 */
final class DocCommands {

	private static final Pattern FENCE = Pattern.compile("^```(\\w*)\\s*$");

	private static final Pattern INLINE_CURL = Pattern.compile("`(curl [^`]+)`");

	private DocCommands() {
	}

	/**
	 * Returns the repository's root: the first directory upwards from the working directory holding
	 * {@code README.md} and {@code docs/architecture.md}.
	 * @return the directory
	 */
	static Path root() {
		return Stream.iterate(Path.of("").toAbsolutePath(), (dir) -> dir != null, Path::getParent)
			.filter((dir) -> Files.isRegularFile(dir.resolve("README.md"))
					&& Files.isRegularFile(dir.resolve("docs/architecture.md")))
			.findFirst()
			.orElseThrow(() -> new IllegalStateException("No README.md beside docs/architecture.md above "
					+ Path.of("").toAbsolutePath()));
	}

	/**
	 * Returns every command of the README and the pages of {@code docs/}, in file order.
	 * @param root the repository's root
	 * @return the commands
	 */
	static List<DocCommand> read(Path root) {
		List<DocCommand> commands = new ArrayList<>();
		for (Path file : files(root)) {
			try {
				commands.addAll(read(root.relativize(file).toString(), Files.readAllLines(file)));
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}
		return commands;
	}

	/**
	 * Returns the pages read: {@code README.md} and {@code docs/*.md}.
	 * @param root the repository's root
	 * @return the files, the README first
	 */
	static List<Path> files(Path root) {
		List<Path> files = new ArrayList<>();
		files.add(root.resolve("README.md"));
		try (Stream<Path> docs = Files.list(root.resolve("docs"))) {
			docs.filter((file) -> file.toString().endsWith(".md")).sorted().forEach(files::add);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return files;
	}

	/** The commands of one file; each runs against the launches of its block, else the last ones before it. */
	static List<DocCommand> read(String name, List<String> lines) {
		List<DocCommand> commands = new ArrayList<>();
		List<DocCommand> lastLaunches = List.of();
		String language = null;
		List<Pending> block = new ArrayList<>();
		for (int i = 0; i < lines.size(); i++) {
			String line = lines.get(i);
			Matcher fence = FENCE.matcher(line);
			if (fence.matches()) {
				if (language == null) {
					language = fence.group(1);
					block.clear();
					continue;
				}
				List<DocCommand> launches = new ArrayList<>();
				for (Pending pending : block) {
					if (pending.launchesASample()) {
						launches.add(pending.toCommand(List.of()));
					}
				}
				List<DocCommand> context = launches.isEmpty() ? lastLaunches : List.copyOf(launches);
				for (Pending pending : block) {
					commands.add(pending.toCommand(pending.launchesASample() ? List.of() : context));
				}
				if (!launches.isEmpty()) {
					lastLaunches = List.copyOf(launches);
				}
				language = null;
				continue;
			}
			if (language == null) {
				Matcher inline = INLINE_CURL.matcher(line);
				while (inline.find()) {
					commands.add(new DocCommand(name + ":" + (i + 1), inline.group(1), "", List.of(), lastLaunches));
				}
			}
			else if (language.equals("bash") || language.equals("sh")) {
				StringBuilder joined = new StringBuilder();
				int first = i;
				while (line.endsWith("\\") && i + 1 < lines.size()) {
					joined.append(line, 0, line.length() - 1).append(' ');
					line = lines.get(++i).strip();
				}
				joined.append(line);
				String text = joined.toString().strip();
				if (!text.isEmpty() && !text.startsWith("#")) {
					block.add(Pending.of(name + ":" + (first + 1), text));
				}
			}
			else if (language.equals("text") && line.startsWith("$ ")) {
				Pending pending = Pending.of(name + ":" + (i + 1), line.substring(2));
				while (i + 1 < lines.size() && !lines.get(i + 1).startsWith("$ ")
						&& !FENCE.matcher(lines.get(i + 1)).matches()) {
					pending.output.add(lines.get(++i));
				}
				block.add(pending);
			}
		}
		return commands;
	}

	/** A command of a block, until the block's end says which launches it runs against. */
	private record Pending(String where, String text, String comment, List<String> output) {

		static Pending of(String where, String line) {
			int comment = commentStart(line);
			String text = ((comment < 0) ? line : line.substring(0, comment)).strip();
			if (text.endsWith("&")) {
				text = text.substring(0, text.length() - 1).strip();
			}
			String said = (comment < 0) ? "" : line.substring(comment).replaceFirst("^\\s*#\\s*", "").strip();
			return new Pending(where, text, said, new ArrayList<>());
		}

		/** Where a shell comment starts: a {@code #} after white space, outside quotes; -1 without one. */
		private static int commentStart(String line) {
			char quote = 0;
			for (int i = 0; i < line.length(); i++) {
				char c = line.charAt(i);
				if (quote != 0) {
					quote = (c == quote) ? 0 : quote;
				}
				else if (c == '\'' || c == '"') {
					quote = c;
				}
				else if (c == '#' && i > 0 && Character.isWhitespace(line.charAt(i - 1))) {
					return i;
				}
			}
			return -1;
		}

		boolean launchesASample() {
			return toCommand(List.of()).launchesASample();
		}

		DocCommand toCommand(List<DocCommand> launch) {
			return new DocCommand(this.where, this.text, this.comment, List.copyOf(this.output), launch);
		}

	}

}
