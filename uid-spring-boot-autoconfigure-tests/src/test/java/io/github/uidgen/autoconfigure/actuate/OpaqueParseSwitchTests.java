package io.github.uidgen.autoconfigure.actuate;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import io.github.uidgen.UidGenerator;
import io.github.uidgen.autoconfigure.UidGeneratorAutoConfiguration;
import io.github.uidgen.autoconfigure.text.UidTextAutoConfiguration;
import io.github.uidgen.text.UidFormats;
import io.github.uidgen.worker.FixedWorkerIdAssigner;
import io.github.uidgen.worker.WorkerIdAssigner;
import org.junit.jupiter.api.Test;

import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code /actuator/uid/parse} turns an opaque text back into its ID, time and worker only when
 * {@code management.endpoint.uid.parse-opaque} is on: by default whoever reaches the endpoint learns nothing an opaque
 * text hides, whether the form is named or is the default form.
 */
class OpaqueParseSwitchTests {

	private static final String KEY = "q83vEjRWeJCrze8SNFZ4kKvN7xI0VniQq83vEjRWeJA=";

	private static final String OTHER_KEY = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=";

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(UidGeneratorAutoConfiguration.class, UidTextAutoConfiguration.class,
				UidEndpointAutoConfiguration.class))
		.withBean(WorkerIdAssigner.class, () -> new FixedWorkerIdAssigner(5))
		.withPropertyValues("management.endpoints.web.exposure.include=uid", "uid.text.opaque.key=" + KEY);

	@Test
	void anOpaqueTextIsNotDecodedByDefault() {
		this.contextRunner.run((context) -> {
			long uid = context.getBean(UidGenerator.class).getUID();
			String text = context.getBean(UidFormats.class).form("opaque").format(uid);
			WebEndpointResponse<Object> response = context.getBean(UidEndpoint.class).parse("parse", text, "opaque");
			assertThat(response.getStatus()).isEqualTo(403);
			assertThat(response.getBody().toString()).contains("management.endpoint.uid.parse-opaque")
				.doesNotContain(Long.toString(uid));
			// The other forms are read as before.
			assertThat(context.getBean(UidEndpoint.class).parse("parse", Long.toString(uid), "decimal").getStatus())
				.isEqualTo(200);
		});
	}

	@Test
	void anOpaqueDefaultFormIsNotTriedByDefault() {
		this.contextRunner.withPropertyValues("uid.text.form=opaque", "uid.text.prefix=ORD_").run((context) -> {
			long uid = context.getBean(UidGenerator.class).getUID();
			String text = context.getBean(UidFormats.class).defaultForm().format(uid);
			UidEndpoint endpoint = context.getBean(UidEndpoint.class);
			WebEndpointResponse<Object> response = endpoint.parse("parse", text);
			assertThat(response.getStatus()).isEqualTo(400);
			assertThat(response.getBody().toString()).contains("management.endpoint.uid.parse-opaque")
				.doesNotContain(Long.toString(uid));
			assertThat(endpoint.parse("parse", text, "opaque").getStatus()).isEqualTo(403);
			assertThat(endpoint.parse("parse", Long.toString(uid)).getStatus()).isEqualTo(200);
		});
	}

	@Test
	void theSettingTurnsDecodingOn() {
		this.contextRunner
			.withPropertyValues("management.endpoint.uid.parse-opaque=true", "uid.text.form=opaque",
					"uid.text.prefix=ORD_")
			.run((context) -> {
				long uid = context.getBean(UidGenerator.class).getUID();
				UidFormats formats = context.getBean(UidFormats.class);
				UidEndpoint endpoint = context.getBean(UidEndpoint.class);
				WebEndpointResponse<Object> named = endpoint.parse("parse", formats.form("opaque").format(uid),
						"opaque");
				assertThat(named.getStatus()).isEqualTo(200);
				assertThat(((UidEndpoint.ParsedUid) named.getBody()).uid()).isEqualTo(Long.toString(uid));
				WebEndpointResponse<Object> byDefault = endpoint.parse("parse", formats.defaultForm().format(uid));
				assertThat(((UidEndpoint.ParsedUid) byDefault.getBody()).workerId()).isEqualTo(5);
			});
	}

	@Test
	void everyTextThatDoesNotDecodeIsRefusedWithTheSameWordsNamedOrByDefault() {
		this.contextRunner
			.withPropertyValues("management.endpoint.uid.parse-opaque=true", "uid.text.form=opaque",
					"uid.text.opaque.key-version=c", "uid.text.opaque.previous-keys.b=" + OTHER_KEY)
			.run((context) -> {
				UidEndpoint endpoint = context.getBean(UidEndpoint.class);
				String valid = context.getBean(UidFormats.class).form("opaque").format(12345);
				// A key version the service does not have, wrong lengths, a character outside the alphabet, digits
				// beyond the layout's 63 bits, and (for the default form, read as decimal next) a number too large.
				List<String> texts = List.of("x" + valid, "0" + valid.substring(1), valid.substring(1), "abc",
						valid + valid, valid.substring(0, 11) + "-", "czzzzzzzzzzz", "cAzL8n0Y58m8",
						"99999999999999999999");
				Set<String> named = new LinkedHashSet<>();
				Set<String> byDefault = new LinkedHashSet<>();
				for (String text : texts) {
					WebEndpointResponse<Object> response = endpoint.parse("parse", text, "opaque");
					assertThat(response.getStatus()).as(text).isEqualTo(400);
					assertThat(response.getBody().toString()).as(text)
						.contains("'" + text + "' is not an opaque ID: it is not a valid ID of this service");
					named.add(response.getBody().toString().replace(text, "<text>"));
					WebEndpointResponse<Object> defaultForm = endpoint.parse("parse", text);
					assertThat(defaultForm.getStatus()).as(text).isEqualTo(400);
					byDefault.add(defaultForm.getBody().toString().replace(text, "<text>"));
				}
				assertThat(named).hasSize(1);
				assertThat(byDefault).singleElement()
					.asString()
					.contains("it is not a valid ID of this service; nor is it a decimal ID of this service")
					.doesNotContain("9223372036854775807");
			});
	}

}
