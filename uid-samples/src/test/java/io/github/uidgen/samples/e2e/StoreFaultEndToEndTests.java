package io.github.uidgen.samples.e2e;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.uidgen.UidLayout;
import io.github.uidgen.samples.e2e.SampleClient.HealthAnswer;
import io.github.uidgen.samples.e2e.SampleClient.UidAnswer;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Fault tests of one lease store that the test starts for itself on a spare loopback port (never the shared server):
 * the packaged sample runs as separate JVMs against it while the test pauses an instance or faults the store, and
 * every ID any instance served is counted. Each scenario has a store namespace (lease table or key prefix) of its
 * own and stops its instances when it ends.
 *
 * <p>The scenario common to every store: a holder frozen with {@code SIGSTOP} past its lease (as a long GC pause,
 * a stopped container or a suspended VM would) loses its worker ID to a new instance, and once resumed must not hand
 * out another ID as that worker: it checks its lease first, learns it is gone, claims another worker ID by itself
 * and serves again (health UP), and the two repeat no ID. Clients keep calling it while it is frozen; their requests
 * are answered after it resumes, and would be served from whatever its ring still held, unless it checked its lease
 * first.
 *
 * <p>A check that the fix of a defect has to make pass is a soft assertion, so that one run reports every symptom
 * of a scenario at once; what the scenario itself relies on (who got which worker ID, a store that really was
 * down) is asserted at once.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
abstract class StoreFaultEndToEndTests {

	/** How long an instance may take to start on a busy two-core machine. */
	static final Duration STARTUP = Duration.ofSeconds(240);

	/** The bound of every client loop and health watch, whatever happens. */
	static final Duration TRAFFIC_BOUND = Duration.ofMinutes(3);

	/** How soon after a fault a holder has to stop issuing and say so. */
	static final Duration STOPS_WITHIN = Duration.ofSeconds(5);

	/** How soon after it can reach its store again an instance whose lease was taken has to serve again. */
	static final Duration RECOVERS_WITHIN = Duration.ofSeconds(15);

	/**
	 * How soon {@code /actuator/health} must answer while a store is down: the sample's client timeouts (2 s) and a
	 * second to spare.
	 */
	static final Duration HEALTH_ANSWERS_WITHIN = Duration.ofSeconds(3);

	/** The paused holder's lease: short, so that the pause outlasts it soon. */
	static final Duration PAUSED_LEASE = Duration.ofSeconds(4);

	static final Duration PAUSED_HEARTBEAT = Duration.ofSeconds(1);

	static final int BATCH = 10_000;

	/** The sample's layout, for the scenarios that keep it. */
	static final UidLayout DEFAULT_LAYOUT = UidLayout.defaults();

	private final String profile;

	private String runId;

	private Path workDir;

	private final List<SampleProcess> samples = new CopyOnWriteArrayList<>();

	private final List<AutoCloseable> watchers = new CopyOnWriteArrayList<>();

	StoreFaultEndToEndTests(String profile) {
		this.profile = profile;
	}

	/**
	 * Starts the store of this class's scenarios.
	 * @param dir a directory of the test's own for its data and log
	 */
	abstract void startStore(Path dir);

	/** Stops the store for good. */
	abstract void stopStore();

	/**
	 * Application arguments that point an instance at the store and at one namespace in it.
	 * @param namespace the scenario's lease table or key prefix
	 * @return the arguments
	 */
	abstract List<String> storeArguments(String namespace);

	/**
	 * Application arguments for a lease duration and heartbeat interval other than the defaults.
	 * @param lease the lease duration
	 * @param heartbeat the heartbeat interval
	 * @return the arguments
	 */
	abstract List<String> leaseArguments(Duration lease, Duration heartbeat);

	/**
	 * Prepares a new, empty namespace before its first instance starts.
	 * @param namespace the namespace
	 */
	void prepareNamespace(String namespace) {
	}

	@BeforeAll
	void startTheStore() {
		this.runId = E2eSettings.newRunId(this.profile + "_faults");
		this.workDir = E2eSettings.newWorkDir(this.runId);
		startStore(this.workDir.resolve("store"));
	}

	/** Each scenario starts its own instances; none outlives it, so the next one has the machine to itself. */
	@AfterEach
	void stopTheScenariosInstances() {
		this.watchers.forEach(StoreFaultEndToEndTests::closeQuietly);
		this.watchers.clear();
		this.samples.forEach(SampleProcess::close);
		this.samples.clear();
	}

