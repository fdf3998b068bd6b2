package io.github.uidgen.samples.e2e;

import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Predicate;

import io.github.uidgen.UidLayout;
import io.github.uidgen.UidTimeUnit;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A claim storm on one lease store: eight instances of the packaged sample started at the same moment, each a
 * JVM of its own, all claiming a worker ID at once. With room for all of them they get eight distinct worker IDs
 * and serve no duplicate; with room for four ({@code uid.worker-bits=2}) exactly four start and the other four
 * refuse to start, each saying that all four worker IDs are leased, by whom, and what to change.
 *
 * <p>Nothing is faulted, so the shared server on 127.0.0.1 serves, with a lease table or key prefix of the run's
 * own that is removed afterwards.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
abstract class ClaimStormEndToEndTests {

	static final int INSTANCES = 8;

	/** Eight JVMs starting at once on two cores take a while. */
	private static final Duration STARTUP = Duration.ofSeconds(240);

	private static final int ROOM = 4;

	private static final UidLayout LAYOUT = UidLayout.defaults();

	private static final UidLayout SMALL_LAYOUT = new UidLayout(UidTimeUnit.MILLISECONDS, LocalDate.of(2025, 1, 1),
			41, 2, 12);

	private final String profile;

	private String runId;

	private java.nio.file.Path workDir;

	private final List<SampleProcess> samples = new ArrayList<>();

	ClaimStormEndToEndTests(String profile) {
		this.profile = profile;
	}

	/**
	 * Application arguments that give the run its own lease table or key prefix on the shared server.
	 * @param namespace the storm's namespace
	 * @return the arguments
	 */
	abstract List<String> storeArguments(String namespace);

	/**
	 * Prepares the namespace before the storm.
	 * @param namespace the storm's namespace
	 */
	void prepareNamespace(String namespace) {
	}

	/**
	 * Removes what a storm left on the shared server.
	 * @param namespace the storm's namespace
	 */
	abstract void removeNamespace(String namespace);

	@BeforeAll
	void newRun() {
		this.runId = E2eSettings.newRunId(this.profile + "_storm");
		this.workDir = E2eSettings.newWorkDir(this.runId);
	}

	@AfterAll
	void killLeftovers() {
		this.samples.forEach(SampleProcess::close);
		removeNamespace(namespace(INSTANCES));
		removeNamespace(namespace(ROOM));
	}

	@Test
	@Order(1)
	void eightInstancesStartedAtOnceGetEightDistinctWorkerIds() throws Exception {
		String namespace = namespace(INSTANCES);
		prepareNamespace(namespace);
		List<SampleProcess> storm = launchStorm(namespace, "all", List.of());
		try {
			storm.forEach((sample) -> sample.awaitReady(STARTUP));
			Map<String, Long> workerIds = new HashMap<>();
			for (SampleProcess sample : storm) {
				workerIds.put(sample.name(), sample.client().generator().path("workerId").asLong());
			}
			assertThat(new HashSet<>(workerIds.values())).as("worker IDs: %s", workerIds).hasSize(INSTANCES);

			SoftAssertions softly = new SoftAssertions();
			ServedIds served = takeOneBatchEach(storm);
			for (SampleProcess sample : storm) {
				StoreFaultEndToEndTests.assertAllOfWorker(served.of(sample.name()), LAYOUT,
						workerIds.get(sample.name()));
			}
			served.assertNoDuplicates(softly, "by " + INSTANCES + " instances started at once");
			softly.assertAll();
		}
		finally {
			close(storm);
		}
	}

