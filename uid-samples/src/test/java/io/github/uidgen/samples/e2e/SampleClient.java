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

	SampleClient(int port) {
		this.port = port;
	}

	HttpResponse<String> get(String pathAndQuery) throws IOException {
		return get(pathAndQuery, Duration.ofSeconds(60));
	}

	HttpResponse<String> get(String pathAndQuery, Duration timeout) throws IOException {
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + pathAndQuery))
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

	/** Reads {@code GET /actuator/uid}. */
	JsonNode generator() throws IOException {
		return json.readTree(ok("/actuator/uid").body());
	}

	/** Decodes an ID through {@code GET /actuator/uid/parse?uid=...}. */
	JsonNode parse(String uid) throws IOException {
		return json.readTree(ok("/actuator/uid/parse?uid=" + URLEncoder.encode(uid, StandardCharsets.UTF_8)).body());
	}

	JsonNode json(HttpResponse<String> response) {
		return json.readTree(response.body());
	}

	private HttpResponse<String> ok(String pathAndQuery) throws IOException {
		HttpResponse<String> response = get(pathAndQuery);
		if (response.statusCode() != 200) {
			throw new AssertionError("GET " + pathAndQuery + " on port " + this.port + " answered "
					+ response.statusCode() + ": " + response.body());
		}
		return response;
	}

}
