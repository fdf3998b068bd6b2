package io.github.uidgen.autoconfigure.actuate.web;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;

import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Requests to the actuator of a running test application, with the answers as a client reads them. A static worker
 * ID's state file goes to a folder of the test class's own. The class's context is closed when the class ends, before
 * JUnit removes that folder: a context left in the cache would go on writing the state file into it while it is being
 * removed (each class's properties differ, so no other class would have reused it).
 */
@DirtiesContext
abstract class AbstractEndpointWebTests {

	@TempDir
	static Path stateDir;

	private final HttpClient http = HttpClient.newHttpClient();

	final JsonMapper json = JsonMapper.builder().build();

	@LocalServerPort
	int port;

	@DynamicPropertySource
	static void stateFile(DynamicPropertyRegistry registry) {
		registry.add("uid.worker.static.state-file", () -> stateDir.resolve("worker.state").toString());
	}

	HttpResponse<String> get(String path) throws Exception {
		return this.http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + path)).GET().build(),
				HttpResponse.BodyHandlers.ofString());
	}

	/** The JSON of an answer that must be 200. */
	JsonNode getJson(String path) throws Exception {
		HttpResponse<String> response = get(path);
		assertThat(response.statusCode()).as(path).isEqualTo(200);
		return this.json.readTree(response.body());
	}

	void assertBadRequest(String path, String message) throws Exception {
		HttpResponse<String> response = get(path);
		assertThat(response.statusCode()).as(path).isEqualTo(400);
		JsonNode body = this.json.readTree(response.body());
		assertThat(body.get("status").asInt()).isEqualTo(400);
		assertThat(body.get("message").asString()).contains(message);
	}

}
