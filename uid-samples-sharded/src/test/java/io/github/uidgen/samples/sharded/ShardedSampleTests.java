package io.github.uidgen.samples.sharded;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.github.uidgen.UidGenerator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.client.HttpClientErrorException;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * The sharded sample over HTTP, on two databases of its own on the MariaDB of {@code .ci/run}: orders and items get
 * uid IDs through MyBatis-Plus, MyBatis and ShardingSphere's key generator, land in this year's tables of both
 * databases, and a range by time finds them.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class ShardedSampleTests {

	private static final String RUN = UUID.randomUUID().toString().replace("-", "").substring(0, 8);

	private static final List<String> DATABASES = List.of("uid_sample_" + RUN + "_ds_0", "uid_sample_" + RUN + "_ds_1");

	@LocalServerPort
	private int port;

	@Autowired
	private UidGenerator uids;

	@DynamicPropertySource
	static void ownDatabases(DynamicPropertyRegistry registry) {
		registry.add("sample.databases", () -> String.join(",", DATABASES));
		registry.add("uid.worker.static.state-file", () -> "target/uid-state/sharded-sample.state");
	}

	@AfterAll
	static void dropDatabases() throws SQLException {
		try (Connection connection = server(); Statement statement = connection.createStatement()) {
			for (String database : DATABASES) {
				statement.execute("DROP DATABASE IF EXISTS " + database);
			}
		}
	}

	@Test
	void ordersAndItemsGetUidIdsAndLandInTheirShards() throws SQLException {
		RestClient client = RestClient.create("http://127.0.0.1:" + this.port);
		Instant before = Instant.now().minus(1, ChronoUnit.MINUTES);
		List<Long> orderIds = new ArrayList<>();
		for (int n = 0; n < 20; n++) {
			Map<String, String> order = client.post().uri("/orders?item=book-" + n).retrieve().body(MAP);
			orderIds.add(Long.parseLong(order.get("id")));
		}
		for (int n = 0; n < 5; n++) {
			client.post().uri("/items?name=pen-" + n).retrieve().body(MAP);
		}
		Map<String, Object> keyed = client.post().uri("/items/keyed?count=4").retrieve().body(OBJECT_MAP);
		assertThat(keyed).containsEntry("inserted", 4);

		assertThat(orderIds).doesNotHaveDuplicates()
			.allSatisfy((id) -> assertThat(this.uids.decode(id).workerId()).isEqualTo(1));
		String year = String.valueOf(java.time.Year.now(java.time.ZoneOffset.UTC).getValue());
		List<Long> stored = ids("t_order_" + year);
		assertThat(stored).containsExactlyInAnyOrderElementsOf(orderIds);
		assertThat(count(DATABASES.get(0), "t_order_" + year)).isBetween(3L, 17L);
		List<Long> itemIds = ids("t_item_0");
		itemIds.addAll(ids("t_item_1"));
		assertThat(itemIds).hasSize(9).doesNotHaveDuplicates()
			.allSatisfy((id) -> assertThat(this.uids.decode(id).workerId()).isEqualTo(1));

		List<Map<String, String>> recent = client.get()
			.uri("/orders?from={from}&to={to}", before, Instant.now().plus(1, ChronoUnit.MINUTES))
			.retrieve()
			.body(LIST);
		assertThat(recent).extracting((order) -> Long.parseLong(order.get("id")))
			.containsExactlyInAnyOrderElementsOf(orderIds);
		assertThat(client.get()
			.uri("/orders?from={from}&to={to}", "2025-01-01T00:00:00Z", "2025-12-31T23:59:59Z")
			.retrieve()
			.body(LIST)).isEmpty();
		assertThatExceptionOfType(HttpClientErrorException.BadRequest.class)
			.isThrownBy(() -> client.get().uri("/orders?from=yesterday&to=today").retrieve().body(LIST))
			.withMessageContaining("Parameter 'from' must be an ISO-8601 instant");
	}

	@Test
	void aWindowOutsideTheTablesOrRunningBackwardsIsABadRequest() {
		RestClient client = RestClient.create("http://127.0.0.1:" + this.port);
		assertThat(badRequest(client, "2040-01-01T00:00:00Z", "2041-01-01T00:00:00Z"))
			.contains("one table per year from 2025 to 2034");
		assertThat(badRequest(client, "2020-01-01T00:00:00Z", "2021-01-01T00:00:00Z"))
			.contains("one table per year from 2025 to 2034");
		assertThat(badRequest(client, "2026-12-01T00:00:00Z", "2026-01-01T00:00:00Z"))
			.contains("'from' (2026-12-01T00:00:00Z) must not be after 'to' (2026-01-01T00:00:00Z)");
		// A window that only reaches into the tables' years is cut to them.
		assertThat(client.get()
			.uri("/orders?from={from}&to={to}", "2020-01-01T00:00:00Z", "2025-01-01T00:00:00Z")
			.retrieve()
			.body(LIST)).isEmpty();
	}

	/** The body of the 400 that {@code GET /orders} answers, failing if it answers anything else. */
	private static String badRequest(RestClient client, String from, String to) {
		HttpClientErrorException.BadRequest answer = catchThrowableOfType(HttpClientErrorException.BadRequest.class,
				() -> client.get().uri("/orders?from={from}&to={to}", from, to).retrieve().body(LIST));
		assertThat(answer).as("GET /orders?from=%s&to=%s answers 400", from, to).isNotNull();
		return answer.getResponseBodyAsString();
	}

	private static List<Long> ids(String table) throws SQLException {
		List<Long> ids = new ArrayList<>();
		try (Connection connection = server(); Statement statement = connection.createStatement()) {
			for (String database : DATABASES) {
				try (ResultSet rows = statement.executeQuery("SELECT id FROM " + database + "." + table)) {
					while (rows.next()) {
						ids.add(rows.getLong(1));
					}
				}
			}
		}
		return ids;
	}

	private static long count(String database, String table) throws SQLException {
		try (Connection connection = server(); Statement statement = connection.createStatement();
				ResultSet rows = statement.executeQuery("SELECT COUNT(*) FROM " + database + "." + table)) {
			rows.next();
			return rows.getLong(1);
		}
	}

	private static Connection server() throws SQLException {
		return DriverManager.getConnection("jdbc:mysql://127.0.0.1:3306/?connectTimeout=5000", "root", "");
	}

	private static final ParameterizedTypeReference<Map<String, String>> MAP = new ParameterizedTypeReference<>() {
	};

	private static final ParameterizedTypeReference<Map<String, Object>> OBJECT_MAP = new ParameterizedTypeReference<>() {
	};

	private static final ParameterizedTypeReference<List<Map<String, String>>> LIST = new ParameterizedTypeReference<>() {
	};

}
