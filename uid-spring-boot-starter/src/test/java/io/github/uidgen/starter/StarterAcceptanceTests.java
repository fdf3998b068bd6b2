package io.github.uidgen.starter;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Arrays;

import io.github.uidgen.UidGenerator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The acceptance criteria of the starter: with {@code uid.worker.assigner=static} and {@code uid.worker.id=1} an
 * application injects a {@link UidGenerator} and gets IDs; with the actuator and the endpoint exposed,
 * {@code /actuator/uid/parse} decodes them.
 */
class StarterAcceptanceTests {

	@TempDir
	Path stateDir;

	@Test
	void applicationWithTheStarterGetsUniqueIds() {
		try (ConfigurableApplicationContext context = application(WebApplicationType.NONE).run()) {
			UidGenerator generator = context.getBean(UidGenerator.class);
			long[] ids = new long[100_000];
			for (int i = 0; i < ids.length; i++) {
				ids[i] = generator.getUID();
			}
			Arrays.sort(ids);
			int duplicates = 0;
			for (int i = 1; i < ids.length; i++) {
				if (ids[i] == ids[i - 1]) {
					duplicates++;
				}
			}
			assertThat(duplicates).isZero();
			assertThat(ids[0]).isPositive();
			assertThat(generator.decode(ids[0]).workerId()).isEqualTo(1);
		}
	}

	@Test
	void actuatorDecodesTheIds() throws Exception {
		try (ConfigurableApplicationContext context = application(WebApplicationType.SERVLET)
			.properties("server.port=0", "management.endpoints.web.exposure.include=uid")
			.run()) {
			UidGenerator generator = context.getBean(UidGenerator.class);
			String port = context.getEnvironment().getProperty("local.server.port");
			HttpClient http = HttpClient.newHttpClient();
			for (int i = 0; i < 3; i++) {
				long uid = generator.getUID();
				HttpResponse<String> response = http.send(
						HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/actuator/uid/parse?uid=" + uid))
							.build(),
						HttpResponse.BodyHandlers.ofString());
				assertThat(response.statusCode()).isEqualTo(200);
				JsonNode body = JsonMapper.builder().build().readTree(response.body());
				assertThat(body.get("uid").asString()).isEqualTo(Long.toString(uid));
				assertThat(body.get("workerId").asLong()).isEqualTo(1);
				assertThat(body.get("timestamp").asString())
					.isEqualTo(generator.decode(uid).timestamp().toString());
				assertThat(body.get("sequence").asLong()).isEqualTo(generator.decode(uid).sequence());
			}
		}
	}

	private SpringApplicationBuilder application(WebApplicationType type) {
		return new SpringApplicationBuilder(StarterApplication.class).web(type)
			.properties("uid.worker.assigner=static", "uid.worker.id=1",
					"uid.worker.static.state-file=" + this.stateDir.resolve("worker-1.state"));
	}

}
