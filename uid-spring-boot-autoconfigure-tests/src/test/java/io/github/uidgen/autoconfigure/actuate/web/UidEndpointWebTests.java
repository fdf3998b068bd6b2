package io.github.uidgen.autoconfigure.actuate.web;

import java.net.http.HttpResponse;
import java.time.Instant;

import io.github.uidgen.DecodedUid;
import io.github.uidgen.UidGenerator;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code uid} endpoint over HTTP in a running application: the description, a round trip through parse, and a
 * 400 with a message for every kind of bad input. The layout is 53 bits long, so some longs are out of its range.
 */
@SpringBootTest(classes = UidEndpointTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "management.endpoints.web.exposure.include=uid,health",
				"management.endpoint.health.show-details=always", "uid.worker.assigner=static", "uid.worker.id=9",
				"uid.time-unit=seconds", "uid.time-bits=31", "uid.worker-bits=8", "uid.seq-bits=14" })
class UidEndpointWebTests extends AbstractEndpointWebTests {

	@Autowired
	UidGenerator generator;

	@Test
	void describesTheGenerator() throws Exception {
		this.generator.getUID();
		HttpResponse<String> response = get("/actuator/uid");
		assertThat(response.statusCode()).isEqualTo(200);
		JsonNode body = this.json.readTree(response.body());
		assertThat(body.get("generator").asString()).isEqualTo("default");
		assertThat(body.get("workerId").asLong()).isEqualTo(9);
		assertThat(body.get("assigner").asString()).isEqualTo("static");
		JsonNode layout = body.get("layout");
		assertThat(layout.get("timeUnit").asString()).isEqualTo("seconds");
		assertThat(layout.get("epoch").asString()).isEqualTo("2025-01-01");
		assertThat(layout.get("timeBits").asInt()).isEqualTo(31);
		assertThat(layout.get("workerBits").asInt()).isEqualTo(8);
		assertThat(layout.get("seqBits").asInt()).isEqualTo(14);
		assertThat(layout.get("expiry").asString()).isEqualTo(this.generator.layout().getExpiry().toString());
		assertThat(Instant.parse(body.get("highWaterMark").asString())).isAfter(Instant.now().minusSeconds(60));
		assertThat(body.get("aheadOfClockMillis").asLong()).isNotNegative();
		assertThat(body.get("issued").asLong()).isPositive();
	}

	@Test
	void parsesAGeneratedId() throws Exception {
		long uid = this.generator.getUID();
		HttpResponse<String> response = get("/actuator/uid/parse?uid=" + uid);
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
				(type) -> assertThat(type).contains("json"));
		JsonNode body = this.json.readTree(response.body());
		DecodedUid decoded = this.generator.decode(uid);
		assertThat(body.get("uid").isString()).isTrue();
		assertThat(body.get("uid").asString()).isEqualTo(Long.toString(uid));
		assertThat(Instant.parse(body.get("timestamp").asString())).isEqualTo(decoded.timestamp());
		assertThat(body.get("workerId").asLong()).isEqualTo(9);
		assertThat(body.get("sequence").asLong()).isEqualTo(decoded.sequence());
	}

	@Test
	void nonNumericIdIsABadRequest() throws Exception {
		assertBadRequest("/actuator/uid/parse?uid=abc", "'abc' is not a decimal number");
	}

	@Test
	void emptyIdIsABadRequest() throws Exception {
		assertBadRequest("/actuator/uid/parse?uid=", "empty");
	}

	@Test
	void missingIdIsABadRequest() throws Exception {
		assertBadRequest("/actuator/uid/parse", "missing");
	}

	@Test
	void negativeIdIsABadRequest() throws Exception {
		assertBadRequest("/actuator/uid/parse?uid=-5", "negative");
	}

	@Test
	void idBeyondTheShortLayoutIsABadRequest() throws Exception {
		assertBadRequest("/actuator/uid/parse?uid=" + (1L << 53), "beyond this layout");
	}

	@Test
	void idBeyondALongIsABadRequest() throws Exception {
		assertBadRequest("/actuator/uid/parse?uid=123456789012345678901234567890", "out of range");
	}

	@Test
	void unknownOperationIsNotFound() throws Exception {
		HttpResponse<String> response = get("/actuator/uid/decode?uid=1");
		assertThat(response.statusCode()).isEqualTo(404);
		assertThat(this.json.readTree(response.body()).get("message").asString())
			.contains("/actuator/uid/parse?uid=");
	}

	@Test
	void anIdInThePathIsNotFoundWithAPointerToTheParameter() throws Exception {
		for (String path : new String[] { "/actuator/uid/parse/250085535756849154", "/actuator/uid/parse/a/b" }) {
			HttpResponse<String> response = get(path);
			assertThat(response.statusCode()).as(path).isEqualTo(404);
			assertThat(this.json.readTree(response.body()).get("message").asString()).as(path)
				.contains("/actuator/uid/parse?uid=");
		}
	}

	@Test
	void healthShowsTheUidComponent() throws Exception {
		HttpResponse<String> response = get("/actuator/health");
		assertThat(response.statusCode()).isEqualTo(200);
		JsonNode uid = this.json.readTree(response.body()).get("components").get("uid");
		assertThat(uid.get("status").asString()).isEqualTo("UP");
		assertThat(uid.get("details").get("expiry").asString())
			.isEqualTo(this.generator.layout().getExpiry().toString());
		assertThat(uid.get("details").get("workerId").asLong()).isEqualTo(9);
	}

}
