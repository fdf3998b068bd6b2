package io.github.uidgen.autoconfigure.text;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import io.github.uidgen.UidGenerator;
import io.github.uidgen.text.UidFormats;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What Spring MVC and WebFlux both do with IDs as text in {@link TextIdsTestApplication}: path variables and request
 * parameters read in their forms, and 400 with the reason, as an RFC 9457 problem, for text that is not of the form
 * (including a plain number where another form is asked for, which Spring's own number conversion would take).
 */
abstract class AbstractTextIdsWebTests {

	private final HttpClient http = HttpClient.newHttpClient();

	@LocalServerPort
	int port;

	@Autowired
	UidGenerator generator;

	@Autowired
	UidFormats formats;

	@Test
	void idsAreReadInTheFormsOfTheirParameters() throws Exception {
		long id = this.generator.getUID();
		String opaque = this.formats.form(UidFormats.OPAQUE).format(id);
		assertThat(get("/orders/ORD_" + opaque).body()).isEqualTo(Long.toString(id));
		assertThat(get("/orders?id=" + this.formats.defaultForm().format(id)).body()).isEqualTo(Long.toString(id));
		assertThat(get("/secret/" + opaque).body()).isEqualTo(Long.toString(id));
		String other = this.formats.form(UidFormats.OPAQUE).format(id + 1);
		assertThat(get("/secrets?ids=" + opaque + "," + other).body()).isEqualTo("[" + id + ", " + (id + 1) + "]");
	}

	@Test
	void aWrongPrefixAnswers400WithTheReason() throws Exception {
		HttpResponse<String> wrongPrefix = get("/orders/INV_4fR9x2KpQ0b");
		assertThat(wrongPrefix.statusCode()).isEqualTo(400);
		assertThat(wrongPrefix.headers().firstValue("Content-Type")).hasValueSatisfying(
				(type) -> assertThat(type).startsWith("application/problem+json"));
		assertThat(wrongPrefix.body()).contains("\"status\":400")
			.contains("\"parameter\":\"number\"")
			.contains("does not start with 'ORD_'");
	}

	@Test
	void everyOpaqueTextThatDoesNotDecodeAnswers400WithTheSameWords() throws Exception {
		String valid = this.formats.form(UidFormats.OPAQUE).format(this.generator.getUID());
		// A key version the service does not have, wrong lengths, a character outside the alphabet, digits beyond
		// the layout's 63 bits (its largest ID is AzL8n0Y58m7 in radix 62).
		List<String> texts = List.of("x" + valid, "0" + valid, valid.substring(1), "abc", valid + valid,
				valid.substring(0, 10) + "-", "zzzzzzzzzzz", "AzL8n0Y58m8");
		Set<String> answers = new LinkedHashSet<>();
		for (String text : texts) {
			HttpResponse<String> response = get("/secret/" + text);
			assertThat(response.statusCode()).as(text).isEqualTo(400);
			assertThat(response.body()).as(text)
				.contains("\"detail\":\"Parameter 'id': '" + text + "' is not an opaque ID: it is not a valid ID of "
						+ "this service\"");
			answers.add(response.body().replace(text, "<text>"));
		}
		assertThat(answers).hasSize(1);
	}

	@Test
	void aPlainNumberIsNotTakenWhereAnotherFormIsAsked() throws Exception {
		long id = this.generator.getUID();
		assertBadRequest("/orders/ORD_" + id, "\"parameter\":\"number\"", "it is not a valid ID of this service");
		assertBadRequest("/secret/" + id, "\"parameter\":\"id\"", "is not an opaque ID");
		assertBadRequest("/secret/12", "is not an opaque ID");
		assertBadRequest("/secret/-7", "is not an opaque ID");
		// Numbers Spring's number conversion reads (with a sign, in hexadecimal) that are no text of the default form.
		for (String number : new String[] { "-5", "+5", "#FF" }) {
			assertBadRequest("/orders?id=" + URLEncoder.encode(number, StandardCharsets.UTF_8), "\"parameter\":\"id\"",
					"'" + number + "' is not a " + this.formats.defaultForm().name() + " ID");
		}
		String opaque = this.formats.form(UidFormats.OPAQUE).format(id);
		assertBadRequest("/secrets?ids=" + id, "\"parameter\":\"ids\"", "'" + id + "' is not an opaque ID");
		assertBadRequest("/secrets?ids=" + opaque + "," + id, "'" + id + "' is not an opaque ID");
	}

	void assertBadRequest(String path, String... parts) throws Exception {
		HttpResponse<String> response = get(path);
		assertThat(response.statusCode()).as(path).isEqualTo(400);
		assertThat(response.body()).as(path).contains("\"title\":\"Invalid ID\"").contains(parts);
	}

	HttpResponse<String> get(String path) throws Exception {
		return this.http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + path)).GET().build(),
				HttpResponse.BodyHandlers.ofString());
	}

}
