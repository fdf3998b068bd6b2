package io.github.uidgen.samples.e2e;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.List;

import io.github.uidgen.UidLayout;
import io.github.uidgen.UidTimeUnit;
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
 * The sample as it runs out of the box (static worker ID 1, state file under the working directory, cached
 * generator), started from the packaged jar: it serves unique IDs, answers bad input with 400, and after
 * {@code kill -9} and a restart on the same state file repeats none of the IDs it issued before.
 *
 * <p>Only three sequence bits (8 IDs per millisecond) make the cached generator borrow future time while it serves
 * 100,000 IDs (12.5 s of IDs, as far ahead as its 10 s limit allows), and the test takes more just before the kill
 * until the latest lies 5 s ahead, so the restart lands inside time the killed instance already used: only the
 * high-water mark in the state file keeps the two runs apart.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class StaticAssignerEndToEndTests {

	private static final int SEQ_BITS = 3;

	private static final UidLayout LAYOUT = new UidLayout(UidTimeUnit.MILLISECONDS, LocalDate.of(2025, 1, 1), 41, 10,
			SEQ_BITS);

	/** How long a start may take on a busy two-core machine; the wait ends as soon as the instance is ready. */
	private static final Duration STARTUP = Duration.ofSeconds(240);

	/** How long the restarted instance may wait for the clock to pass the killed one's high-water mark. */
	private static final Duration MAX_STARTUP_WAIT = Duration.ofSeconds(30);

	/**
	 * How far ahead of the clock the killed instance's latest ID must lie just before the kill, so that the restart
	 * lands inside time it already issued IDs for however long the tests before took.
	 */
	private static final Duration AHEAD = Duration.ofSeconds(5);

	/** The most batches taken to get {@link #AHEAD} of the clock; each is 1.25 s of IDs. */
	private static final int MAX_TOP_UP_BATCHES = 40;

	private Path workDir;

	private SampleProcess sample;

	private final IssuedIds beforeKill = new IssuedIds();

	@BeforeAll
	void launch() {
		this.workDir = E2eSettings.newWorkDir(E2eSettings.newRunId("static"));
		this.sample = SampleProcess.launch("static", this.workDir, List.of("--uid.seq-bits=" + SEQ_BITS,
				"--uid.cached.boost-power=8", "--uid.mark.max-startup-wait=" + MAX_STARTUP_WAIT.toSeconds() + "s"));
		this.sample.awaitReady(STARTUP);
	}

	@AfterAll
	void destroy() {
		if (this.sample != null) {
			this.sample.close();
		}
	}

	@Test
	@Order(1)
	void servesUniqueIdsOfWorkerOneFromTheCachedGenerator() throws IOException {
		SampleClient client = this.sample.client();
		JsonNode generator = client.generator();
		assertThat(generator.path("workerId").asLong()).as(generator.toString()).isEqualTo(1);
		assertThat(generator.path("assigner").asString()).as(generator.toString()).isEqualTo("static");
		assertThat(generator.path("generator").asString()).as(generator.toString()).isEqualTo("cached");

		this.beforeKill.addAll(new long[] { client.uid(), client.uid() });
		this.beforeKill.addAll(client.takeBatches(10, 10_000));

		assertThat(this.beforeKill.size()).isEqualTo(100_002);
		assertThat(this.beforeKill.duplicates()).isZero();
		assertAllOfWorker(this.beforeKill, 1);
		long first = this.beforeKill.toArray()[0];
		JsonNode parsed = client.parse(Long.toString(first));
		assertThat(parsed.path("workerId").asLong()).as(parsed.toString()).isEqualTo(1);
		assertThat(parsed.path("uid").asString()).as(parsed.toString()).isEqualTo(Long.toString(first));
	}

	@Test
	@Order(2)
	void everyBadBatchSizeIsBadRequest() throws IOException {
		SampleClient client = this.sample.client();
		for (String query : List.of("?size=0", "?size=-3", "?size=10001", "?size=abc", "?size=", "")) {
			HttpResponse<String> response = client.get("/uid/batch" + query);
			assertThat(response.statusCode()).as(query + " -> " + response.body()).isEqualTo(400);
			JsonNode problem = client.json(response);
			assertThat(problem.path("parameter").asString()).as(query).isEqualTo("size");
			assertThat(problem.path("detail").asString()).as(query).contains("1").contains("10000");
		}
		assertThat(client.get("/actuator/uid/parse?uid=abc").statusCode()).isEqualTo(400);
	}

	@Test
	@Order(3)
	void killedInstanceRestartsOnItsStateFileWithoutRepeatingIds() throws IOException {
		Path stateFile = this.workDir.resolve("uid-state/worker-1.state");
		takeUntilAheadOfTheClock(this.sample.client());
		long lastTimestamp = LAYOUT.decode(this.beforeKill.max()).timestamp().toEpochMilli();

		String command = this.sample.osCommand();
		assertThat(command).as("the killed process is the JVM itself").endsWith("java");
		int exitCode = this.sample.kill();
		assertThat(exitCode).as("SIGKILL").isEqualTo(137);
		assertThat(stateFile).exists();

		this.sample = this.sample.relaunch();
		Instant relaunchedAt = this.sample.launchedAt();
		assertThat(relaunchedAt.toEpochMilli())
			.as("the restart at %s starts inside time the killed instance already issued IDs for (up to %s)",
					relaunchedAt, Instant.ofEpochMilli(lastTimestamp))
			.isLessThan(lastTimestamp);
		this.sample.awaitReady(STARTUP.plus(MAX_STARTUP_WAIT));

		IssuedIds afterRestart = this.sample.client().takeBatches(10, 10_000);
		assertThat(afterRestart.commonWith(this.beforeKill)).isZero();
		IssuedIds all = new IssuedIds();
		all.addAll(this.beforeKill);
		all.addAll(afterRestart);
		assertThat(all.size()).isEqualTo(this.beforeKill.size() + 100_000);
		assertThat(all.duplicates()).isZero();
		assertAllOfWorker(afterRestart, 1);
		long firstAfterRestart = Arrays.stream(afterRestart.toArray()).min().orElseThrow();
		assertThat(firstAfterRestart).as("the restarted instance starts after its high-water mark")
			.isGreaterThan(this.beforeKill.max());
	}

	@Test
	@Order(4)
	void gracefulShutdownClosesTheGenerator() throws IOException {
		int exitCode = this.sample.stop();
		assertThat(exitCode).as("SIGTERM").isEqualTo(143);
		assertThat(this.sample.log()).contains("Commencing graceful shutdown");
		assertThat(Files.size(this.workDir.resolve("uid-state/worker-1.state"))).isPositive();
	}

	/**
	 * Takes more IDs until the latest lies {@link #AHEAD} or more ahead of the clock: how far the first test got
	 * ahead, and how much of it the tests since used up, depends on the machine's speed.
	 */
	private void takeUntilAheadOfTheClock(SampleClient client) throws IOException {
		for (int batch = 0; batch < MAX_TOP_UP_BATCHES; batch++) {
			if (aheadOfTheClockMillis() >= AHEAD.toMillis()) {
				return;
			}
			this.beforeKill.addAll(client.batch(10_000));
		}
		assertThat(aheadOfTheClockMillis()).as("ms the latest ID lies ahead of the clock after %s more batches",
				MAX_TOP_UP_BATCHES)
			.isGreaterThanOrEqualTo(AHEAD.toMillis());
	}

	private long aheadOfTheClockMillis() {
		return LAYOUT.decode(this.beforeKill.max()).timestamp().toEpochMilli() - System.currentTimeMillis();
	}

	private static void assertAllOfWorker(IssuedIds ids, long workerId) {
		for (long id : ids.toArray()) {
			if (LAYOUT.decode(id).workerId() != workerId) {
				throw new AssertionError("ID " + id + " decodes to worker " + LAYOUT.decode(id).workerId()
						+ ", expected " + workerId);
			}
		}
	}

}
