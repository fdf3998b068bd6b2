package io.github.uidgen.autoconfigure.text;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.github.uidgen.autoconfigure.UidGeneratorAutoConfiguration;
import io.github.uidgen.worker.FixedWorkerIdAssigner;
import io.github.uidgen.worker.WorkerIdAssigner;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.actuate.autoconfigure.context.properties.ConfigurationPropertiesReportEndpointAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.env.EnvironmentEndpointAutoConfiguration;
import org.springframework.boot.actuate.context.properties.ConfigurationPropertiesReportEndpoint;
import org.springframework.boot.actuate.env.EnvironmentEndpoint;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.support.SpringApplicationJsonEnvironmentPostProcessor;
import org.springframework.boot.test.context.assertj.AssertableWebApplicationContext;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.SimpleCommandLinePropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code env} and {@code configprops} endpoints, set to show values ({@code show-values=always}), show every
 * {@code uid.text.*} setting but the opaque form's keys, current and previous, wherever an operator gave them: as
 * properties, on the command line (which the JVM also keeps in {@code sun.java.command}), in
 * {@code spring.application.json}, in environment variables ({@code SPRING_APPLICATION_JSON}, {@code JAVA_TOOL_OPTIONS}).
 * Each answer is searched for every 6-character piece of each key's text and bytes.
 */
class OpaqueKeyInEndpointsTests {

	private static final String KEY = "kItrTnYmQ3vXpL8sZ1wE5rT7yU9iO0pAsDfGhJkLzXc=";

	/** With a slash and a plus, which JSON may escape and url-safe base64 writes otherwise. */
	private static final String PREVIOUS = "Qw3eR5t/7uI9oP1aS2dF4gH6+jK8lZxCvBnM0qWeRtY=";

	private final WebApplicationContextRunner contextRunner = new WebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(UidGeneratorAutoConfiguration.class, UidTextAutoConfiguration.class,
				EnvironmentEndpointAutoConfiguration.class,
				ConfigurationPropertiesReportEndpointAutoConfiguration.class))
		.withBean(WorkerIdAssigner.class, () -> new FixedWorkerIdAssigner(2))
		.withPropertyValues("management.endpoints.web.exposure.include=env,configprops",
				"management.endpoint.env.show-values=always", "management.endpoint.configprops.show-values=always",
				"uid.text.opaque.tweak=billing", "unrelated.setting=shown-as-it-is");

	@Test
	void keysGivenAsPropertiesAreHidden() {
		this.contextRunner
			.withPropertyValues("uid.text.opaque.key=" + KEY, "uid.text.opaque.key-version=c",
					"uid.text.opaque.previous-keys.b=" + PREVIOUS)
			.run(this::assertNoKeyShown);
	}

	@Test
	void keysOnTheCommandLineAreHiddenThereAndInTheJvmsCommand() {
		String[] args = { "--uid.text.opaque.key=" + KEY, "--uid.text.opaque.key-version=c",
				"--uid.text.opaque.previous-keys.b=" + PREVIOUS };
		this.contextRunner.withSystemProperties("sun.java.command=com.example.Application " + String.join(" ", args))
			.withInitializer(source(new SimpleCommandLinePropertySource(args)))
			.run((context) -> {
				assertNoKeyShown(context);
				assertThat(env(context)).contains("commandLineArgs").contains("sun.java.command");
			});
	}

	@Test
	void keysInSpringApplicationJsonAreHidden() {
		String json = "{\"uid\":{\"text\":{\"opaque\":{\"key\":\"" + KEY + "\",\"key-version\":\"c\","
				+ "\"previous-keys\":{\"b\":\"" + PREVIOUS.replace("/", "\\/") + "\"}}}}}";
		this.contextRunner.withPropertyValues("spring.application.json=" + json)
			.withInitializer(applicationJson())
			.run((context) -> {
				assertNoKeyShown(context);
				assertThat(env(context)).contains("spring.application.json");
			});
	}

	@Test
	void keysInEnvironmentVariablesAreHidden() {
		String json = "{\"uid.text.opaque.previous-keys.b\":\"" + PREVIOUS + "\"}";
		Map<String, Object> variables = Map.of("UID_TEXT_OPAQUE_KEY", KEY, "UID_TEXT_OPAQUE_KEYVERSION", "c",
				"SPRING_APPLICATION_JSON", json, "JAVA_TOOL_OPTIONS",
				"-Xmx1g -Duid.text.opaque.previous-keys.b=" + PREVIOUS);
		this.contextRunner.withInitializer((context) -> context.getEnvironment()
			.getPropertySources()
			.replace(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, new SystemEnvironmentPropertySource(
					StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, variables)))
			.withInitializer(applicationJson())
			.run((context) -> {
				assertNoKeyShown(context);
				assertThat(env(context)).contains("JAVA_TOOL_OPTIONS").contains("SPRING_APPLICATION_JSON");
			});
	}

	private void assertNoKeyShown(AssertableWebApplicationContext context) {
		assertThat(context).hasNotFailed();
		String env = env(context);
		String configprops = JsonMapper.builder()
			.build()
			.writeValueAsString(context.getBean(ConfigurationPropertiesReportEndpoint.class).configurationProperties());
		// The keys are in use: the opaque form was built from them.
		assertThat(context.getBean(io.github.uidgen.text.UidFormats.class).form("opaque").name()).isEqualTo("opaque");
		assertThat(env).contains("shown-as-it-is").contains("billing").contains("******");
		assertThat(configprops).contains("billing").contains("******");
		List<String> pieces = new ArrayList<>(OpaqueKeyNeverPrintedTests.pieces(KEY));
		pieces.addAll(OpaqueKeyNeverPrintedTests.pieces(PREVIOUS));
		for (String piece : pieces) {
			assertThat(env).as("env shows %s of a key", piece).doesNotContain(piece);
			assertThat(configprops).as("configprops shows %s of a key", piece).doesNotContain(piece);
		}
	}

	private static String env(ConfigurableApplicationContext context) {
		return JsonMapper.builder()
			.build()
			.writeValueAsString(context.getBean(EnvironmentEndpoint.class).environment(null));
	}

	private static ApplicationContextInitializer<ConfigurableApplicationContext> source(
			SimpleCommandLinePropertySource source) {
		return (context) -> context.getEnvironment().getPropertySources().addFirst(source);
	}

	/** What SpringApplication does before the context starts, which a context runner leaves out. */
	private static ApplicationContextInitializer<ConfigurableApplicationContext> applicationJson() {
		return (context) -> new SpringApplicationJsonEnvironmentPostProcessor()
			.postProcessEnvironment((ConfigurableEnvironment) context.getEnvironment(), new SpringApplication());
	}

	@Test
	void keysAreKnownByTheirPropertyAndEnvironmentNames() {
		assertThat(OpaqueKeySanitizer.isKey("uid.text.opaque.key")).isTrue();
		assertThat(OpaqueKeySanitizer.isKey("UID_TEXT_OPAQUE_KEY")).isTrue();
		assertThat(OpaqueKeySanitizer.isKey("uid.text.opaque.previous-keys.b")).isTrue();
		assertThat(OpaqueKeySanitizer.isKey("UID_TEXT_OPAQUE_PREVIOUSKEYS_B")).isTrue();
		assertThat(OpaqueKeySanitizer.isKey("uid.text.opaque")).isTrue();
		assertThat(OpaqueKeySanitizer.isKey("uid.text.opaque.key-version")).isFalse();
		assertThat(OpaqueKeySanitizer.isKey("uid.text.opaque.tweak")).isFalse();
	}

}
