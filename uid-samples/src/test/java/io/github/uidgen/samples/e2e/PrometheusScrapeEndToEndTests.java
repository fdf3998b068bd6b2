package io.github.uidgen.samples.e2e;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.github.uidgen.samples.monitoring.OperationsFiles;
import io.github.uidgen.testsupport.ServerProcess;
import io.github.uidgen.testsupport.ThrowawayRedis;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.MissingNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Debian's Prometheus scrapes the packaged sample ({@code redis} profile at its defaults, against a
 * {@code redis-server} of the test's own that keeps its data) with the alerting rules of
 * {@code docs/operations/uid-alerts.yml}: the {@code uid_*} series come back through Prometheus's HTTP API. Then the
 * test stops that Redis and walks through "A store outage, now" of docs/operations.md: the generator issues on its
 * lease, {@code UidWorkerStoreSilent} fires while nothing is refused, {@code UidIssueAtRisk} before issue stops, then
 * {@code UidIssueRefused} goes pending; {@code UidRingEmpty} never fires. Redis started again on its data, the sample
 * serves again and every one of them resolves. Prometheus runs with its own configuration, data directory and port,
 * scrapes and evaluates every second, and is stopped by its PID.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class PrometheusScrapeEndToEndTests {

	private static final Duration STARTUP = Duration.ofSeconds(240);

	/** Scrapes and rule evaluations run every second; this leaves room for a busy two-core machine. */
	private static final Duration SEEN_WITHIN = Duration.ofSeconds(90);

	private static final String JOB = "uid-samples";

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

	private final JsonMapper json = JsonMapper.builder().build();

	private ThrowawayRedis redis;

	private SampleProcess sample;

	private Process prometheus;

	private Path prometheusLog;

	private int prometheusPort;

	@BeforeAll
	void startTheSampleAndPrometheus() throws IOException {
		String runId = E2eSettings.newRunId("prometheus");
		Path workDir = E2eSettings.newWorkDir(runId);
		this.redis = ThrowawayRedis.start(workDir.resolve("redis"), "--appendonly", "yes");
		this.sample = SampleProcess.launch("scraped", workDir,
				List.of("--spring.profiles.active=redis", "--spring.data.redis.port=" + this.redis.port(),
						"--uid.worker.redis.key-prefix=uid_" + runId, "--uid.worker.instance-id=" + runId + "-scraped"))
			.awaitReady(STARTUP);
		this.prometheusPort = ServerProcess.freePort();
		Path dir = Files.createDirectories(workDir.resolve("prometheus"));
		Path config = dir.resolve("prometheus.yml");
		Files.writeString(config, """
				global:
				  scrape_interval: 1s
				  scrape_timeout: 1s
				  evaluation_interval: 1s
				rule_files:
				  - %s
				scrape_configs:
				  - job_name: %s
				    metrics_path: /actuator/prometheus
				    static_configs:
				      - targets: ['127.0.0.1:%d']
				""".formatted(OperationsFiles.dir().resolve("uid-alerts.yml"), JOB, this.sample.managementPort()));
		this.prometheusLog = dir.resolve("prometheus.log");
		List<String> command = new ArrayList<>(List.of("prometheus", "--config.file=" + config,
				"--storage.tsdb.path=" + dir.resolve("data"),
				"--web.listen-address=127.0.0.1:" + this.prometheusPort));
		try {
			this.prometheus = new ProcessBuilder(command).redirectErrorStream(true)
				.redirectOutput(this.prometheusLog.toFile())
				.start();
		}
		catch (IOException ex) {
			throw new IllegalStateException("Prometheus is needed for this test (apt-get install prometheus; .ci/run "
					+ "installs it): " + ex.getMessage(), ex);
		}
	}

	@AfterAll
	void stopEverything() throws InterruptedException {
		if (this.prometheus != null) {
			this.prometheus.destroy();
			if (!this.prometheus.waitFor(20, TimeUnit.SECONDS)) {
				this.prometheus.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
			}
		}
		if (this.sample != null) {
			this.sample.close();
		}
		if (this.redis != null) {
			this.redis.close();
		}
	}

	@Test
	@Order(1)
	void theUidSeriesComeBackThroughPrometheus() throws IOException {
		this.sample.client().takeBatches(2, 1_000);
		await().atMost(SEEN_WITHIN)
			.pollInterval(Duration.ofMillis(500))
			.ignoreExceptions()
			.failFast("Prometheus exited; see " + this.prometheusLog, () -> !this.prometheus.isAlive())
			.untilAsserted(() -> assertThat(value("uid_ids_issued_total")).isGreaterThanOrEqualTo(2_000));
		assertThat(value("uid_unavailable")).isZero();
		assertThat(value("uid_worker_lease_lost")).isZero();
		assertThat(value("uid_worker_id_space")).isEqualTo(1024);
		assertThat(value("uid_ring_capacity")).isPositive();
		assertThat(value("uid_layout_remaining_seconds")).as("seconds until 2094, the default layout's expiry")
			.isGreaterThan(60.0 * 365 * 86_400);
		assertThat(value("uid_clock_ahead_seconds")).isNotNegative();
		JsonNode alerts = get("/api/v1/alerts").path("data").path("alerts");
		assertThat(alerts.size()).as("alerts while the store is up: %s", alerts).isZero();
	}

	@Test
	@Order(2)
	void aStoreOutageWarnsWhileItIssuesOnItsLeaseThenPagesAndEverythingResolvesOnceTheStoreIsBack()
			throws IOException {
		this.redis.stop();
		awaitAlert("UidWorkerStoreSilent", "firing");
		JsonNode silent = alert("UidWorkerStoreSilent");
		assertThat(silent.path("labels").path("severity").asString()).isEqualTo("warning");
		assertThat(silent.path("annotations").path("runbook").asString())
			.isEqualTo("docs/operations.md#uidworkerstoresilent");
		assertThat(alert("UidIssueRefused").isMissingNode()).as("nothing refused while it issues on its lease").isTrue();
		assertThat(this.sample.client().takeBatches(1, 1_000).size()).as("served during the outage").isEqualTo(1_000);

		awaitAlert("UidIssueAtRisk", "firing");
		assertThat(alert("UidIssueAtRisk").path("labels").path("severity").asString()).isEqualTo("critical");

		awaitAlert("UidIssueRefused", "pending");
		JsonNode refused = alert("UidIssueRefused");
		assertThat(refused.path("labels").path("job").asString()).isEqualTo(JOB);
		assertThat(refused.path("labels").path("severity").asString()).isEqualTo("critical");
		assertThat(refused.path("annotations").path("runbook").asString())
			.isEqualTo("docs/operations.md#uidissuerefused");
		assertThat(value("uid_unavailable")).isEqualTo(1);
		assertThat(alert("UidRingEmpty").isMissingNode()).as("an empty ring in a store outage is the outage's").isTrue();

		this.redis.start();
		await().atMost(SEEN_WITHIN)
			.pollInterval(Duration.ofMillis(500))
			.ignoreExceptions()
			.failFast("Prometheus exited; see " + this.prometheusLog, () -> !this.prometheus.isAlive())
			.untilAsserted(() -> {
				assertThat(value("uid_unavailable")).isZero();
				assertThat(value("uid_worker_store_silent_seconds")).isZero();
				assertThat(get("/api/v1/alerts").path("data").path("alerts")).as("every alert resolved").isEmpty();
			});
		assertThat(this.sample.client().takeBatches(1, 1_000).size()).as("served again").isEqualTo(1_000);
		assertThat(value("uid_worker_lease_lost")).as("the lease came through the outage").isZero();
	}

	private void awaitAlert(String name, String state) {
		await().atMost(SEEN_WITHIN)
			.pollInterval(Duration.ofMillis(500))
			.ignoreExceptions()
			.failFast("Prometheus exited; see " + this.prometheusLog, () -> !this.prometheus.isAlive())
			.untilAsserted(() -> assertThat(alert(name).path("state").asString()).isEqualTo(state));
	}

	/** The value of the sample's one series of a name, as Prometheus has it now. */
	private double value(String name) throws IOException {
		JsonNode result = get("/api/v1/query?query="
				+ URLEncoder.encode(name + "{job=\"" + JOB + "\"}", StandardCharsets.UTF_8)).path("data").path("result");
		assertThat(result.size()).as("series %s in %s", name, result).isEqualTo(1);
		return Double.parseDouble(result.get(0).path("value").get(1).asString());
	}

	/** The alert of a name, or a missing node when Prometheus has none active. */
	private JsonNode alert(String name) throws IOException {
		for (JsonNode alert : get("/api/v1/alerts").path("data").path("alerts")) {
			if (name.equals(alert.path("labels").path("alertname").asString())) {
				return alert;
			}
		}
		return MissingNode.getInstance();
	}

	private JsonNode get(String path) throws IOException {
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.prometheusPort + path))
			.timeout(Duration.ofSeconds(5))
			.build();
		try {
			HttpResponse<String> response = this.http.send(request, HttpResponse.BodyHandlers.ofString());
			assertThat(response.statusCode()).as("%s: %s", path, response.body()).isEqualTo(200);
			return this.json.readTree(response.body());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new UncheckedIOException(new IOException("Interrupted", ex));
		}
	}

}