	@Test
	@Order(2)
	void withRoomForFourExactlyFourStartAndTheOthersSayThatAllWorkerIdsAreLeased() throws Exception {
		String namespace = namespace(ROOM);
		prepareNamespace(namespace);
		List<SampleProcess> storm = launchStorm(namespace, "room",
				List.of("--uid.worker-bits=" + SMALL_LAYOUT.getWorkerBits()));
		try {
			List<SampleProcess> started = new ArrayList<>();
			List<SampleProcess> refused = new ArrayList<>();
			for (SampleProcess sample : storm) {
				(sample.awaitReadyOrExit(STARTUP) ? started : refused).add(sample);
			}
			assertThat(started).as("instances that started, with room for %s worker IDs; refused: %s", ROOM,
					refused)
				.hasSize(ROOM);

			Map<String, Long> workerIds = new HashMap<>();
			for (SampleProcess sample : started) {
				workerIds.put(sample.name(), sample.client().generator().path("workerId").asLong());
			}
			assertThat(new HashSet<>(workerIds.values())).as("worker IDs: %s", workerIds)
				.containsExactlyInAnyOrder(0L, 1L, 2L, 3L);
			List<String> holders = started.stream().map((sample) -> instanceId(sample.name())).toList();

			Map<String, Integer> exitCodes = new LinkedHashMap<>();
			Map<String, String> reports = new LinkedHashMap<>();
			for (SampleProcess sample : refused) {
				exitCodes.put(sample.name(), sample.awaitExit(Duration.ofSeconds(30)));
				reports.put(sample.name(), sample.startupFailure());
			}
			String firstReport = reports.values().iterator().next();
			String leased = "all " + ROOM + " worker ids are leased";
			SoftAssertions softly = new SoftAssertions();
			softly.assertThat(exitCodes).as("exit codes of the instances that did not start")
				.allSatisfy((name, exitCode) -> assertThat(exitCode).as(name).isNotZero());
			softly.assertThat(namesWhere(reports, (report) -> !report.toLowerCase(Locale.ROOT).contains(leased)
					|| !report.contains("uid.worker-bits")))
				.as("instances whose start-up failure does not say that all %s worker IDs are leased and that "
						+ "uid.worker-bits is what to change; the first one's:%n%s", ROOM, firstReport)
				.isEmpty();
			softly.assertThat(namesWhere(reports, (report) -> holders.stream().noneMatch(report::contains)))
				.as("instances whose start-up failure does not name who holds the worker IDs (%s); the first "
						+ "one's:%n%s", holders, firstReport)
				.isEmpty();
			ServedIds served = takeOneBatchEach(started);
			for (SampleProcess sample : started) {
				StoreFaultEndToEndTests.assertAllOfWorker(served.of(sample.name()), SMALL_LAYOUT,
						workerIds.get(sample.name()));
			}
			served.assertNoDuplicates(softly, "by the " + ROOM + " instances that started");
			softly.assertAll();
		}
		finally {
			close(storm);
		}
	}

	private static List<String> namesWhere(Map<String, String> reports, Predicate<String> condition) {
		return reports.entrySet()
			.stream()
			.filter((entry) -> condition.test(entry.getValue()))
			.map(Map.Entry::getKey)
			.toList();
	}

	private List<SampleProcess> launchStorm(String namespace, String prefix, List<String> args) {
		List<SampleProcess> storm = new ArrayList<>();
		for (int i = 0; i < INSTANCES; i++) {
			String name = String.format(Locale.ROOT, "%s-%02d", prefix, i);
			List<String> all = new ArrayList<>();
			all.add("--spring.profiles.active=" + this.profile);
			all.add("--uid.worker.instance-id=" + instanceId(name));
			all.addAll(storeArguments(namespace));
			all.addAll(args);
			SampleProcess sample = SampleProcess.launch(name, this.workDir, all);
			storm.add(sample);
			this.samples.add(sample);
		}
		return storm;
	}

	private static ServedIds takeOneBatchEach(List<SampleProcess> samples) throws Exception {
		ExecutorService executor = Executors.newFixedThreadPool(samples.size());
		try {
			List<Future<IssuedIds>> futures = new ArrayList<>();
			for (SampleProcess sample : samples) {
				futures.add(executor.submit(() -> sample.client().takeBatches(1, StoreFaultEndToEndTests.BATCH)));
			}
			ServedIds served = new ServedIds();
			for (int i = 0; i < samples.size(); i++) {
				served.add(samples.get(i).name(), futures.get(i).get());
			}
			return served;
		}
		catch (ExecutionException ex) {
			throw (ex.getCause() instanceof Exception cause) ? cause : ex;
		}
		finally {
			executor.shutdownNow();
		}
	}

	private void close(List<SampleProcess> storm) {
		storm.forEach(SampleProcess::close);
		this.samples.removeAll(storm);
	}

	String namespace(int room) {
		return "uid_" + this.runId + "_" + room;
	}

	private String instanceId(String name) {
		return this.runId + "-" + name;
	}

}
