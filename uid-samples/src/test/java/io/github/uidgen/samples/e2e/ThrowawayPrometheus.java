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
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import io.github.uidgen.samples.monitoring.OperationsFiles;
import org.awaitility.core.ThrowingRunnable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.MissingNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Debian's Prometheus, run by a test with a configuration, data directory and port of its own, scraping sample
 * instances' {@code /actuator/prometheus} and evaluating the shipped alerting rules
 * ({@code docs/operations/uid-alerts.yml}) every second; stopped by its process.
 *
 * <p>It binds a port the operating system picks ({@code --web.listen-address=127.0.0.1:0}), read from its log's
 * "Listening on" line: a port the test picked and passed on could be taken by another process before Prometheus
 * bound it.
 */
final class ThrowawayPrometheus implements AutoCloseable {

	/** Scrapes and rule evaluations run every second; this leaves room for a busy two-core machine. */
	static final Duration SEEN_WITHIN = Duration.ofSeconds(90);

	/** How long Prometheus may take to listen. */
	private static final Duration STARTUP = Duration.ofSeconds(60);

	/** Its line once it listens, such as {@code msg="Listening on" address=127.0.0.1:41873}. */
	private static final Pattern LISTENING = Pattern.compile("msg=\"Listening on\" address=127\\.0\\.0\\.1:(\\d+)");

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

	private final JsonMapper json = JsonMapper.builder().build();

	private final String job;

	private final Process process;

	private final Path log;

	private final int port;

	private ThrowawayPrometheus(String job, Process process, Path log, int port) {
		this.job = job;
		this.process = process;
		this.log = log;
		this.port = port;
	}

	/**
	 * Starts Prometheus scraping the actuators of sample instances on 127.0.0.1 and waits until it listens.
	 * @param dir a directory of its own
	 * @param job the job's name, a label of every series
	 * @param managementPorts the instances' actuator ports
	 * @return the running Prometheus
	 */
	static ThrowawayPrometheus start(Path dir, String job, List<Integer> managementPorts) throws IOException {
		Files.createDirectories(dir);
		Path config = dir.resolve("prometheus.yml");
		String targets = managementPorts.stream()
			.map((managementPort) -> "'127.0.0.1:" + managementPort + "'")
			.collect(Collectors.joining(", "));
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
				      - targets: [%s]
				""".formatted(OperationsFiles.dir().resolve("uid-alerts.yml"), job, targets));
		Path log = dir.resolve("prometheus.log");
		List<String> command = List.of("prometheus", "--config.file=" + config,
				"--storage.tsdb.path=" + dir.resolve("data"), "--web.listen-address=127.0.0.1:0");
		Process process;
		try {
			process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
		}
		catch (IOException ex) {
			throw new IllegalStateException("Prometheus is needed for this test (apt-get install prometheus; .ci/run "
					+ "installs it): " + ex.getMessage(), ex);
		}
		try {
			return new ThrowawayPrometheus(job, process, log, awaitPort(process, log));
		}
		catch (RuntimeException ex) {
			process.destroyForcibly();
			throw ex;
		}
	}

	/** The port its log names once it listens; fails if it exits or does not listen within {@link #STARTUP}. */
	private static int awaitPort(Process process, Path log) {
		return await().atMost(STARTUP)
			.pollInterval(Duration.ofMillis(100))
			.failFast("Prometheus exited; see " + log, () -> !process.isAlive())
			.until(() -> {
				Matcher listening = LISTENING.matcher(Files.readString(log));
				return listening.find() ? Integer.parseInt(listening.group(1)) : 0;
			}, (port) -> port != 0);
	}

	/** Asserts until it holds, within {@link #SEEN_WITHIN}, failing at once if Prometheus exited. */
	void awaitAsserted(ThrowingRunnable assertion) {
		await().atMost(SEEN_WITHIN)
			.pollInterval(Duration.ofMillis(500))
			.ignoreExceptions()
			.failFast("Prometheus exited; see " + this.log, () -> !this.process.isAlive())
			.untilAsserted(assertion);
	}

	/** Waits for an alert of a name (of any instance) to be in a state: {@code pending} or {@code firing}. */
	void awaitAlert(String name, String state) {
		awaitAsserted(() -> assertThat(alert(name).path("state").asString()).isEqualTo(state));
	}

	/** Waits for an instance's alert of a name to be in a state. */
	void awaitAlert(String name, int managementPort, String state) {
		awaitAsserted(() -> assertThat(alert(name, managementPort).path("state").asString()).isEqualTo(state));
	}

	/** The value of the job's one series of a name, as Prometheus has it now. */
	double value(String name) throws IOException {
		return single(query(name + "{job=\"" + this.job + "\"}"), name);
	}

	/** The value of one instance's series of a name. */
	double value(String name, int managementPort) throws IOException {
		return single(query(name + "{job=\"" + this.job + "\",instance=\"127.0.0.1:" + managementPort + "\"}"), name);
	}

	/** The result of a PromQL query now. */
	JsonNode query(String promql) throws IOException {
		return get("/api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8)).path("data")
			.path("result");
	}

	private static double single(JsonNode result, String name) {
		assertThat(result.size()).as("series %s in %s", name, result).isEqualTo(1);
		return Double.parseDouble(result.get(0).path("value").get(1).asString());
	}

	/** The alerts active now (pending or firing). */
	JsonNode alerts() throws IOException {
		return get("/api/v1/alerts").path("data").path("alerts");
	}

	/** The alert of a name, or a missing node when Prometheus has none active. */
	JsonNode alert(String name) throws IOException {
		for (JsonNode alert : alerts()) {
			if (name.equals(alert.path("labels").path("alertname").asString())) {
				return alert;
			}
		}
		return MissingNode.getInstance();
	}

	/** An instance's alert of a name, or a missing node. */
	JsonNode alert(String name, int managementPort) throws IOException {
		for (JsonNode alert : alerts()) {
			if (name.equals(alert.path("labels").path("alertname").asString())
					&& ("127.0.0.1:" + managementPort).equals(alert.path("labels").path("instance").asString())) {
				return alert;
			}
		}
		return MissingNode.getInstance();
	}

	private JsonNode get(String path) throws IOException {
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + path))
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

	@Override
	public void close() throws InterruptedException {
		this.process.destroy();
		if (!this.process.waitFor(20, TimeUnit.SECONDS)) {
			this.process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
		}
	}

}
