package io.github.uidgen.samples.e2e;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import io.github.uidgen.UidLayout;
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
 * Three instances of the packaged sample on one lease backend (a profile), each a separate JVM: they serve
 * 100,000 IDs each at the same time with distinct worker IDs and no duplicate; {@code /actuator/uid/fleet} on any
 * of them lists all three, and {@code parse} there names the instance that issued another one's ID. One is killed with {@code kill -9};
 * once its lease has expired it is restarted under the same instance id, gets its worker ID back (the previous
 * holder's high-water mark with it) and repeats nothing. One is stopped gracefully and so releases its worker ID,
 * which a new instance then receives at once, long before that lease could have expired; the IDs of the two holders
 * of that worker ID are each pinned on the right one.
 *
 * <p>Each run uses its own lease table or key prefix, so that runs sharing a server never meet.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
abstract class LeaseAssignerEndToEndTests {

	/** Long enough that only a release, never an expiry, can free a worker ID within one test. */
	static final Duration LEASE = Duration.ofSeconds(60);

	/**
	 * The lease of the instance that gets killed: a live lease is never taken over, not even by the same instance
	 * id, so the restart has to wait this long for its worker ID.
	 */
	static final Duration SHORT_LEASE = Duration.ofSeconds(8);

	private static final Duration STARTUP = Duration.ofSeconds(240);

	private static final int INSTANCES = 3;

	private static final int BATCHES = 10;

	private static final int BATCH_SIZE = 10_000;

	private static final UidLayout LAYOUT = UidLayout.defaults();

	private final String profile;

	private String runId;

	private Path workDir;

	private final List<SampleProcess> samples = new ArrayList<>();

	private final Map<String, Long> workerIds = new HashMap<>();

	/** The first ID each instance served, by instance name. */
	private final Map<String, Long> firstIds = new HashMap<>();

	private final IssuedIds issued = new IssuedIds();

	LeaseAssignerEndToEndTests(String profile) {
		this.profile = profile;
	}

	/**
	 * Application arguments that give this run its own lease store (table or key prefix) and lease duration.
	 * @param runId unique to this run
	 * @param lease the lease duration
	 * @return the arguments
	 */
	abstract List<String> storeArguments(String runId, Duration lease);

	/**
	 * Prepares the run's empty store before the first instance starts.
	 * @param runId unique to this run
	 * @throws Exception when the server cannot be reached
	 */
	void prepareStore(String runId) throws Exception {
	}

	/**
	 * Removes what this run left in the shared server.
	 * @param runId unique to this run
	 * @throws Exception when the server cannot be reached
	 */
	abstract void removeStore(String runId) throws Exception;

	@BeforeAll
	void launchThreeInstances() throws Exception {
		this.runId = E2eSettings.newRunId(this.profile);
		this.workDir = E2eSettings.newWorkDir(this.runId);
		prepareStore(this.runId);
		for (int i = 0; i < INSTANCES; i++) {
			this.samples.add(launch(instanceName(i), (i == 0) ? SHORT_LEASE : LEASE));
		}
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
	void threeInstancesServeUniqueIdsAtTheSameTimeWithDistinctWorkerIds() throws Exception {
		for (SampleProcess sample : this.samples) {
			JsonNode generator = sample.client().generator();
			assertThat(generator.path("assigner").asString()).as(generator.toString()).isEqualTo(expectedAssigner());
			this.workerIds.put(sample.name(), generator.path("workerId").asLong());
		}
		assertThat(new HashSet<>(this.workerIds.values())).as(this.workerIds.toString()).hasSize(INSTANCES);

		List<IssuedIds> perInstance = takeConcurrently(this.samples);
		for (int i = 0; i < INSTANCES; i++) {
			SampleProcess sample = this.samples.get(i);
			IssuedIds ids = perInstance.get(i);
			assertThat(ids.size()).isEqualTo(BATCHES * BATCH_SIZE);
			assertAllOfWorker(ids, this.workerIds.get(sample.name()));
			long first = ids.toArray()[0];
			this.firstIds.put(sample.name(), first);
			JsonNode parsed = sample.client().parse(Long.toString(first));
			assertThat(parsed.path("workerId").asLong()).as(parsed.toString())
				.isEqualTo(this.workerIds.get(sample.name()));
			this.issued.addAll(ids);
		}
		assertThat(this.issued.size()).isEqualTo(INSTANCES * BATCHES * BATCH_SIZE);
		assertThat(this.issued.duplicates()).isZero();
	}

	/**
	 * Any instance lists the whole fleet from the store, and names the instance that issued an ID of another one:
	 * the operator asks whichever instance the load balancer hands them.
	 */
	@Test
	@Order(2)
	void anyInstanceListsTheFleetAndNamesTheInstanceThatIssuedAnId() throws Exception {
		for (SampleProcess asked : this.samples) {
			JsonNode fleet = asked.client().fleet();
			assertThat(fleet.path("complete").asBoolean()).as(fleet.toString()).isTrue();
			JsonNode workers = fleet.path("workers");
			assertThat(workers.path("held").asLong()).as(fleet.toString()).isEqualTo(INSTANCES);
			Map<String, Long> listed = new HashMap<>();
			for (JsonNode worker : workers.path("list")) {
				if ("HELD".equals(worker.path("state").asString())) {
					listed.put(worker.path("instanceId").asString(), worker.path("workerId").asLong());
					assertThat(worker.path("host").asString()).as(worker.toString()).isNotBlank();
					assertThat(worker.path("highWaterMark").isNull()).as(worker.toString()).isFalse();
					assertThat(worker.path("self").asBoolean()).as(worker.toString())
						.isEqualTo(worker.path("instanceId").asString().equals(instanceId(asked.name())));
				}
			}
			Map<String, Long> expected = new HashMap<>();
			this.workerIds.forEach((name, workerId) -> expected.put(instanceId(name), workerId));
			assertThat(listed).as(fleet.toString()).isEqualTo(expected);
		}
		SampleProcess a = this.samples.get(0);
		SampleProcess b = this.samples.get(1);
		JsonNode parsed = a.client().parse(Long.toString(this.firstIds.get(b.name())));
		assertThat(parsed.path("issuedBy").path("instanceId").asString()).as(parsed.toString())
			.isEqualTo(instanceId(b.name()));
		assertThat(parsed.path("issuedBy").path("claimEnd").asString()).as(parsed.toString()).isEqualTo("OPEN");
	}

	@Test
	@Order(3)
	void killedInstanceGetsItsWorkerIdBackAndRepeatsNoId() throws Exception {
		SampleProcess killed = this.samples.get(0);
		assertThat(killed.osCommand()).as("the killed process is the JVM itself").endsWith("java");
		assertThat(killed.kill()).as("SIGKILL").isEqualTo(137);
		Thread.sleep(SHORT_LEASE.plusSeconds(1).toMillis());

		SampleProcess restarted = killed.relaunch();
		this.samples.set(0, restarted);
		restarted.awaitReady(STARTUP);
		long workerId = restarted.client().generator().path("workerId").asLong();
		assertThat(workerId).as("same instance id, same worker ID").isEqualTo(this.workerIds.get(killed.name()));

		IssuedIds afterRestart = restarted.client().takeBatches(BATCHES, BATCH_SIZE);
		assertAllOfWorker(afterRestart, workerId);
		assertThat(afterRestart.commonWith(this.issued)).isZero();
		this.issued.addAll(afterRestart);
		assertThat(this.issued.duplicates()).isZero();
	}

	@Test
	@Order(4)
	void gracefullyStoppedInstanceReleasesItsWorkerIdToANewInstance() throws IOException {
		SampleProcess stopped = this.samples.get(1);
		long releasedWorkerId = this.workerIds.get(stopped.name());
		assertThat(stopped.stop()).as("SIGTERM").isEqualTo(143);
		assertThat(stopped.log()).contains("Commencing graceful shutdown");

		SampleProcess newcomer = launch(instanceName(INSTANCES), LEASE);
		this.samples.add(newcomer);
		newcomer.awaitReady(STARTUP);
		long workerId = newcomer.client().generator().path("workerId").asLong();
		assertThat(workerId).as("the released worker ID is free again before its " + LEASE + " lease ran out")
			.isEqualTo(releasedWorkerId);

		IssuedIds newcomerIds = newcomer.client().takeBatches(1, BATCH_SIZE);
		assertAllOfWorker(newcomerIds, workerId);
		assertThat(newcomerIds.commonWith(this.issued)).isZero();
		this.issued.addAll(newcomerIds);
		assertThat(this.issued.duplicates()).isZero();

		// One worker ID, two holders one after the other: the store's history tells their IDs apart by the marks.
		JsonNode before = newcomer.client().parse(Long.toString(this.firstIds.get(stopped.name())));
		assertThat(before.path("issuedBy").path("instanceId").asString()).as(before.toString())
			.isEqualTo(instanceId(stopped.name()));
		assertThat(before.path("issuedBy").path("claimEnd").asString()).as(before.toString()).isEqualTo("RELEASED");
		JsonNode after = this.samples.get(0).client().parse(Long.toString(newcomerIds.toArray()[0]));
		assertThat(after.path("issuedBy").path("instanceId").asString()).as(after.toString())
			.isEqualTo(instanceId(newcomer.name()));
	}

	/** The assigner name the endpoint reports for this profile. */
	abstract String expectedAssigner();

	private SampleProcess launch(String name, Duration lease) {
		List<String> args = new ArrayList<>();
		args.add("--spring.profiles.active=" + this.profile);
		args.add("--uid.worker.instance-id=" + instanceId(name));
		args.addAll(storeArguments(this.runId, lease));
		return SampleProcess.launch(name, this.workDir, args);
	}

	private String instanceId(String name) {
		return this.runId + "-" + name;
	}

	private String instanceName(int index) {
		return this.profile + "-" + (char) ('a' + index);
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
		catch (ExecutionException ex) {
			throw (ex.getCause() instanceof Exception cause) ? cause : ex;
		}
		finally {
			executor.shutdownNow();
		}
	}

	private static void assertAllOfWorker(IssuedIds ids, long workerId) {
		for (long id : ids.toArray()) {
			long decoded = LAYOUT.decode(id).workerId();
			if (decoded != workerId) {
				throw new AssertionError("ID " + id + " decodes to worker " + decoded + ", expected " + workerId);
			}
		}
	}

}