	@AfterAll
	void stopTheStore() {
		stopStore();
	}

	@Test
	@Order(1)
	void pausedHolderHandsOutNothingMoreOnceResumedAfterAnotherInstanceTookItsWorkerId() throws IOException {
		String namespace = namespace("paused");
		prepareNamespace(namespace);
		List<String> lease = leaseArguments(PAUSED_LEASE, PAUSED_HEARTBEAT);
		List<String> aArgs = new ArrayList<>(lease);
		// The ring's scheduled refresh (every second by default) discards IDs older than its interval, and on
		// resume it races the callers for the stale ring; an interval longer than the pause leaves only the lease
		// between the ring and the callers, so the test does not pass by that chance.
		aArgs.add("--uid.cached.schedule-interval=60s");
		SampleProcess a = launch("paused-a", namespace, aArgs).awaitReady(STARTUP);
		long workerId = workerId(a);
		// Two clients keep requests in flight when A freezes; three more call while it is frozen, and are answered
		// after it resumes, when every ID they get is handed out after the pause.
		List<TrafficLoop> aTraffic = new ArrayList<>(
				List.of(traffic(a, BATCH, Duration.ZERO), traffic(a, BATCH, Duration.ZERO)));
		aTraffic.forEach((loop) -> loop.awaitServed(3, STARTUP));

		a.pause();
		Instant pausedAt = Instant.now();
		for (int i = 0; i < 3; i++) {
			aTraffic.add(traffic(a, BATCH, Duration.ZERO));
		}
		// A renews nothing while frozen: its lease runs out by the store's clock.
		Waits.sleep(PAUSED_LEASE.plusSeconds(1));
		SampleProcess b = launch("paused-b", namespace, lease).awaitReady(STARTUP);
		assertThat(workerId(b)).as("B claims the worker ID of A, frozen since %s and its %s lease expired",
				pausedAt, PAUSED_LEASE)
			.isEqualTo(workerId);
		TrafficLoop bTraffic = traffic(b, BATCH, Duration.ofMillis(20)).awaitServed(2, STARTUP);

		Instant resumedAt = Instant.now();
		a.resume();
		ServedIds served = new ServedIds();
		SoftAssertions softly = new SoftAssertions();
		long newWorkerId = awaitServingAgainAsAnotherWorker(softly, a, workerId, resumedAt.plus(RECOVERS_WITHIN),
				served.of(a.name()));
		Waits.sleep(Duration.ofSeconds(1));
		aTraffic.forEach((loop) -> served.add(a.name(), loop.stop()));
		served.add(b.name(), bTraffic.stop());

		// Whatever A still held in its ring when it froze was issued as worker ID W, now B's: none of it may be
		// handed out after the resume. A's IDs as W all lie before B's first, and A serves again as another worker.
		softly.assertThat(newWorkerId).as("A's worker ID once it serves again; B holds %s", workerId)
			.isNotEqualTo(workerId);
		assertAllOfWorker(served.of(b.name()), DEFAULT_LAYOUT, workerId);
		Instant bFirst = earliest(served.of(b.name()), DEFAULT_LAYOUT);
		Instant aLastAsW = latestOfWorker(served.of(a.name()), DEFAULT_LAYOUT, workerId);
		softly.assertThat(aLastAsW)
			.as("the latest ID A served as worker ID %s (resumed at %s); B's first as it is from %s", workerId,
					resumedAt, bFirst)
			.isBefore(bFirst);
		served.assertNoDuplicates(softly, "by A before and after its pause, and by B");
		softly.assertAll();
	}

	/**
	 * Waits until an instance's {@code /actuator/health/uid} no longer reports a silent store after the store is
	 * back: its renewals came through again.
	 * @param softly where the findings go
	 * @param health the instance's health watch, running
	 * @param backAt when the store answered again
	 * @param deadline by when its renewals must have come through
	 */
	static void awaitStoreHeardAgain(SoftAssertions softly, HealthWatch health, Instant backAt, Instant deadline) {
		softly.assertThat(health.await(backAt,
				(answer) -> answer.isUp() && !answer.body().contains("\"storeSilentFor\""), deadline))
			.as("/actuator/health/uid no longer reports a silent store by %s, %s after the store was back at %s; %s",
					deadline, Duration.between(backAt, deadline), backAt, health.changes())
			.isPresent();
	}

