package io.github.uidgen.samples.e2e;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The packaged sample started on its ahead-of-time initialisation ({@code spring-boot:process-aot} runs at build
 * time; {@code -Dspring.aot.enabled=true} at run time), as a native image would start: it serves unique IDs and
 * answers the endpoint. Asked at run time for the default generator, it keeps the cached one it was processed
 * with: under AOT the generator kind (and the assigner) is fixed when the application is built.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AotEndToEndTests {

	private Path workDir;

	private SampleProcess sample;

	@BeforeAll
	void launch() {
		this.workDir = E2eSettings.newWorkDir(E2eSettings.newRunId("aot"));
		this.sample = SampleProcess.launch("aot", this.workDir, List.of("-Dspring.aot.enabled=true"),
				List.of("--uid.generator=default"));
		// A generous bound for a start on a busy two-core machine; the wait ends as soon as the instance is ready.
		this.sample.awaitReady(Duration.ofSeconds(240));
	}

	@AfterAll
	void destroy() {
		if (this.sample != null) {
			this.sample.close();
		}
	}

	@Test
	void startsFromTheAheadOfTimeInitialisation() {
		assertThat(this.sample.log()).contains("Starting AOT-processed UidSamplesApplication");
	}

	@Test
	void servesUniqueIdsWithTheGeneratorChosenAtBuildTime() throws IOException {
		SampleClient client = this.sample.client();
		JsonNode generator = client.generator();
		assertThat(generator.path("generator").asString()).as(generator.toString()).isEqualTo("cached");
		assertThat(generator.path("assigner").asString()).as(generator.toString()).isEqualTo("static");
		assertThat(generator.path("workerId").asLong()).as(generator.toString()).isEqualTo(1);

		IssuedIds ids = client.takeBatches(5, 10_000);
		ids.addAll(new long[] { client.uid() });
		assertThat(ids.size()).isEqualTo(50_001);
		assertThat(ids.duplicates()).isZero();
		String last = Long.toString(ids.max());
		assertThat(client.parse(last).path("workerId").asLong()).isEqualTo(1);
	}

}
