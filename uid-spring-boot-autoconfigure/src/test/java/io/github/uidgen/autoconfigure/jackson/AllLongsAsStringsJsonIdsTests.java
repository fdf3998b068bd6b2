package io.github.uidgen.autoconfigure.jackson;

import java.net.http.HttpResponse;

import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * With {@code uid.jackson.write-longs-as-strings=true}: every long goes out as a string.
 */
@SpringBootTest(classes = JsonIdsTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "uid.worker.assigner=static", "uid.worker.id=5",
				"uid.worker.static.state-file=target/uid-state/json-ids-all-5.state",
				"uid.jackson.write-longs-as-strings=true" })
class AllLongsAsStringsJsonIdsTests extends AbstractJsonIdsTests {

	@Test
	void everyLongIsAString() throws Exception {
		HttpResponse<String> response = get("/orders/new");
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.body()).matches("\\{\"id\":\"\\d+\",\"quantity\":\"3\",\"item\":\"book\"}");
	}

	@Test
	void longsAreReadFromStringsAndNumbers() throws Exception {
		String body = post("/orders/echo", "{\"id\":9007199254740993,\"quantity\":\"2\",\"item\":\"pen\"}").body();
		assertThat(body).isEqualTo("{\"id\":\"9007199254740993\",\"quantity\":\"2\",\"item\":\"pen\"}");
	}

}
