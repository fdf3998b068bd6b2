package io.github.uidgen.autoconfigure.text;

import io.github.uidgen.autoconfigure.UidGeneratorAutoConfiguration;
import io.github.uidgen.worker.FixedWorkerIdAssigner;
import io.github.uidgen.worker.WorkerIdAssigner;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.actuate.autoconfigure.context.properties.ConfigurationPropertiesReportEndpointAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.env.EnvironmentEndpointAutoConfiguration;
import org.springframework.boot.actuate.context.properties.ConfigurationPropertiesReportEndpoint;
import org.springframework.boot.actuate.env.EnvironmentEndpoint;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code env} and {@code configprops} endpoints, set to show values, show every {@code uid.text.*} setting but the
 * opaque form's keys, current and previous.
 */
class OpaqueKeyInEndpointsTests {

	private static final String KEY = "kItrTnYmQ3vXpL8sZ1wE5rT7yU9iO0pAsDfGhJkLzXc=";

	private static final String PREVIOUS = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=";

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(UidGeneratorAutoConfiguration.class, UidTextAutoConfiguration.class,
				EnvironmentEndpointAutoConfiguration.class,
				ConfigurationPropertiesReportEndpointAutoConfiguration.class))
		.withBean(WorkerIdAssigner.class, () -> new FixedWorkerIdAssigner(2))
		.withPropertyValues("management.endpoints.web.exposure.include=env,configprops",
				"management.endpoint.env.show-values=always", "management.endpoint.configprops.show-values=always",
				"uid.text.opaque.key=" + KEY, "uid.text.opaque.key-version=c",
				"uid.text.opaque.previous-keys.b=" + PREVIOUS, "uid.text.opaque.tweak=billing");

	@Test
	void theEndpointsShowTheSettingsButNoKey() {
		this.contextRunner.run((context) -> {
			JsonMapper json = JsonMapper.builder().build();
			String env = json.writeValueAsString(context.getBean(EnvironmentEndpoint.class).environment(null));
			String configprops = json.writeValueAsString(
					context.getBean(ConfigurationPropertiesReportEndpoint.class).configurationProperties());
			for (String shown : new String[] { env, configprops }) {
				assertThat(shown).contains("billing").contains("******").doesNotContain(KEY.substring(0, 12))
					.doesNotContain(PREVIOUS.substring(0, 12));
			}
		});
	}

	@Test
	void keysAreKnownByTheirPropertyAndEnvironmentNames() {
		assertThat(OpaqueKeySanitizer.isKey("uid.text.opaque.key")).isTrue();
		assertThat(OpaqueKeySanitizer.isKey("UID_TEXT_OPAQUE_KEY")).isTrue();
		assertThat(OpaqueKeySanitizer.isKey("uid.text.opaque.previous-keys.b")).isTrue();
		assertThat(OpaqueKeySanitizer.isKey("UID_TEXT_OPAQUE_PREVIOUSKEYS_B")).isTrue();
		assertThat(OpaqueKeySanitizer.isKey("uid.text.opaque.key-version")).isFalse();
		assertThat(OpaqueKeySanitizer.isKey("uid.text.opaque.tweak")).isFalse();
	}

}
