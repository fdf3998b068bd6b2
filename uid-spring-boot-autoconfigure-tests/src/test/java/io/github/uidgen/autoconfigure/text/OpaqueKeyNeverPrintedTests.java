package io.github.uidgen.autoconfigure.text;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

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
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * A key of the opaque form is a secret: a start refused for any shape of key prints the property, the key's version
 * and the problem, and not one piece of the key, in the failure (every message and {@code toString} of its chain of
 * causes), in the failure analysis or in any log line (at DEBUG for Spring and uid, where Spring Boot also logs the
 * whole chain of causes). Each shape goes through a real {@code SpringApplication} start, with the key where an
 * operator puts it: on the command line, in {@code spring.application.json}, in an environment variable.
 */
@ExtendWith(OutputCaptureExtension.class)
class OpaqueKeyNeverPrintedTests {

	/** 32 bytes, valid: what a key that is refused for another reason (its version, its place) looks like. */
	private static final String GOOD = "kItrTnYmQ3vXpL8sZ1wE5rT7yU9iO0pAsDfGhJkLzXc=";

	/** A valid current key beside a refused previous one; it is no secret of these tests. */
	private static final String CURRENT = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=";

	/** 48 bytes: too long for AES. */
	private static final String LONG = "kItrTnYmQ3vXpL8sZ1wE5rT7yU9iO0pAsDfGhJkLzXcQw3eR5tY7uI9oP1aS2dF4";

	private static final String KEY = "uid.text.opaque.key";

	private static final String PREVIOUS = "uid.text.opaque.previous-keys";

	/** Where an operator gives a key. */
	enum Source {

		COMMAND_LINE, APPLICATION_JSON, ENVIRONMENT_VARIABLE

	}

