package io.github.uidgen.autoconfigure.text;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import io.github.uidgen.UidGenerator;
import io.github.uidgen.text.UidFormats;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The same controller in a WebFlux application: path variables and request parameters in their forms, and 400 with
 * the reason for text that is not of the form.
 */
@SpringBootTest(classes = TextIdsTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "spring.main.web-application-type=reactive", "uid.worker.assigner=static", "uid.worker.id=12",
				"uid.worker.static.state-file=target/uid-state/text-ids-webflux-12.state", "uid.text.form=radix36",
				"uid.text.opaque.key=q83vEjRWeJCrze8SNFZ4kKvN7xI0VniQq83vEjRWeJA=" })
class TextIdsWebFluxTests {

	private final HttpClient http = HttpClient.newHttpClient();

	@LocalServerPort
	int port;

	@Autowired
	UidGenerator generator;

	@Autowired
	UidFormats formats;

	@Test
	void idsAreReadInTheirFormsAndBadTextAnswers400WithTheReason() throws Exception {
		long id = this.generator.getUID();
		String opaque = this.formats.form(UidFormats.OPAQUE).format(id);
		assertThat(get("/orders/ORD_" + opaque).body()).isEqualTo(Long.toString(id));
		assertThat(get("/orders?id=" + Long.toString(id, 36).toUpperCase()).body()).isEqualTo(Long.toString(id));
		HttpResponse<String> wrongPrefix = get("/orders/INV_" + opaque);
		assertThat(wrongPrefix.statusCode()).isEqualTo(400);
		assertThat(wrongPrefix.headers().firstValue("Content-Type")).hasValue("application/problem+json");
		assertThat(wrongPrefix.body()).contains("\"parameter\":\"number\"").contains("does not start with 'ORD_'");
		HttpResponse<String> badCharacter = get("/orders?id=abc_");
		assertThat(badCharacter.statusCode()).isEqualTo(400);
		assertThat(badCharacter.body()).contains("'_' at position 4 is not one of its digits");
	}

	private HttpResponse<String> get(String path) throws Exception {
		return this.http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + path)).GET().build(),
				HttpResponse.BodyHandlers.ofString());
	}

}
