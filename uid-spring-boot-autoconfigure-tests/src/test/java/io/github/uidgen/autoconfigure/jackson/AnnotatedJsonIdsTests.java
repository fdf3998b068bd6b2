package io.github.uidgen.autoconfigure.jackson;

import java.net.http.HttpResponse;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Without the global switch: the {@code @UidAsString} ID goes out as a string, other longs as numbers, and both
 * forms are read back.
 */
@SpringBootTest(classes = JsonIdsTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "uid.worker.assigner=static", "uid.worker.id=4",
				"uid.worker.static.state-file=target/uid-state/json-ids-annotated-4.state" })
class AnnotatedJsonIdsTests extends AbstractJsonIdsTests {

	private static final Pattern BODY = Pattern.compile("\\{\"id\":\"(\\d+)\",\"quantity\":3,\"item\":\"book\"}");

	@Test
	void theAnnotatedIdIsAStringAndTheQuantityANumber() throws Exception {
		HttpResponse<String> response = get("/orders/new");
		assertThat(response.statusCode()).isEqualTo(200);
		Matcher body = BODY.matcher(response.body());
		assertThat(body.matches()).as(response.body()).isTrue();
		long id = Long.parseLong(body.group(1));
		assertThat(id).isGreaterThan(1L << 53);
		assertThat(this.generator.decode(id).workerId()).isEqualTo(4);
	}

	@Test
	void idsAreReadFromStringsAndNumbers() throws Exception {
		String asString = post("/orders/echo", "{\"id\":\"9007199254740993\",\"quantity\":1,\"item\":\"pen\"}").body();
		String asNumber = post("/orders/echo", "{\"id\":9007199254740993,\"quantity\":1,\"item\":\"pen\"}").body();
		assertThat(asString).isEqualTo("{\"id\":\"9007199254740993\",\"quantity\":1,\"item\":\"pen\"}")
			.isEqualTo(asNumber);
	}

	@Test
	void eachIdOfAnAnnotatedListIsAString() throws Exception {
		HttpResponse<String> response = get("/orders/batch");
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.body()).matches("\\{\"ids\":\\[\"\\d+\",\"\\d+\"],\"count\":2}");
		String echoed = post("/orders/batch/echo", "{\"ids\":[\"9007199254740993\",7],\"count\":2}").body();
		assertThat(echoed).isEqualTo("{\"ids\":[\"9007199254740993\",\"7\"],\"count\":2}");
	}

	@Test
	void anIdThatIsNotANumberAnswers400() throws Exception {
		HttpResponse<String> response = post("/orders/batch/echo", "{\"ids\":[\"12x\"],\"count\":1}");
		assertThat(response.statusCode()).isEqualTo(400);
	}

}