	/**
	 * While the store is down: once the instance's {@code uid} health says the store is silent, the whole
	 * {@code /actuator/health} (whose store contributor waits on the store's client) answers within
	 * {@link #HEALTH_ANSWERS_WITHIN}, as docs/operations.md says for the sample's timeouts, and the readiness probe
	 * keeps the instance in the load balancer.
	 * @param softly where the findings go
	 * @param sample the instance
	 * @param health its health watch
	 * @param outageFrom when the store stopped answering
	 * @param deadline the latest time to wait for the silent store to show
	 */
	static void assertHealthAnswersDuringOutage(SoftAssertions softly, SampleProcess sample, HealthWatch health,
			Instant outageFrom, Instant deadline) {
		boolean silent = health
			.await(outageFrom, (answer) -> answer.isUp() && answer.body().contains("\"storeSilentFor\""), deadline)
			.isPresent();
		assertThat(silent).as("%s reports a silent store by %s", sample.name(), deadline).isTrue();
		try {
			HealthAnswer whole = sample.client().health("/actuator/health", HEALTH_ANSWERS_WITHIN);
			softly.assertThat(whole.body())
				.as("%s: /actuator/health answers within %s while the store is down", sample.name(),
						HEALTH_ANSWERS_WITHIN)
				.contains("\"uid\"");
			HealthAnswer readiness = sample.client().health("/actuator/health/readiness", HEALTH_ANSWERS_WITHIN);
			softly.assertThat(readiness.httpStatus())
				.as("%s: readiness while it rides through: %s", sample.name(), readiness.body())
				.isEqualTo(200);
		}
		catch (IOException ex) {
			softly.fail(sample.name() + ": /actuator/health gave no answer within " + HEALTH_ANSWERS_WITHIN
					+ " while the store was down: " + ex);
		}
	}

	/**
	 * Checks that an instance rode through a store outage: every request its client sent from the start of the outage
	 * on was served, some while the store was down, {@code /actuator/health/uid} never said DOWN, and it said
	 * during the outage how long the store had been silent.
	 * @param softly where the findings go
	 * @param traffic the instance's client loop, stopped
	 * @param health the instance's health watch
	 * @param outageFrom when the store stopped answering
	 * @param outageTo when the store answered again
	 */
	static void assertRodeThrough(SoftAssertions softly, TrafficLoop traffic, HealthWatch health, Instant outageFrom,
			Instant outageTo) {
		String name = traffic.name();
		softly.assertThat(traffic.answers((answer) -> !answer.ok() && answer.received().isAfter(outageFrom)))
			.as("%s refused nothing from the store's stop at %s on (back at %s)", name, outageFrom, outageTo)
			.isEmpty();
		softly.assertThat(traffic.answers((answer) -> answer.ok() && answer.sent().isAfter(outageFrom)
				&& answer.received().isBefore(outageTo)))
			.as("%s served requests while the store was down from %s to %s", name, outageFrom, outageTo)
			.isNotEmpty();
		softly.assertThat(health.firstAfter(outageFrom, HealthAnswer::isDown))
			.as("%s: /actuator/health/uid never DOWN through the outage; %s", name, health.changes())
			.isEmpty();
		softly.assertThat(health.firstAfter(outageFrom,
				(answer) -> answer.isUp() && answer.body().contains("\"storeSilentFor\"")))
			.as("%s: /actuator/health/uid said how long the store had been silent during the outage; %s", name,
					health.changes())
			.isPresent();
	}

