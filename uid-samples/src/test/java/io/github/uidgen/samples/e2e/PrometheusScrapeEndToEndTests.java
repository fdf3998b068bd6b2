package io.github.uidgen.samples.e2e;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import io.github.uidgen.testsupport.ThrowawayRedis;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

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

	private static final String JOB = "uid-samples";

	private ThrowawayRedis redis;

	private SampleProcess sample;

	private ThrowawayPrometheus prometheus;

	@BeforeAll
	void startTheSampleAndPrometheus() throws IOException {
		String runId = E2eSettings.newRunId("prometheus");
		Path workDir = E2eSettings.newWorkDir(runId);
		this.redis = ThrowawayRedis.start(workDir.resolve("redis"), "--appendonly", "yes");
		this.sample = SampleProcess.launch("scraped", workDir,
				List.of("--spring.profiles.active=redis", "--spring.data.redis.port=" + this.redis.port(),
						"--uid.worker.redis.key-prefix=uid_" + runId, "--uid.worker.instance-id=" + runId + "-scraped"))
			.awaitReady(STARTUP);
		this.prometheus = ThrowawayPrometheus.start(workDir.resolve("prometheus"), JOB,
				List.of(this.sample.managementPort()));
	}

	@AfterAll
	void stopEverything() throws InterruptedException {
		if (this.prometheus != null) {
			this.prometheus.close();
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
		this.prometheus
			.awaitAsserted(() -> assertThat(value("uid_ids_issued_total")).isGreaterThanOrEqualTo(2_000));
		assertThat(value("uid_unavailable")).isZero();
		assertThat(value("uid_worker_lease_lost")).isZero();
		assertThat(value("uid_worker_id_space")).isEqualTo(1024);
		assertThat(value("uid_ring_capacity")).isPositive();
		assertThat(value("uid_layout_remaining_seconds")).as("seconds until 2094, the default layout's expiry")
			.isGreaterThan(60.0 * 365 * 86_400);
		assertThat(value("uid_clock_ahead_seconds")).isNotNegative();
		JsonNode alerts = this.prometheus.alerts();
		assertThat(alerts.size()).as("alerts while the store is up: %s", alerts).isZero();
	}

	@Test
	@Order(2)
	void aStoreOutageWarnsWhileItIssuesOnItsLeaseThenPagesAndEverythingResolvesOnceTheStoreIsBack()
			throws IOException {
		this.redis.stop();
		this.prometheus.awaitAlert("UidWorkerStoreSilent", "firing");
		JsonNode silent = alert("UidWorkerStoreSilent");
		assertThat(silent.path("labels").path("severity").asString()).isEqualTo("warning");
		assertThat(silent.path("annotations").path("runbook").asString())
			.isEqualTo("docs/operations.md#uidworkerstoresilent");
		assertThat(alert("UidIssueRefused").isMissingNode()).as("nothing refused while it issues on its lease").isTrue();
		assertThat(this.sample.client().takeBatches(1, 1_000).size()).as("served during the outage").isEqualTo(1_000);

		this.prometheus.awaitAlert("UidIssueAtRisk", "firing");
		assertThat(alert("UidIssueAtRisk").path("labels").path("severity").asString()).isEqualTo("critical");

		this.prometheus.awaitAlert("UidIssueRefused", "pending");
		JsonNode refused = alert("UidIssueRefused");
		assertThat(refused.path("labels").path("job").asString()).isEqualTo(JOB);
		assertThat(refused.path("labels").path("severity").asString()).isEqualTo("critical");
		assertThat(refused.path("annotations").path("runbook").asString())
			.isEqualTo("docs/operations.md#uidissuerefused");
		assertThat(value("uid_unavailable")).isEqualTo(1);
		assertThat(alert("UidRingEmpty").isMissingNode()).as("an empty ring in a store outage is the outage's").isTrue();

		this.redis.start();
		this.prometheus.awaitAsserted(() -> {
			assertThat(value("uid_unavailable")).isZero();
			assertThat(value("uid_worker_store_silent_seconds")).isZero();
			assertThat(this.prometheus.alerts()).as("every alert resolved").isEmpty();
		});
		assertThat(this.sample.client().takeBatches(1, 1_000).size()).as("served again").isEqualTo(1_000);
		assertThat(value("uid_worker_lease_lost")).as("the lease came through the outage").isZero();
	}

	private double value(String name) throws IOException {
		return this.prometheus.value(name);
	}

	private JsonNode alert(String name) throws IOException {
		return this.prometheus.alert(name);
	}

}
