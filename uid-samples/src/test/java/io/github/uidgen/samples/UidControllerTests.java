package io.github.uidgen.samples;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.config.YamlProcessor.MatchStatus;
import org.springframework.beans.factory.config.YamlPropertiesFactoryBean;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.core.io.ClassPathResource;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The HTTP contract of the sample in one running application (default profile, state file in a temp directory):
 * IDs as text and as JSON strings, in every text form, 400 with a message for every bad batch size and unknown
 * form, the actuator endpoints exposed.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "uid.text.opaque.key=q83vEjRWeJCrze8SNFZ4kKvN7xI0VniQq83vEjRWeJA=",
				"management.endpoint.uid.parse-opaque=true" })
class UidControllerTests {

	private static final JsonMapper json = JsonMapper.builder().build();

	private final HttpClient http = HttpClient.newHttpClient();

	@LocalServerPort
	private int port;

	@LocalManagementPort
	private int managementPort;

	@DynamicPropertySource
	static void stateFileInTempDirectory(DynamicPropertyRegistry registry) throws IOException {
		Path dir = Files.createTempDirectory("uid-samples-tests");
		registry.add("uid.worker.static.state-file", () -> dir.resolve("worker-1.state").toString());
	}

	@Test
	void leafsUrlsAreNotThereUnlessSwitchedOn() throws Exception {
		assertThat(get("/api/snowflake/get/k").statusCode()).isEqualTo(404);
		assertThat(get("/api/segment/get/k").statusCode()).isEqualTo(404);
		assertThat(get("/decodeSnowflakeId?snowflakeId=1").statusCode()).isEqualTo(404);
	}

