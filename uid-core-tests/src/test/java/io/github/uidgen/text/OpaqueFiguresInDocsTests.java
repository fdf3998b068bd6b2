package io.github.uidgen.text;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The opaque form's speed as {@code docs/ids-as-text.md} states it is that of the latest quiet run, whose table is in
 * {@code docs/benchmarks.md}: the figures of one page do not drift from the other's when a run is redone.
 */
class OpaqueFiguresInDocsTests {

	private static final Pattern OPAQUE_ROW = Pattern.compile(
			"\\| `opaque` \\(uid's FF1 on the JDK's AES\\) \\| ([0-9.]+M) ± [0-9.]+M \\| ([0-9.]+M) ± [0-9.]+M \\| "
					+ "\\*\\*([0-9.]+M) ± [0-9.]+M\\*\\* \\|");

	private static final Pattern REFERENCE_ROW = Pattern
		.compile("\\| `bc-ff1` \\(Bouncy Castle's FF1\\) \\| [^|]+\\| [^|]+\\| ([0-9.]+)M ± [0-9.]+M \\|");

	@Test
	void theTextFormsPageStatesTheLatestQuietRunsFigures() throws IOException {
		Path docs = docs();
		String benchmarks = Files.readString(docs.resolve("benchmarks.md"), StandardCharsets.UTF_8);
		String page = Files.readString(docs.resolve("ids-as-text.md"), StandardCharsets.UTF_8);
		Matcher opaque = OPAQUE_ROW.matcher(benchmarks);
		Matcher reference = REFERENCE_ROW.matcher(benchmarks);
		assertThat(opaque.find()).as("the opaque row of benchmarks.md").isTrue();
		assertThat(reference.find()).as("the bc-ff1 row of benchmarks.md").isTrue();
		String both = opaque.group(3);
		double ratio = Double.parseDouble(both.replace("M", "")) / Double.parseDouble(reference.group(1));
		String speed = page.substring(page.indexOf("### Speed"), page.indexOf("## With Spring Boot"));
		assertThat(speed).contains("(" + both + " a second: " + opaque.group(1) + " formats and " + opaque.group(2)
				+ " parses a second)")
			.contains(Math.round(ratio) + " times slower in the same run (" + reference.group(1) + "M a second)");
		assertThat(speed).as("the busy run is named as such").contains("kept busy");
	}

	private static Path docs() {
		Path dir = Path.of("").toAbsolutePath();
		while (dir != null && !Files.isRegularFile(dir.resolve("docs/ids-as-text.md"))) {
			dir = dir.getParent();
		}
		assertThat(dir).isNotNull();
		return dir.resolve("docs");
	}

}
