package io.github.uidgen.autoconfigure.text;

import java.net.http.HttpResponse;

import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The controller of {@link TextIdsTestApplication} in a WebFlux application, with radix 36 (read in either case) as
 * the default form.
 */
@SpringBootTest(classes = TextIdsTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "spring.main.web-application-type=reactive", "uid.worker.assigner=static", "uid.worker.id=12",
				"uid.worker.static.state-file=target/uid-state/text-ids-webflux-12.state", "uid.text.form=radix36",
				"uid.text.opaque.key=q83vEjRWeJCrze8SNFZ4kKvN7xI0VniQq83vEjRWeJA=" })
class TextIdsWebFluxTests extends AbstractTextIdsWebTests {

	@Test
	void radix36IsReadInEitherCaseAndABadCharacterAnswers400() throws Exception {
		long id = this.generator.getUID();
		assertThat(get("/orders?id=" + Long.toString(id, 36).toUpperCase()).body()).isEqualTo(Long.toString(id));
		HttpResponse<String> badCharacter = get("/orders?id=abc_");
		assertThat(badCharacter.statusCode()).isEqualTo(400);
		assertThat(badCharacter.headers().firstValue("Content-Type")).hasValue("application/problem+json");
		assertThat(badCharacter.body()).contains("'_' at position 4 is not one of its digits");
	}

}