	@Test
	void uidIsOnePositiveDecimalAsPlainText() throws Exception {
		HttpResponse<String> response = get("/uid");
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
				(type) -> assertThat(type).startsWith("text/plain"));
		assertThat(response.body()).matches("[1-9][0-9]*");
		assertThat(Long.parseLong(response.body())).isPositive();
	}

	@ParameterizedTest
	@ValueSource(strings = { "decimal", "radix62", "radix36", "readable", "opaque" })
	void uidInEachTextFormReadsBackThroughTheEndpoint(String format) throws Exception {
		HttpResponse<String> response = get("/uid?format=" + format);
		assertThat(response.statusCode()).isEqualTo(200);
		String text = response.body();
		switch (format) {
			case "radix62" -> assertThat(text).matches("[0-9A-Za-z]{1,11}");
			case "radix36" -> assertThat(text).matches("[0-9a-z]{1,13}");
			case "readable" -> assertThat(text).matches("\\d{8}T\\d{6}\\.\\d{3}-1-\\d+");
			case "opaque" -> assertThat(text).matches("[0-9A-Za-z]{11}");
			default -> assertThat(text).matches("[1-9][0-9]*");
		}
		HttpResponse<String> parsed = actuator("/actuator/uid/parse?form=" + format + "&uid=" + text);
		assertThat(parsed.statusCode()).as(parsed.body()).isEqualTo(200);
		assertThat(json.readTree(parsed.body()).get("workerId").asLong()).isEqualTo(1);
		HttpResponse<String> batch = get("/uid/batch?size=2&format=" + format);
		assertThat(json.readTree(batch.body()).size()).isEqualTo(2);
	}

	@Test
	void anUnknownFormatAnswers400NamingTheForms() throws Exception {
		HttpResponse<String> response = get("/uid?format=base64");
		assertThat(response.statusCode()).isEqualTo(400);
		JsonNode problem = json.readTree(response.body());
		assertThat(problem.get("detail").asString()).contains("There is no text form 'base64'");
		assertThat(problem.get("parameter").asString()).isEqualTo("format");
		assertThat(problem.get("allowed").asString()).isEqualTo("decimal, radix62, radix36, readable, opaque");
	}

	@Test
	void batchIsJsonArrayOfDistinctDecimalStrings() throws Exception {
		HttpResponse<String> response = get("/uid/batch?size=3");
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
				(type) -> assertThat(type).startsWith("application/json"));
		JsonNode array = json.readTree(response.body());
		assertThat(array.isArray()).isTrue();
		assertThat(array.size()).isEqualTo(3);
		for (JsonNode id : array) {
			assertThat(id.isString()).as("%s is a JSON string", id).isTrue();
			assertThat(id.asString()).matches("[1-9][0-9]*");
		}
		assertThat(Arrays.stream(ids(array)).distinct().count()).isEqualTo(3);
	}

	@Test
	void largestBatchHoldsTenThousandDistinctIds() throws Exception {
		HttpResponse<String> response = get("/uid/batch?size=10000");
		assertThat(response.statusCode()).isEqualTo(200);
		long[] ids = ids(json.readTree(response.body()));
		assertThat(ids).hasSize(10_000);
		Arrays.sort(ids);
		int duplicates = 0;
		for (int i = 1; i < ids.length; i++) {
			if (ids[i] == ids[i - 1]) {
				duplicates++;
			}
		}
		assertThat(duplicates).isZero();
		assertThat(ids[0]).isPositive();
	}

	@ParameterizedTest
	@ValueSource(strings = { "?size=0", "?size=-1", "?size=10001", "?size=2147483647", "?size=abc", "?size=1.5",
			"?size=99999999999", "?size=", "", "?count=5" })
	void badBatchSizeIsBadRequestNamingParameterAndRange(String query) throws Exception {
		HttpResponse<String> response = get("/uid/batch" + query);
		assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
		assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
				(type) -> assertThat(type).startsWith("application/problem+json"));
		JsonNode problem = json.readTree(response.body());
		assertThat(problem.path("status").asInt()).isEqualTo(400);
		assertThat(problem.path("parameter").asString()).isEqualTo("size");
		assertThat(problem.path("allowed").asString()).isEqualTo("1..10000");
		assertThat(problem.path("detail").asString()).contains("'size'").contains("1").contains("10000");
	}

	@Test
	void outOfRangeAnswerRepeatsTheValue() throws Exception {
		JsonNode problem = json.readTree(get("/uid/batch?size=10001").body());
		assertThat(problem.path("value").asString()).isEqualTo("10001");
		assertThat(problem.path("detail").asString())
			.isEqualTo("Parameter 'size' must be between 1 and 10000 (inclusive), but was 10001.");
	}

	@Test
	void nonNumericAnswerRepeatsTheValue() throws Exception {
		JsonNode problem = json.readTree(get("/uid/batch?size=ten").body());
		assertThat(problem.path("value").asString()).isEqualTo("ten");
		assertThat(problem.path("detail").asString()).contains("whole number").contains("'ten'");
	}

	@Test
	void healthShowsTheUidComponent() throws Exception {
		HttpResponse<String> response = actuator("/actuator/health");
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		JsonNode health = json.readTree(response.body());
		assertThat(health.path("status").asString()).isEqualTo("UP");
		assertThat(health.path("components").path("uid").path("status").asString()).isEqualTo("UP");
	}

	@Test
	void actuatorExposesInfoMetricsAndUid() throws Exception {
		for (String path : List.of("/actuator/info", "/actuator/metrics", "/actuator/uid")) {
			HttpResponse<String> response = actuator(path);
			assertThat(response.statusCode()).as(path + " " + response.body()).isEqualTo(200);
		}
		JsonNode info = json.readTree(actuator("/actuator/info").body());
		assertThat(info.path("app").path("name").asString()).isEqualTo("uid-samples");
	}

	@Test
	void theActuatorIsOnTheManagementPortOnlyAndOnTheLoopbackAddress() throws Exception {
		assertThat(this.managementPort).isNotEqualTo(this.port);
		for (String path : List.of("/actuator/uid", "/actuator/uid/parse?uid=1", "/actuator/health")) {
			assertThat(get(path).statusCode()).as(path + " on the service's port").isEqualTo(404);
		}
		// The sample's own setting, which the test overrides above: the address, and opaque texts not decoded.
		YamlPropertiesFactoryBean yaml = new YamlPropertiesFactoryBean();
		yaml.setResources(new ClassPathResource("application.yml"));
		yaml.setDocumentMatchers((properties) -> properties.containsKey("management.server.port") ? MatchStatus.FOUND
				: MatchStatus.NOT_FOUND);
		Properties sample = yaml.getObject();
		assertThat(sample.getProperty("management.server.address")).isEqualTo("127.0.0.1");
		assertThat(sample.getProperty("management.endpoint.uid.parse-opaque")).isEqualTo("false");
	}

	private HttpResponse<String> get(String path) throws IOException, InterruptedException {
		return get(this.port, path);
	}

	private HttpResponse<String> actuator(String path) throws IOException, InterruptedException {
		return get(this.managementPort, path);
	}

	private HttpResponse<String> get(int port, String path) throws IOException, InterruptedException {
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build();
		return this.http.send(request, HttpResponse.BodyHandlers.ofString());
	}

	private static long[] ids(JsonNode array) {
		long[] ids = new long[array.size()];
		for (int i = 0; i < ids.length; i++) {
			ids[i] = Long.parseLong(array.get(i).asString());
		}
		return ids;
	}

}
