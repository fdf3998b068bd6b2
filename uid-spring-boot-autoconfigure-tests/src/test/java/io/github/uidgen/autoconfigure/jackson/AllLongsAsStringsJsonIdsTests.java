package io.github.uidgen.autoconfigure.jackson;

import java.net.http.HttpResponse;

import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * With {@code uid.jackson.write-longs-as-strings=true}: every long of the application's JSON goes out as a string,
 * and the actuator's own answers keep their numbers.
 */
@SpringBootTest(classes = JsonIdsTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "uid.worker.assigner=static", "uid.worker.id=5",
				"uid.worker.static.state-file=target/uid-state/json-ids-all-5.state",
				"uid.jackson.write-longs-as-strings=true", "management.endpoints.web.exposure.include=uid,health",
				"management.endpoint.health.show-details=always" })
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

	@Test
	void theUidEndpointKeepsItsNumbers() throws Exception {
		long id = this.generator.getUID();
		HttpResponse<String> described = get("/actuator/uid");
		assertThat(described.statusCode()).isEqualTo(200);
		assertThat(described.body()).contains("\"workerId\":5,").contains("\"timeBits\":41,");
		HttpResponse<String> parsed = get("/actuator/uid/parse?uid=" + id);
		assertThat(parsed.statusCode()).isEqualTo(200);
		assertThat(parsed.body()).startsWith("{\"uid\":\"" + id + "\",")
			.contains("\"workerId\":5,")
			.containsPattern("\"sequence\":\\d+,\"form\":\"decimal\",\"issuedBy\":\\{\"instanceId\":\"[^\"]+\",");
		HttpResponse<String> refused = get("/actuator/uid/parse?uid=x");
		assertThat(refused.statusCode()).isEqualTo(400);
		assertThat(refused.body()).contains("\"status\":400,");
	}

	@Test
	void healthKeepsItsNumbers() throws Exception {
		HttpResponse<String> health = get("/actuator/health/uid");
		assertThat(health.statusCode()).isEqualTo(200);
		assertThat(health.body()).contains("\"workerId\":5");
	}

}