	/**
	 * Waits until an instance that lost its lease serves again by itself as another worker, with health UP: the
	 * answers to {@code GET /uid} meanwhile are refusals naming the lost lease, or IDs of the new worker.
	 * @return the worker ID it serves as in the end
	 */
	static long awaitServingAgainAsAnotherWorker(SoftAssertions softly, SampleProcess sample, long lostWorkerId,
			Instant deadline, IssuedIds served) {
		Instant from = Instant.now();
		List<UidAnswer> refusals = new ArrayList<>();
		Long servingAs = Waits.poll(deadline, () -> {
			UidAnswer answer = tryUid(sample);
			if (!answer.ok()) {
				if (refusals.isEmpty() || !refusals.get(refusals.size() - 1).equals(answer)) {
					refusals.add(answer);
				}
				return null;
			}
			served.addAll(new long[] { answer.id() });
			long worker = DEFAULT_LAYOUT.decode(answer.id()).workerId();
			return (worker != lostWorkerId) ? worker : null;
		});
		softly.assertThat(servingAs)
			.as("%s serves IDs of another worker than %s by %s (asked from %s); refusals before: %s", sample.name(),
					lostWorkerId, deadline, from, refusals)
			.isNotNull();
		softly.assertThat(refusals)
			.as("%s: 503s while it claimed again name the lost lease", sample.name())
			.filteredOn((refusal) -> refusal.status() == 503)
			.allSatisfy((refusal) -> assertThat(String.valueOf(refusal.detail()).toLowerCase(Locale.ROOT))
				.contains("lease"));
		try {
			HealthAnswer health = sample.client().health("/actuator/health/uid", Duration.ofSeconds(3));
			softly.assertThat(health.status()).as("%s: /actuator/health/uid once it serves again: %s", sample.name(),
					health.body())
				.isEqualTo("UP");
			HealthAnswer readiness = sample.client().health("/actuator/health/readiness", Duration.ofSeconds(3));
			softly.assertThat(readiness.httpStatus())
				.as("%s: the readiness probe lets it back into the load balancer: %s", sample.name(), readiness.body())
				.isEqualTo(200);
		}
		catch (IOException ex) {
			softly.fail(sample.name() + ": /actuator/health/uid did not answer: " + ex);
		}
		return (servingAs != null) ? servingAs : lostWorkerId;
	}

	/** Returns when the latest of some IDs that carry a worker ID was issued, or the epoch when none does. */
	static Instant latestOfWorker(IssuedIds ids, UidLayout layout, long workerId) {
		return Arrays.stream(ids.toArray())
			.filter((id) -> layout.decode(id).workerId() == workerId)
			.max()
			.stream()
			.mapToObj((id) -> layout.decode(id).timestamp())
			.findFirst()
			.orElse(Instant.EPOCH);
	}

	/**
	 * Checks that a holder stops issuing by a deadline: {@code GET /uid} answers 503 with a detail naming the lost
	 * lease, and the {@code uid} health component and so the application's health are DOWN.
	 * @param softly where the findings go
	 * @param holder the instance
	 * @param deadline when it must have stopped
	 * @param served where IDs it still hands out meanwhile go, to be counted
	 */
	static void assertStopsNamingTheLostLease(SoftAssertions softly, SampleProcess holder, Instant deadline,
			IssuedIds served) {
		Instant from = Instant.now();
		List<UidAnswer> refusals = new ArrayList<>();
		UidAnswer namingTheLease = Waits.poll(deadline, () -> {
			UidAnswer answer = tryUid(holder);
			if (answer.ok()) {
				served.addAll(new long[] { answer.id() });
				return null;
			}
			if (refusals.isEmpty() || !refusals.get(refusals.size() - 1).equals(answer)) {
				refusals.add(answer);
			}
			return (answer.status() == 503 && answer.detail().toLowerCase(Locale.ROOT).contains("lease")) ? answer
					: null;
		});
		softly.assertThat(namingTheLease)
			.as("%s: GET /uid answers 503 naming the lost lease by %s (asked from %s); refusals before: %s",
					holder.name(), deadline, from, refusals)
			.isNotNull();
		HealthAnswer uidHealth = awaitHealth(holder, "/actuator/health/uid", deadline);
		softly.assertThat(uidHealth.status())
			.as("%s: /actuator/health/uid by %s: %s", holder.name(), deadline, uidHealth.body())
			.isEqualTo("DOWN");
		HealthAnswer health = awaitHealth(holder, "/actuator/health", deadline);
		softly.assertThat(health.httpStatus())
			.as("%s: /actuator/health by %s: %s", holder.name(), deadline, health.body())
			.isEqualTo(503);
		HealthAnswer readiness = awaitHealth(holder, "/actuator/health/readiness", deadline);
		softly.assertThat(readiness.httpStatus())
			.as("%s: the readiness probe takes it out of the load balancer by %s: %s", holder.name(), deadline,
					readiness.body())
			.isEqualTo(503);
		try {
			HealthAnswer liveness = holder.client().health("/actuator/health/liveness", Duration.ofSeconds(3));
			softly.assertThat(liveness.httpStatus())
				.as("%s: the liveness probe stays UP, so nothing restarts it: %s", holder.name(), liveness.body())
				.isEqualTo(200);
		}
		catch (IOException ex) {
			softly.fail(holder.name() + ": /actuator/health/liveness did not answer: " + ex);
		}
	}

