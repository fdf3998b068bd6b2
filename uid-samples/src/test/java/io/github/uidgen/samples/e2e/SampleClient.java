package io.github.uidgen.samples.e2e;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Talks to one sample instance over HTTP, the way a client in any language would.
 */
final class SampleClient {

	private static final HttpClient http = HttpClient.newBuilder()
		.version(HttpClient.Version.HTTP_1_1)
		.connectTimeout(Duration.ofSeconds(5))
		.build();

	private static final JsonMapper json = JsonMapper.builder().build();

	private final int port;

	private final int managementPort;

	/**
	 * A client of one instance.
	 * @param port the service's port
	 * @param managementPort the actuator's port, which {@code /actuator} paths go to
	 */
	SampleClient(int port, int managementPort) {
		this.port = port;
		this.managementPort = managementPort;
	}

	int port() {
		return this.port;
	}

	int managementPort() {
		return this.managementPort;
	}

	private int portOf(String pathAndQuery) {
		return pathAndQuery.startsWith("/actuator") ? this.managementPort : this.port;
	}

	HttpResponse<String> get(String pathAndQuery) throws IOException {
		return get(pathAndQuery, Duration.ofSeconds(60));
	}

	HttpResponse<String> get(String pathAndQuery, Duration timeout) throws IOException {
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + portOf(pathAndQuery) + pathAndQuery))
			.timeout(timeout)
			.build();
		try {
			return http.send(request, HttpResponse.BodyHandlers.ofString());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IOException("Interrupted", ex);
		}
	}

	/** Takes one ID from {@code GET /uid}. */
	long uid() throws IOException {
		return Long.parseLong(ok("/uid").body());
	}

	/** Takes {@code size} IDs from {@code GET /uid/batch?size=...}. */
	long[] batch(int size) throws IOException {
		JsonNode array = json.readTree(ok("/uid/batch?size=" + size).body());
		if (!array.isArray() || array.size() != size) {
			throw new AssertionError("Asked for " + size + " IDs, got " + array.size());
		}
		long[] ids = new long[size];
		for (int i = 0; i < size; i++) {
			ids[i] = Long.parseLong(array.get(i).asString());
		}
		return ids;
	}

	/**
	 * Takes {@code count} batches of {@code size} IDs, one request after the other, and keeps every ID.
	 * @param count the number of requests
	 * @param size the IDs per request
	 * @return all IDs received
	 */
	IssuedIds takeBatches(int count, int size) throws IOException {
		IssuedIds ids = new IssuedIds();
		for (int i = 0; i < count; i++) {
			ids.addAll(batch(size));
		}
		return ids;
	}

	/**
	 * Asks {@code GET /uid} for one ID and returns whatever it answered, an ID or a refusal.
	 * @param timeout how long to wait for the answer
	 * @return the answer
	 */
	UidAnswer tryUid(Duration timeout) throws IOException {
		HttpResponse<String> response = get("/uid", timeout);
		if (response.statusCode() == 200) {
			return new UidAnswer(200, Long.parseLong(response.body().strip()), null);
		}
		return new UidAnswer(response.statusCode(), 0, detail(response));
	}

	/**
	 * Reads the status of a health endpoint, whatever HTTP status it answers with (503 when DOWN).
	 * @param path {@code /actuator/health} or one of its components, such as {@code /actuator/health/uid}
	 * @param timeout how long to wait for the answer
	 * @return the status, such as {@code UP} or {@code DOWN}
	 */
	HealthAnswer health(String path, Duration timeout) throws IOException {
		HttpResponse<String> response = get(path, timeout);
		String status = "HTTP " + response.statusCode();
		try {
			status = json.readTree(response.body()).path("status").asString(status);
		}
		catch (RuntimeException ex) {
			// not JSON: keep the HTTP status
		}
		return new HealthAnswer(response.statusCode(), status, response.body());
	}

	/**
	 * Returns the {@code detail} of a problem-detail answer, or its whole body when it has none.
	 * @param response an answer other than 200
	 * @return the detail
	 */
	static String detail(HttpResponse<String> response) {
		try {
			JsonNode detail = json.readTree(response.body()).path("detail");
			if (detail.isString()) {
				return detail.asString();
			}
		}
		catch (RuntimeException ex) {
			// not JSON: the body says what there is to say
		}
		return response.body();
	}

	/** Reads {@code GET /actuator/uid}. */
	JsonNode generator() throws IOException {
		return json.readTree(ok("/actuator/uid").body());
	}

	/** Decodes an ID through {@code GET /actuator/uid/parse?uid=...}. */
	JsonNode parse(String uid) throws IOException {
		return json.readTree(ok("/actuator/uid/parse?uid=" + URLEncoder.encode(uid, StandardCharsets.UTF_8)).body());
	}

	/** Reads {@code GET /actuator/uid/fleet}. */
	JsonNode fleet() throws IOException {
		return json.readTree(ok("/actuator/uid/fleet").body());
	}

	JsonNode json(HttpResponse<String> response) {
		return json.readTree(response.body());
	}

	private HttpResponse<String> ok(String pathAndQuery) throws IOException {
		HttpResponse<String> response = get(pathAndQuery);
		if (response.statusCode() != 200) {
			throw new AssertionError("GET " + pathAndQuery + " on port " + portOf(pathAndQuery) + " answered "
					+ response.statusCode() + ": " + response.body());
		}
		return response;
	}

	/**
	 * What {@code GET /uid} answered.
	 *
	 * @param status the HTTP status
	 * @param id the ID when the status is 200
	 * @param detail the problem detail otherwise
	 */
	record UidAnswer(int status, long id, String detail) {

		boolean ok() {
			return this.status == 200;
		}

	}

	/**
	 * What a health endpoint answered.
	 *
	 * @param httpStatus the HTTP status, 503 when DOWN
	 * @param status the health status, such as {@code UP} or {@code DOWN}
	 * @param body the whole answer, for messages
	 */
	record HealthAnswer(int httpStatus, String status, String body) {

		boolean isDown() {
			return "DOWN".equals(this.status);
		}

		boolean isUp() {
			return "UP".equals(this.status);
		}

	}

}
