package io.github.uidgen.samples.e2e;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

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
 * Two instances of the packaged sample started with {@code --uid.generator=segment} on one store profile, each a
 * separate JVM, serve numbers of the same key at the same time: all distinct, and each instance's strictly
 * increasing request after request. The endpoint and health say "segment" and decoding answers 400. One instance is
 * killed with {@code kill -9} and started again: its first number lies above every number handed out before.
 *
 * <p>Each run uses its own table or key prefix, so that runs sharing a server never meet.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
abstract class SegmentGeneratorEndToEndTests {

	private static final Duration STARTUP = Duration.ofSeconds(240);

	private static final int BATCHES = 5;

	private static final int BATCH_SIZE = 10_000;

	private final String profile;

	private String runId;

	private Path workDir;

	private final List<SampleProcess> samples = new ArrayList<>();

	private final IssuedIds issued = new IssuedIds();

	SegmentGeneratorEndToEndTests(String profile) {
		this.profile = profile;
	}

	/**
	 * Application arguments that give this run its own segment table or key prefix.
	 * @param runId unique to this run
	 * @return the arguments
	 */
	abstract List<String> storeArguments(String runId);

	/**
	 * Removes what this run left in the shared server.
	 * @param runId unique to this run
	 * @throws Exception when the server cannot be reached
	 */
	abstract void removeStore(String runId) throws Exception;

	@BeforeAll
	void launchTwoInstances() {
		this.runId = E2eSettings.newRunId("segment_" + this.profile);
		this.workDir = E2eSettings.newWorkDir(this.runId);
		this.samples.add(launch("a"));
		this.samples.add(launch("b"));
		this.samples.forEach((sample) -> sample.awaitReady(STARTUP));
	}

	@AfterAll
	void destroyInstancesAndStore() throws Exception {
		try {
			this.samples.forEach(SampleProcess::close);
		}
		finally {
			removeStore(this.runId);
		}
	}

	@Test
	@Order(1)
	void theEndpointAndHealthDescribeASegmentGeneratorAndDecodingAnswers400() throws Exception {
		SampleClient client = this.samples.get(0).client();
		long uid = client.uid();
		this.issued.addAll(new long[] { uid });
		JsonNode generator = client.generator();
		assertThat(generator.path("generator").asString()).as(generator.toString()).isEqualTo("segment");
		assertThat(generator.path("failure").isNull()).as(generator.toString()).isTrue();
		assertThat(generator.path("segment").path("key").asString()).as(generator.toString()).isEqualTo("orders");
		assertThat(generator.path("segmentKeys").get(0).path("key").asString()).as(generator.toString())
			.isEqualTo("orders");
		JsonNode uidHealth = client.json(client.get("/actuator/health")).path("components").path("uid");
		assertThat(uidHealth.path("status").asString()).as(uidHealth.toString()).isEqualTo("UP");
		assertThat(uidHealth.path("details").path("generator").asString()).isEqualTo("segment");
		assertThat(uidHealth.path("details").path("remaining").asLong()).as(uidHealth.toString()).isPositive();
		assertThat(uidHealth.path("details").path("keys").path("orders").path("status").asString()).isEqualTo("UP");
		JsonNode fetched = client.json(client.get("/actuator/metrics/uid.segment.fetched?tag=key:orders"));
		assertThat(fetched.path("measurements").get(0).path("value").asDouble()).as(fetched.toString())
			.isGreaterThanOrEqualTo(1);
		HttpResponse<String> parse = client.get("/actuator/uid/parse?uid=" + uid);
		assertThat(parse.statusCode()).as(parse.body()).isEqualTo(400);
		assertThat(client.json(parse).path("message").asString()).contains("is a segment ID")
			.contains("no time, worker ID or sequence");
	}

	@Test
	@Order(2)
	void twoInstancesServeDistinctNumbersThatIncreaseRequestAfterRequest() throws Exception {
		List<IssuedIds> perInstance = takeConcurrently(this.samples);
		for (IssuedIds ids : perInstance) {
			assertThat(ids.size()).isEqualTo(BATCHES * BATCH_SIZE);
			assertStrictlyIncreasing(ids.toArray());
			this.issued.addAll(ids);
		}
		assertThat(this.issued.duplicates()).isZero();

		// The store's counter, as the fleet shows it from either instance, lies at or above every number handed out.
		for (SampleProcess sample : this.samples) {
			JsonNode fleet = sample.client().fleet();
			assertThat(fleet.path("complete").asBoolean()).as(fleet.toString()).isTrue();
			JsonNode keys = fleet.path("segmentKeys");
			assertThat(keys.path("count").asLong()).as(fleet.toString()).isEqualTo(1);
			JsonNode orders = keys.path("list").get(0);
			assertThat(orders.path("key").asString()).as(fleet.toString()).isEqualTo("orders");
			assertThat(orders.path("maxId").asLong()).as(fleet.toString()).isGreaterThanOrEqualTo(this.issued.max());
		}
	}

	@Test
	@Order(3)
	void aKilledInstanceStartsAboveEveryNumberHandedOutBefore() throws Exception {
		SampleProcess killed = this.samples.get(0);
		assertThat(killed.osCommand()).as("the killed process is the JVM itself").endsWith("java");
		assertThat(killed.kill()).as("SIGKILL").isEqualTo(137);
		long highestBefore = this.issued.max();

		SampleProcess restarted = killed.relaunch();
		this.samples.set(0, restarted);
		restarted.awaitReady(STARTUP);
		IssuedIds afterRestart = restarted.client().takeBatches(1, BATCH_SIZE);
		long[] ids = afterRestart.toArray();
		assertThat(ids[0]).as("the restarted instance's first number").isGreaterThan(highestBefore);
		assertStrictlyIncreasing(ids);
		IssuedIds fromTheOther = this.samples.get(1).client().takeBatches(1, BATCH_SIZE);
		assertThat(afterRestart.commonWith(this.issued)).isZero();
		this.issued.addAll(afterRestart);
		this.issued.addAll(fromTheOther);
		assertThat(this.issued.duplicates()).isZero();
	}

	private SampleProcess launch(String name) {
		List<String> args = new ArrayList<>();
		args.add("--spring.profiles.active=" + this.profile);
		args.add("--uid.generator=segment");
		args.add("--uid.segment.key=orders");
		args.addAll(storeArguments(this.runId));
		return SampleProcess.launch(this.profile + "-segment-" + name, this.workDir, args);
	}

	private static void assertStrictlyIncreasing(long[] ids) {
		for (int i = 1; i < ids.length; i++) {
			if (ids[i] <= ids[i - 1]) {
				throw new AssertionError("ID " + ids[i] + " at " + i + " does not follow " + ids[i - 1]);
			}
		}
	}

	private static List<IssuedIds> takeConcurrently(List<SampleProcess> samples) throws Exception {
		ExecutorService executor = Executors.newFixedThreadPool(samples.size());
		try {
			List<Future<IssuedIds>> futures = new ArrayList<>();
			for (SampleProcess sample : samples) {
				futures.add(executor.submit(() -> sample.client().takeBatches(BATCHES, BATCH_SIZE)));
			}
			List<IssuedIds> results = new ArrayList<>();
			for (Future<IssuedIds> future : futures) {
				results.add(future.get());
			}
			return results;
		}
		finally {
			executor.shutdownNow();
		}
	}

}
