package io.github.uidgen.samples.e2e;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.github.uidgen.testsupport.PartitionProxy;
import io.github.uidgen.testsupport.ThrowawayRedis;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * "A night, walked through" of docs/operations.md, as an operator would live it: two sample instances ({@code redis}
 * profile) on a {@code redis-server} of the test's own, scraped by Prometheus with the shipped rules; one instance,
 * {@code cut}, reaches Redis through a {@link PartitionProxy} and is cut off from it past its lease while the other,
 * {@code steady}, goes on serving; once the cut instance's lease has run out, a third instance, {@code newcomer}, starts
 * and claims its worker ID. Every step of the page is checked: the log lines it quotes, the alerts in the order it
 * gives and their clearing, {@code /actuator/uid/fleet} (the old worker ID {@code EXPIRED} under the cut instance
 * until the newcomer holds it, the cut instance's new one {@code HELD}) and {@code parse} of an ID issued before the
 * cut ({@code issuedBy} the cut instance, its claim ended {@code EXPIRED}), and nothing refused by the others.
 *
 * <p>The lease is shortened to 8 s ({@code uid.worker.redis.lease-duration}; the page's figures are at the default
 * 30 s), so the cut lasts seconds, not half a minute; everything else is at its default.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class NightWalkedThroughEndToEndTests {

	private static final Duration STARTUP = Duration.ofSeconds(240);

	private static final String JOB = "orders";

	private ThrowawayRedis redis;

	private PartitionProxy proxy;

	private SampleProcess steady;

	private SampleProcess cut;

	private SampleProcess newcomer;

	private Path workDir;

	private List<String> common;

	private String runId;

	private String cutInstanceId;

	private ThrowawayPrometheus prometheus;

	@BeforeAll
	void startTwoInstancesAndPrometheus() throws IOException {
		String runId = E2eSettings.newRunId("night");
		Path workDir = E2eSettings.newWorkDir(runId);
		this.runId = runId;
		this.workDir = workDir;
		this.redis = ThrowawayRedis.start(workDir.resolve("redis"), "--appendonly", "yes");
		this.proxy = PartitionProxy.start(this.redis.port());
		this.cutInstanceId = runId + "-cut";
		this.common = List.of("--spring.profiles.active=redis", "--uid.worker.redis.key-prefix=uid_" + runId,
				"--uid.worker.redis.lease-duration=8s");
		List<String> common = this.common;
		this.steady = SampleProcess.launch("steady", workDir, with(common, "--spring.data.redis.port=" + this.redis.port(),
				"--uid.worker.instance-id=" + runId + "-steady"));
		this.cut = SampleProcess.launch("cut", workDir,
				with(common, "--spring.data.redis.port=" + this.proxy.port(), "--uid.worker.instance-id=" + this.cutInstanceId));
		this.steady.awaitReady(STARTUP);
		this.cut.awaitReady(STARTUP);
		this.prometheus = ThrowawayPrometheus.start(workDir.resolve("prometheus"), JOB,
				List.of(this.steady.managementPort(), this.cut.managementPort()));
	}

	private static List<String> with(List<String> common, String... more) {
		List<String> args = new ArrayList<>(common);
		args.addAll(List.of(more));
		return args;
	}

	@AfterAll
	void stopEverything() throws InterruptedException {
		if (this.prometheus != null) {
			this.prometheus.close();
		}
		for (SampleProcess sample : new SampleProcess[] { this.newcomer, this.cut, this.steady }) {
			if (sample != null) {
				sample.close();
			}
		}
		if (this.proxy != null) {
			this.proxy.close();
		}
		if (this.redis != null) {
			this.redis.close();
		}
	}

	@Test
	void anInstanceCutOffPastItsLeaseStopsClaimsAgainByItselfAndTheFleetAndParseTellTheStory() throws IOException {
		int cutPort = this.cut.managementPort();
		int steadyPort = this.steady.managementPort();
		this.prometheus.awaitAsserted(() -> {
			assertThat(this.prometheus.value("uid_unavailable", cutPort)).isZero();
			assertThat(this.prometheus.value("uid_unavailable", steadyPort)).isZero();
		});
		long order = this.cut.client().uid();
		long oldWorker = this.cut.client().generator().path("workerId").asLong();

		this.proxy.partition();
		// The cut instance issues on its lease, then stops: UidWorkerStoreSilent first, its refusals after.
		this.prometheus.awaitAlert("UidWorkerStoreSilent", cutPort, "firing");
		this.prometheus.awaitAlert("UidIssueAtRisk", cutPort, "firing");
		this.prometheus.awaitAsserted(() -> assertThat(this.prometheus.value("uid_unavailable", cutPort)).isEqualTo(1));
		assertThat(this.steady.client().takeBatches(1, 1_000).size()).as("the other instance serves meanwhile")
			.isEqualTo(1_000);
		// Past its lease: the store lists the worker ID as EXPIRED under the cut instance.
		JsonNode[] expired = new JsonNode[1];
		await().atMost(ThrowawayPrometheus.SEEN_WITHIN).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
			expired[0] = worker(this.steady.client().fleet(), oldWorker);
			assertThat(expired[0].path("state").asString()).as("%s", expired[0]).isEqualTo("EXPIRED");
		});
		assertThat(expired[0].path("instanceId").asString()).isEqualTo(this.cutInstanceId);
		// A newcomer (a pod scaled out) claims the expired worker ID, starting after its mark.
		this.newcomer = SampleProcess.launch("newcomer", this.workDir, with(this.common,
				"--spring.data.redis.port=" + this.redis.port(), "--uid.worker.instance-id=" + this.runId + "-newcomer"))
			.awaitReady(STARTUP);
		assertThat(this.newcomer.client().generator().path("workerId").asLong()).as("the newcomer's worker ID")
			.isEqualTo(oldWorker);
		long newcomersFirst = this.newcomer.client().uid();
		assertThat(newcomersFirst).as("the newcomer issues after the cut instance's ID").isGreaterThan(order);

		this.proxy.heal();
		// 1. The alert and the log: the lease is lost, the instance claims again by itself.
		await().atMost(ThrowawayPrometheus.SEEN_WITHIN)
			.pollInterval(Duration.ofMillis(500))
			.untilAsserted(() -> assertThat(this.cut.log()).contains("stops issuing IDs: Lost the lease on worker ID")
				.contains("issues IDs again as worker"));
		this.prometheus.awaitAlert("UidWorkerLeaseRecovered", cutPort, "firing");
		long newWorker = this.cut.client().generator().path("workerId").asLong();
		assertThat(this.cut.client().takeBatches(1, 1_000).size()).as("the cut instance serves again").isEqualTo(1_000);

		assertThat(newWorker).as("the cut instance's new worker ID").isNotEqualTo(oldWorker);
		// The lease was lost for only as long as the new claim took: the page that needs 30 s of it stays quiet.
		assertThat(this.prometheus.query("ALERTS{alertname=\"UidWorkerLeaseLost\"}")).as("UidWorkerLeaseLost")
			.isEmpty();

		// 2. The fleet, asked of any instance: the old worker ID HELD by the newcomer, the new one by the cut instance.
		JsonNode fleet = this.steady.client().fleet();
		assertThat(fleet.path("complete").asBoolean()).as("%s", fleet).isTrue();
		JsonNode held = worker(fleet, newWorker);
		assertThat(held.path("state").asString()).as("%s", held).isEqualTo("HELD");
		assertThat(held.path("instanceId").asString()).isEqualTo(this.cutInstanceId);
		JsonNode taken = worker(fleet, oldWorker);
		assertThat(taken.path("state").asString()).as("%s", taken).isEqualTo("HELD");
		assertThat(taken.path("instanceId").asString()).isEqualTo(this.runId + "-newcomer");

		// 3. The ID issued before the cut: its worker, and issuedBy the cut instance.
		JsonNode parsed = this.steady.client().parse(Long.toString(order));
		assertThat(parsed.path("workerId").asLong()).as("%s", parsed).isEqualTo(oldWorker);
		assertThat(parsed.path("issuedBy").path("instanceId").asString()).as("%s", parsed).isEqualTo(this.cutInstanceId);
		assertThat(parsed.path("issuedBy").path("claimEnd").asString()).as("%s", parsed).isEqualTo("EXPIRED");
		JsonNode newcomers = this.steady.client().parse(Long.toString(newcomersFirst));
		assertThat(newcomers.path("issuedBy").path("instanceId").asString()).as("%s", newcomers)
			.isEqualTo(this.runId + "-newcomer");
		assertThat(newcomers.path("issuedBy").path("claimEnd").asString()).as("%s", newcomers).isEqualTo("OPEN");

		// 4. The other instances refused nothing and lost nothing; once all serve, only the recovery's warning stays.
		this.prometheus.awaitAsserted(() -> {
			assertThat(this.prometheus.query("max_over_time(uid_unavailable{instance=\"127.0.0.1:" + steadyPort
					+ "\"}[10m])").get(0).path("value").get(1).asString()).isEqualTo("0");
			assertThat(this.prometheus.value("uid_worker_lease_lost", steadyPort)).isZero();
			assertThat(this.prometheus.value("uid_unavailable", cutPort)).isZero();
			List<String> active = new ArrayList<>();
			for (JsonNode alert : this.prometheus.alerts()) {
				active.add(alert.path("labels").path("alertname").asString() + "@"
						+ alert.path("labels").path("instance").asString() + ":" + alert.path("state").asString());
			}
			assertThat(active).containsExactly("UidWorkerLeaseRecovered@127.0.0.1:" + cutPort + ":firing");
		});
	}

	private static JsonNode worker(JsonNode fleet, long workerId) {
		for (JsonNode worker : fleet.path("workers").path("list")) {
			if (worker.path("workerId").asLong() == workerId) {
				return worker;
			}
		}
		throw new AssertionError("worker " + workerId + " is not in the fleet: " + fleet);
	}

}
