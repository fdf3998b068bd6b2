package io.github.uidgen.samples.leaf;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.UUID;

import io.github.uidgen.testsupport.PartitionProxy;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Leaf's segment URL when the database that holds the {@code leaf_alloc} row stops answering: the numbers already
 * claimed are served, then a 503 with a problem detail saying why, never a number. The service reaches MariaDB
 * through a proxy of the test's own, which the test stops; MariaDB itself is never touched.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "uid.generator=segment", "uid.segment.step=10", "uid.segment.max-step=10",
				"uid.segment.wait-timeout=2s", "uid.worker.zookeeper.leaf.port=8080",
				"spring.datasource.hikari.connection-timeout=1000" })
@ActiveProfiles("leaf")
@DirtiesContext
class LeafApiStoreDownTests {

	private static final String MARIADB = "jdbc:mysql://127.0.0.1:3306/test";

	private static final String TABLE = "leaf_api_down_" + UUID.randomUUID().toString().substring(0, 8);

	private static final String TAG = "leaf-api-down";

	private static final JsonMapper json = JsonMapper.builder().build();

	private static PartitionProxy proxy;

	private final HttpClient http = HttpClient.newHttpClient();

	@LocalServerPort
	private int port;

	@DynamicPropertySource
	static void leafTableBehindAProxy(DynamicPropertyRegistry registry) throws Exception {
		sql("CREATE TABLE " + TABLE + " (biz_tag varchar(128) NOT NULL DEFAULT '', max_id bigint(20) NOT NULL "
				+ "DEFAULT '1', step int(11) NOT NULL, description varchar(256) DEFAULT NULL, update_time timestamp NOT "
				+ "NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP, PRIMARY KEY (biz_tag)) ENGINE=InnoDB");
		sql("INSERT INTO " + TABLE + " (biz_tag, max_id, step) VALUES ('" + TAG + "', 1, 10)");
		proxy = PartitionProxy.start(3306);
		registry.add("spring.datasource.url",
				() -> "jdbc:mysql://127.0.0.1:" + proxy.port() + "/test?connectTimeout=1000&socketTimeout=5000");
		registry.add("uid.segment.key", () -> TAG);
		registry.add("uid.segment.leaf.table", () -> TABLE);
	}

	@AfterAll
	static void dropLeafTable() throws Exception {
		if (proxy != null) {
			proxy.close();
		}
		sql("DROP TABLE IF EXISTS " + TABLE);
	}

	private static void sql(String statement) throws SQLException {
		try (Connection connection = DriverManager.getConnection(MARIADB, "root", "")) {
			connection.createStatement().execute(statement);
		}
	}

	@Test
	void anUnreachableDatabaseIsA503SayingWhyAfterTheClaimedNumbersAndNeverANumber() throws Exception {
		HttpResponse<String> served = get("/api/segment/get/" + TAG);
		assertThat(served.statusCode()).isEqualTo(200);
		long previous = Long.parseLong(served.body());

		// The database stops answering this service: new connections are refused, open ones are closed.
		proxy.close();
		HttpResponse<String> response = null;
		int numbersAfter = 0;
		for (int i = 0; i < 100; i++) {
			response = get("/api/segment/get/" + TAG);
			if (response.statusCode() != 200) {
				break;
			}
			long number = Long.parseLong(response.body());
			assertThat(number).as("a number already claimed, above the last").isGreaterThan(previous);
			previous = number;
			numbersAfter++;
		}
		assertThat(numbersAfter).as("at most the two segments of 10 claimed before").isLessThanOrEqualTo(20);
		assertThat(response.statusCode()).isEqualTo(503);
		assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
				(type) -> assertThat(type).startsWith("application/problem+json"));
		assertThat(response.body()).doesNotMatch("\\s*-?[0-9]+\\s*");
		JsonNode problem = json.readTree(response.body());
		assertThat(problem.get("status").asInt()).isEqualTo(503);
		assertThat(problem.get("title").asString()).isEqualTo("No ID can be issued right now");
		assertThat(problem.get("detail").asString()).contains("Every number of key '" + TAG + "'")
			.contains("Cannot reach the database that holds the Leaf table " + TABLE);
		problem.properties().forEach((field) -> assertThat(field.getValue().isNumber())
			.as("%s is no number but the status", field.getKey())
			.isEqualTo("status".equals(field.getKey())));
	}

	private HttpResponse<String> get(String path) throws Exception {
		return this.http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + this.port + path)).build(),
				HttpResponse.BodyHandlers.ofString());
	}

}
