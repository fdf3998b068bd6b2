package io.github.uidgen.samples.leaf;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;

import io.github.uidgen.UidGenerator;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Leaf's URLs switched on in a service that hands out Snowflake IDs only (the default profile): the segment URL
 * answers 404 saying what to set, never a number; Snowflake IDs decode in the service's own layout.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = "samples.leaf-api.enabled=true")
class LeafApiSnowflakeOnlyTests {

	private static final JsonMapper json = JsonMapper.builder().build();

	@LocalServerPort
	private int port;

	@Autowired
	private UidGenerator generator;

	@DynamicPropertySource
	static void stateFileInTempDirectory(DynamicPropertyRegistry registry) throws IOException {
		Path dir = Files.createTempDirectory("uid-samples-leaf-api");
		registry.add("uid.worker.static.state-file", () -> dir.resolve("worker-1.state").toString());
	}

	@Test
	void theSegmentUrlSaysWhatToSetAndSnowflakeIdsDecodeInTheServicesLayout() throws Exception {
		HttpResponse<String> segment = get("/api/segment/get/k");
		assertThat(segment.statusCode()).isEqualTo(404);
		assertThat(json.readTree(segment.body()).get("detail").asString()).contains("uid.segment.enabled=true");
		HttpResponse<String> snowflake = get("/api/snowflake/get/k");
		assertThat(snowflake.statusCode()).isEqualTo(200);
		long id = Long.parseLong(snowflake.body());
		HttpResponse<String> decoded = get("/decodeSnowflakeId?snowflakeId=" + id);
		assertThat(decoded.statusCode()).isEqualTo(200);
		assertThat(json.readTree(decoded.body()).get("workerId").asString())
			.isEqualTo(Long.toString(this.generator.decode(id).workerId()));
	}

	private HttpResponse<String> get(String path) throws Exception {
		return HttpClient.newHttpClient()
			.send(HttpRequest.newBuilder(URI.create("http://localhost:" + this.port + path)).build(),
					HttpResponse.BodyHandlers.ofString());
	}

}
