package io.github.uidgen.autoconfigure.actuate.web;

import java.net.http.HttpResponse;
import java.util.Set;
import java.util.UUID;

import io.github.uidgen.UidGenerator;
import io.github.uidgen.segment.SegmentUidGenerators;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The segment generator over HTTP, on the real Redis: {@code /actuator/uid} shows its segments and every key in
 * use, {@code parse} answers 400 saying a segment ID carries no time or worker, the {@code uid} health component
 * shows each key, and the meters carry the key as a tag.
 */
@SpringBootTest(classes = SegmentGeneratorWebTests.Application.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "management.endpoints.web.exposure.include=uid,health,metrics",
				"management.endpoint.health.show-details=always", "uid.generator=segment", "uid.segment.store=redis",
				"uid.segment.redis.require-persistence=false", "uid.segment.key=web-orders", "uid.segment.step=10" })
class SegmentGeneratorWebTests extends AbstractEndpointWebTests {

	private static final String KEY_PREFIX = "uid_web_seg_" + UUID.randomUUID().toString().substring(0, 8);

	@Autowired
	UidGenerator generator;

	@Autowired
	SegmentUidGenerators sequences;

	@DynamicPropertySource
	static void keyPrefix(DynamicPropertyRegistry registry) {
		registry.add("uid.segment.redis.key-prefix", () -> KEY_PREFIX);
	}

	@AfterAll
	static void deleteKeys() {
		LettuceConnectionFactory factory = Application.connectionFactory();
		try {
			StringRedisTemplate redis = new StringRedisTemplate(factory);
			Set<String> keys = redis.keys(KEY_PREFIX + "*");
			redis.delete(keys);
		}
		finally {
			factory.destroy();
		}
	}

	@Test
	void theEndpointHealthAndMetersDescribeEveryKey() throws Exception {
		assertThat(this.generator.getUID()).isOne();
		this.sequences.forKey("web-invoices").getUID();
		this.sequences.forKey("web-invoices").getUID();

		HttpResponse<String> response = get("/actuator/uid");
		assertThat(response.statusCode()).isEqualTo(200);
		JsonNode body = this.json.readTree(response.body());
		assertThat(body.path("generator").asString()).isEqualTo("segment");
		assertThat(body.path("layout").isNull()).as("no layout").isTrue();
		assertThat(body.path("workerId").isNull()).as("no worker").isTrue();
		assertThat(body.path("ring").isNull()).isTrue();
		assertThat(body.path("issued").asLong()).isOne();
		JsonNode segment = body.path("segment");
		assertThat(segment.path("key").asString()).isEqualTo("web-orders");
		assertThat(segment.path("step").asLong()).isEqualTo(10);
		assertThat(segment.path("remaining").asLong()).isEqualTo(9);
		assertThat(segment.path("segmentsFetched").asLong()).isOne();
		assertThat(segment.path("storeFailures").asLong()).isZero();
		JsonNode keys = body.path("segmentKeys");
		assertThat(keys.size()).isEqualTo(2);
		assertThat(keys.get(0).path("key").asString()).isEqualTo("web-invoices");
		assertThat(keys.get(0).path("issued").asLong()).isEqualTo(2);
		assertThat(keys.get(0).path("remaining").asLong()).isEqualTo(8);
		assertThat(keys.get(0).path("failure").isNull()).isTrue();
		assertThat(keys.get(1).path("key").asString()).isEqualTo("web-orders");

		HttpResponse<String> parsed = get("/actuator/uid/parse?uid=1");
		assertThat(parsed.statusCode()).isEqualTo(400);
		assertThat(this.json.readTree(parsed.body()).path("message").asString()).contains("is a segment ID")
			.contains("no time, worker ID or sequence in it");

		HttpResponse<String> health = get("/actuator/health/uid");
		assertThat(health.statusCode()).isEqualTo(200);
		JsonNode details = this.json.readTree(health.body()).path("details");
		assertThat(details.path("generator").asString()).isEqualTo("segment");
		assertThat(details.path("key").asString()).isEqualTo("web-orders");
		assertThat(details.path("remaining").asLong()).isEqualTo(9);
		assertThat(details.path("keys").path("web-invoices").path("status").asString()).isEqualTo("UP");
		assertThat(details.path("keys").path("web-invoices").path("remaining").asLong()).isEqualTo(8);

		JsonNode remaining = this.json
			.readTree(get("/actuator/metrics/uid.segment.remaining?tag=key:web-invoices").body());
		assertThat(remaining.path("measurements").get(0).path("value").asDouble()).isEqualTo(8.0);
		JsonNode issued = this.json.readTree(get("/actuator/metrics/uid.ids.issued").body());
		assertThat(issued.path("measurements").get(0).path("value").asDouble()).as("both keys").isEqualTo(3.0);
	}

	/** Everything from auto-configuration, Redis included (spring.data.redis defaults to 127.0.0.1:6379). */
	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration(exclude = DataSourceAutoConfiguration.class)
	static class Application {

		static LettuceConnectionFactory connectionFactory() {
			LettuceConnectionFactory factory = new LettuceConnectionFactory(
					new RedisStandaloneConfiguration("127.0.0.1", 6379));
			factory.afterPropertiesSet();
			factory.start();
			return factory;
		}

	}

}
