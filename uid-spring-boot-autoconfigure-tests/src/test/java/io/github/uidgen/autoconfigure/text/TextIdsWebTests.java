package io.github.uidgen.autoconfigure.text;

import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.github.uidgen.text.UidFormats;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The controller of {@link TextIdsTestApplication} in a Spring MVC application with {@code uid.text.*} set: JSON in
 * the default form (fixed-width radix 62) and the opaque form, fixed-width texts of another length refused, and
 * {@code /actuator/uid/parse} reading any configured form.
 */
@SpringBootTest(classes = TextIdsTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "uid.worker.assigner=static", "uid.worker.id=11",
				"uid.worker.static.state-file=target/uid-state/text-ids-11.state", "uid.text.form=radix62",
				"uid.text.fixed-width=true", "uid.text.opaque.key=q83vEjRWeJCrze8SNFZ4kKvN7xI0VniQq83vEjRWeJA=",
				"management.endpoints.web.exposure.include=uid", "management.endpoint.uid.parse-opaque=true" })
class TextIdsWebTests extends AbstractTextIdsWebTests {

	private static final Pattern ORDER = Pattern
		.compile("\\{\"id\":\"([0-9A-Za-z]{11})\",\"number\":\"ORD_([0-9A-Za-z]{11})\"}");

	@Test
	void jsonIdsAreInTheirFormsAndReadBackThroughPathAndParameter() throws Exception {
		HttpResponse<String> created = get("/orders/new");
		assertThat(created.statusCode()).isEqualTo(200);
		Matcher order = ORDER.matcher(created.body());
		assertThat(order.matches()).as(created.body()).isTrue();
		long id = this.formats.form(UidFormats.RADIX62).parse(order.group(1));
		assertThat(this.generator.decode(id).workerId()).isEqualTo(11);
		assertThat(get("/orders/ORD_" + order.group(2)).body()).isEqualTo(Long.toString(id));
		assertThat(get("/orders?id=" + order.group(1)).body()).isEqualTo(Long.toString(id));
	}

	@Test
	void fixedWidthTextOfAnotherLengthOrWithABadCharacterAnswers400() throws Exception {
		HttpResponse<String> badCharacter = get("/orders?id=" + URLEncoder.encode("0000000000!", StandardCharsets.UTF_8));
		assertThat(badCharacter.statusCode()).isEqualTo(400);
		assertThat(badCharacter.body()).contains("\"parameter\":\"id\"")
			.contains("'!' at position 11 is not one of its digits");
		HttpResponse<String> shortText = get("/orders?id=abc");
		assertThat(shortText.statusCode()).isEqualTo(400);
		assertThat(shortText.body()).contains("every ID of this form has 11");
	}

	@Test
	void theEndpointRefusesEveryOpaqueTextThatDoesNotDecodeWithTheSameWords() throws Exception {
		String valid = this.formats.form(UidFormats.OPAQUE).format(this.generator.getUID());
		List<String> texts = List.of("x" + valid, "0" + valid, valid.substring(1), "abc", valid + valid,
				valid.substring(0, 10) + "-", "zzzzzzzzzzz", "AzL8n0Y58m8");
		Set<String> answers = new LinkedHashSet<>();
		for (String text : texts) {
			HttpResponse<String> response = get("/actuator/uid/parse?form=opaque&uid=" + text);
			assertThat(response.statusCode()).as(text).isEqualTo(400);
			assertThat(response.body()).as(text)
				.contains("'" + text + "' is not an opaque ID: it is not a valid ID of this service");
			answers.add(response.body().replace(text, "<text>"));
		}
		assertThat(answers).hasSize(1);
	}

	@Test
	void theEndpointParsesEveryConfiguredForm() throws Exception {
		long id = this.generator.getUID();
		for (String form : this.formats.names()) {
			String text = this.formats.form(form).format(id);
			HttpResponse<String> parsed = get("/actuator/uid/parse?form=" + form + "&uid="
					+ URLEncoder.encode(text, StandardCharsets.UTF_8));
			assertThat(parsed.statusCode()).as(form).isEqualTo(200);
			assertThat(parsed.body()).as(form)
				.startsWith("{\"uid\":\"" + id + "\",")
				.contains("\"workerId\":11,")
				.contains("\"form\":\"" + this.formats.form(form).name() + "\"");
		}
		String defaultForm = this.formats.defaultForm().format(id);
		assertThat(get("/actuator/uid/parse?uid=" + defaultForm).body()).contains("\"uid\":\"" + id + "\"")
			.contains("\"form\":\"radix62-fixed\"");
		assertThat(get("/actuator/uid/parse?uid=" + id).body()).contains("\"form\":\"decimal\"");
		HttpResponse<String> unknown = get("/actuator/uid/parse?form=base64&uid=x");
		assertThat(unknown.statusCode()).isEqualTo(400);
		assertThat(unknown.body()).contains("There is no text form 'base64'; the forms are decimal, radix62, "
				+ "radix36, readable, opaque");
	}

}
