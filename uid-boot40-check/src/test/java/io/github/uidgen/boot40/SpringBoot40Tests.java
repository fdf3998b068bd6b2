package io.github.uidgen.boot40;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import io.github.uidgen.UidGenerator;
import io.github.uidgen.autoconfigure.StartingUidGenerator;
import io.github.uidgen.snowflake.CachedUidGenerator;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * uid on Spring Boot 4.0, the oldest version it supports: the generator, the endpoint, the health component, the
 * meters and IDs as JSON strings all work.
 */
@SpringBootTest(classes = Boot40Application.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "uid.generator=cached", "uid.worker.id=6",
				"uid.worker.static.state-file=target/uid-state/boot40-6.state",
				"management.endpoints.web.exposure.include=health,uid,metrics",
				"management.endpoint.health.show-details=always" })
class SpringBoot40Tests {

	private final HttpClient http = HttpClient.newHttpClient();

	@LocalServerPort
	int port;

	@Autowired
	UidGenerator generator;

	@Test
	void theApplicationRunsOnSpringBoot40() {
		assertThat(SpringBootVersion.getVersion()).startsWith("4.0.");
	}

	@Test
	void theGeneratorIssuesIdsOfItsWorker() {
		// The bean claims its worker ID beside the context's start and hands every call to the generator it built.
		assertThat(this.generator).isInstanceOf(StartingUidGenerator.class);
		assertThat(((StartingUidGenerator) this.generator).awaitStarted()).isInstanceOf(CachedUidGenerator.class);
		long first = this.generator.getUID();
		assertThat(this.generator.getUID()).isGreaterThan(first);
		assertThat(this.generator.decode(first).workerId()).isEqualTo(6);
	}

	@Test
	void theEndpointHealthAndMetersAnswer() throws Exception {
		this.generator.getUID();
		assertThat(get("/actuator/uid")).contains("\"generator\":\"cached\"", "\"workerId\":6", "\"assigner\":\"static\"");
		assertThat(get("/actuator/health")).contains("\"uid\":{", "\"status\":\"UP\"");
		assertThat(get("/actuator/metrics/uid.ids.issued")).contains("\"name\":\"uid.ids.issued\"");
	}

	@Test
	void idsGoOutAsJsonStrings() throws Exception {
		assertThat(get("/orders/new")).matches("\\{\"id\":\"\\d+\",\"quantity\":1}");
	}

	private String get(String path) throws Exception {
		HttpResponse<String> response = this.http.send(
				HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + path)).build(),
				HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).as(path + ": " + response.body()).isEqualTo(200);
		return response.body();
	}

}
