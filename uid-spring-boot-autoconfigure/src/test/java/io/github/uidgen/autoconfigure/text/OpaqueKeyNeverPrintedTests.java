package io.github.uidgen.autoconfigure.text;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;

import io.github.uidgen.autoconfigure.UidGeneratorAutoConfiguration;
import io.github.uidgen.worker.FixedWorkerIdAssigner;
import io.github.uidgen.worker.WorkerIdAssigner;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * A key of the opaque form is a secret: a start refused for any shape of key prints the property, the key's version
 * and the problem, and not one piece of the key, in the failure, in the failure analysis or in any log line (at
 * DEBUG, where Spring Boot also logs the whole chain of causes). Each shape goes through a real
 * {@code SpringApplication} start, with the key on the command line as an operator passes it.
 */
@ExtendWith(OutputCaptureExtension.class)
class OpaqueKeyNeverPrintedTests {

	/** 32 bytes, valid: what a key that is refused for another reason (its version, its place) looks like. */
	private static final String GOOD = "kItrTnYmQ3vXpL8sZ1wE5rT7yU9iO0pAsDfGhJkLzXc=";

	static List<Object[]> refusedKeys() {
		List<Object[]> shapes = new ArrayList<>();
		shapes.add(shape("not base64", "uid.text.opaque.key", "kItrTnYm!!Q3vXpL8sZ1wE5rT7y*U9iO0pA",
				"not base64"));
		shapes.add(shape("url-safe base64", "uid.text.opaque.key", "kItrTnYm-Q3vXpL8sZ1wE5rT7y_U9iO0pAsDfGhJkLz",
				"not base64"));
		shapes.add(shape("8 bytes", "uid.text.opaque.key", "kItrTnYmQ3s=", "8 bytes"));
		shapes.add(shape("20 bytes", "uid.text.opaque.key", "kItrTnYmQ3vXpL8sZ1wE5rT7yU8=", "20 bytes"));
		shapes.add(shape("a version of two letters", "uid.text.opaque.key", GOOD, "one letter or digit",
				"--uid.text.opaque.key-version=bc"));
		shapes.add(shape("a previous key of 8 bytes", "uid.text.opaque.previous-keys.b", "kItrTnYmQ3s=", "8 bytes",
				"--uid.text.opaque.key=AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=",
				"--uid.text.opaque.key-version=c"));
		shapes.add(shape("a previous key with a version of two letters", "uid.text.opaque.previous-keys.bc", GOOD,
				"one letter or digit", "--uid.text.opaque.key=AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=",
				"--uid.text.opaque.key-version=c"));
		shapes.add(shape("a previous key under the current key's version", "uid.text.opaque.previous-keys.c", GOOD,
				"two keys have the version 'c'", "--uid.text.opaque.key=AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=",
				"--uid.text.opaque.key-version=c"));
		shapes.add(shape("a previous key without a current key", "uid.text.opaque.previous-keys.b", GOOD,
				"Property: uid.text.opaque.key"));
		return shapes;
	}

	private static Object[] shape(String name, String property, String key, String problem, String... more) {
		return new Object[] { name, property, key, problem, more };
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("refusedKeys")
	void aRefusedKeyIsNamedByItsPropertyAndNeverPrinted(String shape, String property, String key, String problem,
			String[] more, CapturedOutput output) {
		List<String> args = new ArrayList<>(List.of("--" + property + "=" + key, "--logging.level.root=debug"));
		args.addAll(Arrays.asList(more));
		Throwable failure = catchThrowable(() -> new SpringApplicationBuilder(KeyApplication.class)
			.web(WebApplicationType.NONE)
			.run(args.toArray(String[]::new))
			.close());
		assertThat(failure).as(shape).isNotNull();
		String printed = output.getAll();
		assertThat(printed).contains("APPLICATION FAILED TO START").contains(problem);
		if (!problem.startsWith("Property: ")) {
			assertThat(printed).contains("Property: " + property);
		}
		StringBuilder chain = new StringBuilder();
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			chain.append(cause).append('\n');
			for (Throwable suppressed : cause.getSuppressed()) {
				chain.append(suppressed).append('\n');
			}
		}
		for (String piece : pieces(key)) {
			assertThat(printed).as("%s: the output repeats %s of the key", shape, piece).doesNotContain(piece);
			assertThat(chain.toString()).as("%s: the failure repeats %s of the key", shape, piece)
				.doesNotContain(piece);
		}
	}

	/** The key's text in pieces of 8 characters, and its bytes as hex and as Java prints an array. */
	private static List<String> pieces(String key) {
		List<String> pieces = new ArrayList<>();
		for (int i = 0; i + 8 <= key.length(); i += 4) {
			pieces.add(key.substring(i, i + 8));
		}
		pieces.add(key.substring(key.length() - 8));
		try {
			byte[] bytes = Base64.getDecoder().decode(key);
			String hex = HexFormat.of().formatHex(bytes);
			for (int i = 0; i + 12 <= hex.length(); i += 6) {
				pieces.add(hex.substring(i, i + 12));
				pieces.add(hex.substring(i, i + 12).toUpperCase(Locale.ROOT));
			}
			pieces.add(Arrays.toString(Arrays.copyOf(bytes, 4)).replace("]", ""));
		}
		catch (IllegalArgumentException notBase64) {
			// Its text is all there is to leak.
		}
		return pieces;
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ UidGeneratorAutoConfiguration.class, UidTextAutoConfiguration.class })
	static class KeyApplication {

		@Bean
		WorkerIdAssigner workerIdAssigner() {
			return new FixedWorkerIdAssigner(3);
		}

	}

}
