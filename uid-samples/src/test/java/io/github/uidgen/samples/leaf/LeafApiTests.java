package io.github.uidgen.samples.leaf;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.text.SimpleDateFormat;
import java.time.Duration;
import java.util.Date;
import java.util.UUID;

import io.github.uidgen.testsupport.ThrowawayZooKeeper;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Leaf's three URLs on the sample running its {@code leaf} profile, over real HTTP, against a {@code leaf_alloc}
 * table of Leaf's shape in MariaDB and a ZooKeeper tree laid out as Leaf servers leave it: the bodies Leaf's clients
 * read (a decimal as plain text, Leaf's decode map), and failures that are never a number with 200.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@ActiveProfiles("leaf")
class LeafApiTests {

	private static final String MARIADB = "jdbc:mysql://127.0.0.1:3306/test";

	private static final String TABLE = "leaf_api_" + UUID.randomUUID().toString().substring(0, 8);

	private static final String LEAF_NAME = "com.example.leaf-api-" + UUID.randomUUID().toString().substring(0, 8);

	private static ThrowawayZooKeeper zooKeeper;

	private static final JsonMapper json = JsonMapper.builder().build();

	private final HttpClient http = HttpClient.newHttpClient();

	@LocalServerPort
	private int port;

	@DynamicPropertySource
	static void leafDeployment(DynamicPropertyRegistry registry) throws Exception {
		sql("CREATE TABLE " + TABLE + " (biz_tag varchar(128) NOT NULL DEFAULT '', max_id bigint(20) NOT NULL "
				+ "DEFAULT '1', step int(11) NOT NULL, description varchar(256) DEFAULT NULL, update_time timestamp NOT "
				+ "NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP, PRIMARY KEY (biz_tag)) ENGINE=InnoDB");
		sql("INSERT INTO " + TABLE + " (biz_tag, max_id, step, description) VALUES ('leaf-segment-test', 2001, 2000, "
				+ "'Test leaf Segment Mode Get Id')");
		zooKeeper = ThrowawayZooKeeper.start();
		try (CuratorFramework curator = zooKeeper.newClient(Duration.ofSeconds(10))) {
			long stopped = System.currentTimeMillis() - 60_000;
			for (String ip : new String[] { "10.3.0.1", "10.3.0.2", "10.3.0.3" }) {
				curator.create()
					.creatingParentsIfNeeded()
					.withMode(CreateMode.PERSISTENT_SEQUENTIAL)
					.forPath("/snowflake/" + LEAF_NAME + "/forever/" + ip + ":8080-", ("{\"ip\":\"" + ip
							+ "\",\"port\":\"8080\",\"timestamp\":" + stopped + "}").getBytes(StandardCharsets.UTF_8));
			}
		}
		registry.add("spring.datasource.url", () -> MARIADB);
		registry.add("uid.segment.leaf.table", () -> TABLE);
		registry.add("uid.worker.zookeeper.connect-string", zooKeeper::connectString);
		registry.add("uid.worker.zookeeper.leaf.name", () -> LEAF_NAME);
		registry.add("uid.worker.zookeeper.leaf.ip", () -> "10.3.0.3");
		registry.add("uid.worker.zookeeper.leaf.port", () -> "8080");
	}

	@AfterAll
	static void dropLeafDeployment() throws Exception {
		sql("DROP TABLE IF EXISTS " + TABLE);
		if (zooKeeper != null) {
			zooKeeper.close();
		}
	}

	private static void sql(String statement) throws SQLException {
		try (Connection connection = DriverManager.getConnection(MARIADB, "root", "")) {
			connection.createStatement().execute(statement);
		}
	}

	@Test
	void segmentAnswersTheNextNumberOfTheRowAsPlainText() throws Exception {
		long previous = 0;
		for (int i = 0; i < 100; i++) {
			HttpResponse<String> response = get("/api/segment/get/leaf-segment-test");
			assertThat(response.statusCode()).isEqualTo(200);
			assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
					(type) -> assertThat(type).startsWith("text/plain"));
			assertThat(response.body()).matches("[1-9][0-9]*");
			long number = Long.parseLong(response.body());
			assertThat(number).as("inside the claim Leaf's arithmetic gives: max_id 2001, step 2000")
				.isBetween(2001L, 4000L)
				.isGreaterThan(previous);
			previous = number;
		}
	}

	@Test
	void anUnknownTagIsA404NamingTheInsertAndIsServedOnceItsRowExists() throws Exception {
		HttpResponse<String> unknown = get("/api/segment/get/new-tag");
		assertThat(unknown.statusCode()).isEqualTo(404);
		JsonNode problem = json.readTree(unknown.body());
		assertThat(problem.get("detail").asString()).contains("There is no row for biz_tag 'new-tag'")
			.contains("INSERT INTO " + TABLE);
		assertThat(problem.get("key").asString()).isEqualTo("new-tag");
		sql("INSERT INTO " + TABLE + " (biz_tag, max_id, step) VALUES ('new-tag', 1, 10)");
		HttpResponse<String> served = get("/api/segment/get/new-tag");
		assertThat(served.statusCode()).isEqualTo(200);
		assertThat(served.body()).isEqualTo("1");
	}

	@Test
	void aKeyThatCannotBeOneIsA400() throws Exception {
		HttpResponse<String> response = get("/api/segment/get/a%20b");
		assertThat(response.statusCode()).isEqualTo(400);
		assertThat(json.readTree(response.body()).get("detail").asString()).startsWith("Invalid key 'a b'");
	}

	@Test
	void snowflakeAnswersAnIdWithTheWorkerIdLeafGaveThisIpPort() throws Exception {
		HttpResponse<String> response = get("/api/snowflake/get/any-key");
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.body()).matches("[1-9][0-9]*");
		long id = Long.parseLong(response.body());
		assertThat((id >> 12) ^ (id >> 22 << 10)).as("Leaf's own decode: the node of 10.3.0.3:8080").isEqualTo(2);
		assertThat((id >> 22) + 1288834974657L).isBetween(System.currentTimeMillis() - 60_000,
				System.currentTimeMillis());
		assertThat(get("/api/snowflake/get/other").body()).isNotEqualTo(response.body());
	}

	@Test
	void decodeSnowflakeIdAnswersLeafsMapOfStrings() throws Exception {
		long id = Long.parseLong(get("/api/snowflake/get/k").body());
		HttpResponse<String> response = get("/decodeSnowflakeId?snowflakeId=" + id);
		assertThat(response.statusCode()).isEqualTo(200);
		long timestamp = (id >> 22) + 1288834974657L;
		String expected = "{\"timestamp\":\"" + timestamp + "(" + new SimpleDateFormat("yyyy-MM-dd HH:mm:ss.SSS")
			.format(new Date(timestamp)) + ")\",\"sequenceId\":\"" + (id ^ (id >> 12 << 12)) + "\",\"workerId\":\""
				+ ((id >> 12) ^ (id >> 22 << 10)) + "\"}";
		assertThat(response.body()).as("LeafMonitorController.decodeSnowflakeId's map").isEqualTo(expected);
	}

	@Test
	void aSnowflakeIdThatIsNotOneIsA400() throws Exception {
		for (String bad : new String[] { "abc", "-5", "" }) {
			HttpResponse<String> response = get("/decodeSnowflakeId?snowflakeId=" + bad);
			assertThat(response.statusCode()).as("'%s'", bad).isEqualTo(400);
			assertThat(json.readTree(response.body()).get("title").asString()).isEqualTo("Invalid snowflakeId");
		}
		HttpResponse<String> missing = get("/decodeSnowflakeId");
		assertThat(missing.statusCode()).isEqualTo(400);
		assertThat(json.readTree(missing.body()).get("detail").asString()).contains("'snowflakeId' is required");
	}

	private HttpResponse<String> get(String path) throws Exception {
		return this.http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + this.port + path)).build(),
				HttpResponse.BodyHandlers.ofString());
	}

}
