package io.github.uidgen.text;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * The specification of the opaque form in {@code docs/ids-as-text.md} is enough to implement it elsewhere: its test
 * vectors ({@code docs/opaque/vectors.json}) are what this form writes and reads, what Bouncy Castle's FF1 computes
 * for their bits, and what {@code docs/opaque/decode.mjs}, written from the specification in Node.js with nothing
 * but its built-in AES, computes both ways. Node.js must be installed ({@code apt-get install nodejs}; CI's
 * {@code .ci/run} installs it): without it this test fails rather than passing unchecked.
 */
class OpaqueSpecVectorsTests {

	private static final Path ROOT = root();

	private static final Path VECTORS = ROOT.resolve("docs/opaque/vectors.json");

	private static final Pattern OBJECT = Pattern.compile("\\{[^{}]*\\}");

	private static final Pattern FIELD = Pattern.compile("\"(\\w+)\":\\s*(?:\"((?:[^\"\\\\]|\\\\.)*)\"|(\\d+))");

	private static Path root() {
		Path dir = Path.of("").toAbsolutePath();
		while (dir != null && !Files.isRegularFile(dir.resolve("docs/ids-as-text.md"))) {
			dir = dir.getParent();
		}
		assertThat(dir).as("the repository with docs/ids-as-text.md above %s", Path.of("").toAbsolutePath())
			.isNotNull();
		return dir;
	}

	private static List<Map<String, String>> vectors() throws IOException {
		String json = Files.readString(VECTORS, StandardCharsets.UTF_8);
		List<Map<String, String>> vectors = new ArrayList<>();
		Matcher object = OBJECT.matcher(json.substring(json.indexOf("\"vectors\"")));
		while (object.find()) {
			Map<String, String> vector = new LinkedHashMap<>();
			Matcher field = FIELD.matcher(object.group());
			while (field.find()) {
				vector.put(field.group(1), (field.group(2) != null) ? field.group(2) : field.group(3));
			}
			vectors.add(vector);
		}
		return vectors;
	}

	@Test
	void theVectorsAreWhatTheFormWritesAndReadsAndWhatTheReferenceFf1Computes() throws IOException {
		List<Map<String, String>> vectors = vectors();
		assertThat(vectors).hasSizeGreaterThanOrEqualTo(20);
		for (Map<String, String> vector : vectors) {
			int bits = Integer.parseInt(vector.get("bits"));
			long id = Long.parseUnsignedLong(vector.get("id"));
			String version = vector.get("version");
			String text = vector.get("text");
			byte[] key = OpaqueUidFormat.decodeKey(vector.get("key"));
			OpaqueUidFormat form = OpaqueUidFormat.builder(bits).key(version, key).build().tweaked(vector.get("tweak"));
			assertThat(form.format(id)).as("%s", vector).isEqualTo(text);
			assertThat(form.parse(text)).as("%s", vector).isEqualTo(id);
			assertThat(text).hasSize(form.width() + version.length());
			long encrypted = RadixUidFormat.radix62((bits == 64) ? -1L : (1L << bits) - 1, true)
				.parse(text.substring(version.length()));
			assertThat(Ff1KnownAnswerTests.referenceBits(key, vector.get("tweak").getBytes(StandardCharsets.UTF_8),
					Ff1KnownAnswerTests.bitString(id, bits)))
				.as("Bouncy Castle's FF1 of %s", vector)
				.isEqualTo(Ff1KnownAnswerTests.bitString(encrypted, bits));
		}
	}

	@Test
	void aProgramInNodeWrittenFromTheSpecificationDecodesAndEncodesEveryVector() throws Exception {
		int count = vectors().size();
		Process node;
		try {
			node = new ProcessBuilder("node", ROOT.resolve("docs/opaque/decode.mjs").toString(), VECTORS.toString())
				.redirectErrorStream(true)
				.start();
		}
		catch (IOException ex) {
			fail("Node.js is needed to check the opaque form's specification against a second implementation "
					+ "(apt-get install nodejs; .ci/run installs it): " + ex.getMessage());
			return;
		}
		try {
			assertThat(node.waitFor(120, TimeUnit.SECONDS)).as("node finished within 120 s").isTrue();
			String output = new String(node.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
			assertThat(output).as("node's output").contains(count + " of " + count + " vectors agree");
			assertThat(node.exitValue()).as(output).isZero();
		}
		finally {
			node.destroyForcibly();
		}
	}

}