	static List<Object[]> refusedKeys() {
		List<Shape> shapes = new ArrayList<>();
		shapes.add(new Shape("not base64", "kItrTnYm!!Q3vXpL8sZ1wE5rT7y*U9iO0pA", "not base64", KEY)
			.with(KEY, Shape.SECRET));
		shapes.add(new Shape("url-safe base64", "kItrTnYm-Q3vXpL8sZ1wE5rT7y_U9iO0pAsDfGhJkLz", "not base64", KEY)
			.with(KEY, Shape.SECRET));
		shapes.add(new Shape("8 bytes (too short)", "kItrTnYmQ3s=", "8 bytes", KEY).with(KEY, Shape.SECRET));
		shapes.add(new Shape("20 bytes", "kItrTnYmQ3vXpL8sZ1wE5rT7yU8=", "20 bytes", KEY).with(KEY, Shape.SECRET));
		shapes.add(new Shape("48 bytes (too long)",
				LONG, "48 bytes", KEY)
			.with(KEY, Shape.SECRET));
		shapes.add(new Shape("a version of two letters", GOOD, "one letter or digit", KEY).with(KEY, Shape.SECRET)
			.with(KEY + "-version", "bc"));
		shapes.add(new Shape("a version that is no letter or digit", GOOD, "one letter or digit", KEY)
			.with(KEY, Shape.SECRET)
			.with(KEY + "-version", "_"));
		shapes.add(new Shape("a previous key of 8 bytes", "kItrTnYmQ3s=", "8 bytes", PREVIOUS + ".b").current()
			.with(PREVIOUS + ".b", Shape.SECRET));
		shapes.add(new Shape("a previous key of 48 bytes",
				LONG, "48 bytes",
				PREVIOUS + ".b")
			.current()
			.with(PREVIOUS + ".b", Shape.SECRET));
		shapes.add(new Shape("a previous key not base64", "kItrTnYm!!Q3vXpL8sZ1wE5rT7y*U9iO0pA", "not base64",
				PREVIOUS + ".b")
			.current()
			.with(PREVIOUS + ".b", Shape.SECRET));
		shapes.add(new Shape("a previous key with a version of two letters", GOOD, "one letter or digit",
				PREVIOUS + ".bc")
			.current()
			.with(PREVIOUS + ".bc", Shape.SECRET));
		shapes.add(new Shape("a previous key under the current key's version", GOOD, "two keys have the version 'c'",
				PREVIOUS + ".c")
			.current()
			.with(PREVIOUS + ".c", Shape.SECRET));
		shapes.add(new Shape("a previous key without a current key", GOOD, "no current key", KEY)
			.with(PREVIOUS + ".b", Shape.SECRET));
		// The operator left out the version: the binder meets a scalar where it expects a map of version to key.
		shapes.add(new Shape("a previous key without its version (a scalar where a map is expected)", GOOD,
				"map of key versions to keys", PREVIOUS)
			.current()
			.with(PREVIOUS, Shape.SECRET));
		// Where only the key was meant: the binder meets a scalar where it expects the group of settings.
		shapes.add(new Shape("the key as uid.text.opaque (a scalar where the group is expected)", GOOD,
				"the group of the opaque form's settings", "uid.text.opaque")
			.with("uid.text.opaque", Shape.SECRET));
		// A map key in brackets may hold any character; an environment variable cannot name this one.
		shapes.add(new Shape("a previous key with a version that is no letter or digit", GOOD, "one letter or digit",
				PREVIOUS + ".!")
			.current()
			.with(PREVIOUS + "[!]", Shape.SECRET)
			.from(Source.COMMAND_LINE, Source.APPLICATION_JSON));
		// Spring Boot binds a list where a map is expected as a map of its indexes: two previous keys of versions
		// 0 and 1, and the start goes on. Nothing is refused, and nothing of the key is printed either.
		shapes.add(new Shape("previous keys as a list (where a map is expected)", GOOD, null, PREVIOUS).current()
			.with(PREVIOUS, List.of(Shape.SECRET, CURRENT)));
		// The key as a list binds no key: the opaque form asked for then has none.
		shapes.add(new Shape("the key as a list", GOOD, "it needs a key", KEY).with(KEY, List.of(Shape.SECRET, CURRENT))
			.with("uid.text.form", "opaque"));
		List<Object[]> cases = new ArrayList<>();
		for (Shape shape : shapes) {
			for (Source source : shape.sources) {
				cases.add(new Object[] { shape.name + ", " + source.name().toLowerCase(Locale.ROOT).replace('_', ' '),
						shape, source });
			}
		}
		return cases;
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("refusedKeys")
	void aRefusedKeyIsNamedByItsPropertyAndNeverPrinted(String name, Shape shape, Source source,
			CapturedOutput output) {
		Throwable failure = catchThrowable(() -> start(shape, source));
		String printed = output.getAll();
		if (shape.problem != null) {
			assertThat(failure).as(name).isNotNull();
			assertThat(printed).as(name)
				.contains("APPLICATION FAILED TO START")
				.contains(shape.problem)
				.contains("Property: " + shape.property)
				.contains("Value: (not shown: keys are secret)")
				.doesNotContain("Value: \"");
		}
		else {
			assertThat(failure).as(name).isNull();
		}
		StringBuilder chain = new StringBuilder();
		Set<Throwable> seen = new LinkedHashSet<>();
		describe(failure, chain, seen);
		String withoutHashes = printed.replaceAll("@[0-9a-f]{4,8}\\b", "@");
		for (String piece : pieces(shape.secret)) {
			assertThat(withoutHashes).as("%s: the output repeats %s of the key", name, piece).doesNotContain(piece);
			assertThat(chain.toString()).as("%s: the failure repeats %s of the key", name, piece)
				.doesNotContain(piece);
		}
	}

	private static void start(Shape shape, Source source) {
		List<String> args = new ArrayList<>(List.of("--logging.level.org.springframework=debug",
				"--logging.level.io.github.uidgen=debug"));
		StandardEnvironment environment = new StandardEnvironment();
		Map<String, Object> variables = new LinkedHashMap<>();
		switch (source) {
			case COMMAND_LINE -> shape.values.forEach((property, value) -> {
				if (value instanceof List<?> list) {
					for (int i = 0; i < list.size(); i++) {
						args.add("--" + property + "[" + i + "]=" + list.get(i));
					}
				}
				else {
					args.add("--" + property + "=" + value);
				}
			});
			case APPLICATION_JSON -> args.add("--spring.application.json=" + json(shape.values));
			case ENVIRONMENT_VARIABLE -> shape.values.forEach((property, value) -> {
				String variable = property.toUpperCase(Locale.ROOT).replace("-", "").replace('.', '_');
				if (value instanceof List<?> list) {
					for (int i = 0; i < list.size(); i++) {
						variables.put(variable + "_" + i, list.get(i));
					}
				}
				else {
					variables.put(variable, value);
				}
			});
		}
		environment.getPropertySources()
			.replace(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, new SystemEnvironmentPropertySource(
					StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, variables));
		new SpringApplicationBuilder(KeyApplication.class).web(WebApplicationType.NONE)
			.environment(environment)
			.run(args.toArray(String[]::new))
			.close();
	}

	private static String json(Map<String, Object> values) {
		StringBuilder json = new StringBuilder("{");
		values.forEach((property, value) -> {
			json.append((json.length() > 1) ? "," : "").append('"').append(property).append("\":");
			if (value instanceof List<?> list) {
				json.append(list.stream().map((item) -> "\"" + item + "\"").toList().toString().replace(" ", ""));
			}
			else {
				json.append('"').append(value).append('"');
			}
		});
		return json.append('}').toString();
	}

	private static void describe(Throwable failure, StringBuilder chain, Set<Throwable> seen) {
		for (Throwable cause = failure; cause != null && seen.add(cause); cause = cause.getCause()) {
			chain.append(cause).append('\n').append(cause.getMessage()).append('\n')
				.append(cause.getLocalizedMessage()).append('\n');
			for (Throwable suppressed : cause.getSuppressed()) {
				describe(suppressed, chain, seen);
			}
		}
	}

	/**
	 * Every 6 characters of the key's text; of its bytes, every 3 bytes in hex (either case) and as Java prints an
	 * array, and every 6 bytes in base64 (cut to 6 characters), whatever offset they start at.
	 */
	static List<String> pieces(String key) {
		Set<String> pieces = new LinkedHashSet<>();
		for (int i = 0; i + 6 <= key.length(); i++) {
			pieces.add(key.substring(i, i + 6));
		}
		try {
			byte[] bytes = Base64.getDecoder().decode(key);
			for (int i = 0; i + 3 <= bytes.length; i++) {
				String hex = HexFormat.of().formatHex(bytes, i, i + 3);
				pieces.add(hex);
				pieces.add(hex.toUpperCase(Locale.ROOT));
				String array = Arrays.toString(Arrays.copyOfRange(bytes, i, i + 3));
				pieces.add(array.substring(1, array.length() - 1));
			}
			for (int i = 0; i + 6 <= bytes.length; i++) {
				pieces.add(Base64.getEncoder().encodeToString(Arrays.copyOfRange(bytes, i, i + 6)).substring(0, 6));
			}
		}
		catch (IllegalArgumentException notBase64) {
			// Its text is all there is to leak.
		}
		return List.copyOf(pieces);
	}

	/** A way to set keys: properties and their values, one of which is the secret searched for. */
	static final class Shape {

		static final String SECRET = "<secret>";

		final String name;

		final String secret;

		final String problem;

		final String property;

		final Map<String, Object> values = new LinkedHashMap<>();

		Set<Source> sources = EnumSet.allOf(Source.class);

		Shape(String name, String secret, String problem, String property) {
			this.name = name;
			this.secret = secret;
			this.problem = problem;
			this.property = property;
		}

		Shape with(String property, Object value) {
			Object resolved = (value instanceof List<?> list)
					? list.stream().map((item) -> SECRET.equals(item) ? this.secret : item).toList()
					: (SECRET.equals(value) ? this.secret : value);
			this.values.put(property, resolved);
			return this;
		}

		Shape from(Source... sources) {
			this.sources = EnumSet.copyOf(List.of(sources));
			return this;
		}

		Shape current() {
			return with(KEY, CURRENT).with(KEY + "-version", "c");
		}

		@Override
		public String toString() {
			return this.name;
		}

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