	/**
	 * Asks a health endpoint until it says DOWN or the deadline passes.
	 * @return the DOWN answer, or the last one
	 */
	private static HealthAnswer awaitHealth(SampleProcess sample, String path, Instant deadline) {
		HealthAnswer[] last = new HealthAnswer[1];
		HealthAnswer down = Waits.poll(deadline, () -> {
			try {
				last[0] = sample.client().health(path, Duration.ofSeconds(3));
			}
			catch (IOException ex) {
				last[0] = new HealthAnswer(-1, "NO ANSWER", ex.toString());
			}
			return last[0].isDown() ? last[0] : null;
		});
		return (down != null) ? down : last[0];
	}

	/**
	 * Asks {@code GET /uid} once.
	 * @return the answer, status -1 when none came
	 */
	static UidAnswer tryUid(SampleProcess sample) {
		try {
			return sample.client().tryUid(Duration.ofSeconds(10));
		}
		catch (IOException ex) {
			return new UidAnswer(-1, 0, ex.toString());
		}
	}

	/**
	 * Fails at once when an ID does not carry the expected worker ID.
	 */
	static void assertAllOfWorker(IssuedIds ids, UidLayout layout, long workerId) {
		for (long id : ids.toArray()) {
			long decoded = layout.decode(id).workerId();
			if (decoded != workerId) {
				throw new AssertionError("ID " + id + " decodes to worker " + decoded + ", expected " + workerId);
			}
		}
	}

	/**
	 * Returns when the earliest of some IDs was issued.
	 */
	static Instant earliest(IssuedIds ids, UidLayout layout) {
		return layout.decode(Arrays.stream(ids.toArray()).min().orElseThrow()).timestamp();
	}

	/**
	 * Returns the worker ID an instance reports.
	 */
	static long workerId(SampleProcess sample) {
		try {
			return sample.client().generator().path("workerId").asLong();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * Returns a namespace (lease table or key prefix) unique to this run and scenario.
	 * @param scenario a short name
	 * @return the namespace
	 */
	String namespace(String scenario) {
		return "uid_" + this.runId + "_" + scenario;
	}

	/**
	 * Returns the instance ID an instance of this class runs under.
	 */
	String instanceId(String name) {
		return this.runId + "-" + name;
	}

	/**
	 * Launches an instance on a namespace of the store; returns at once.
	 * @param name a short name, unique in the class
	 * @param namespace the scenario's namespace
	 * @param args further application arguments
	 * @return the launched instance
	 */
	SampleProcess launch(String name, String namespace, List<String> args) {
		List<String> all = new ArrayList<>();
		all.add("--spring.profiles.active=" + this.profile);
		all.add("--uid.worker.instance-id=" + instanceId(name));
		all.addAll(storeArguments(namespace));
		all.addAll(args);
		SampleProcess sample = SampleProcess.launch(name, this.workDir, all);
		this.samples.add(sample);
		return sample;
	}

	/**
	 * Launches instances at once and waits until all are ready.
	 * @return the instances, in the order of their names
	 */
	List<SampleProcess> launchReady(String namespace, List<String> args, String... names) {
		List<SampleProcess> launched = Arrays.stream(names).map((name) -> launch(name, namespace, args)).toList();
		launched.forEach((sample) -> sample.awaitReady(STARTUP));
		return launched;
	}

	/**
	 * Starts a client loop on an instance, stopped at the latest when the class ends.
	 */
	TrafficLoop traffic(SampleProcess sample, int batchSize, Duration pause) {
		TrafficLoop loop = TrafficLoop.start(sample, batchSize, pause, TRAFFIC_BOUND);
		this.watchers.add(loop);
		return loop;
	}

	/**
	 * Starts watching an instance's {@code uid} health, stopped at the latest when the class ends.
	 */
	HealthWatch watchHealth(SampleProcess sample) {
		HealthWatch watch = HealthWatch.start(sample, "/actuator/health/uid", TRAFFIC_BOUND);
		this.watchers.add(watch);
		return watch;
	}

	private static void closeQuietly(AutoCloseable closeable) {
		try {
			closeable.close();
		}
		catch (Exception ex) {
			// the run is over; nothing to report
		}
	}

}
