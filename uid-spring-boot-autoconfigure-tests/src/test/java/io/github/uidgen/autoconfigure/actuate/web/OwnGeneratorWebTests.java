package io.github.uidgen.autoconfigure.actuate.web;

import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;

import io.github.uidgen.UidGenerator;
import io.github.uidgen.UidGeneratorStatus;
import io.github.uidgen.UidLayout;
import io.github.uidgen.UidUnavailableException;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An application's own {@link UidGenerator} bean takes part in {@code /actuator/uid}, the {@code uid} health component
 * and the meters by reporting a {@link UidGeneratorStatus}: the auto-configured ones back off, and the endpoint and
 * health show what it says, DOWN when it says it cannot issue.
 */
@SpringBootTest(classes = OwnGeneratorWebTests.Application.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "management.endpoints.web.exposure.include=uid,health,metrics",
				"management.endpoint.health.show-details=always" })
class OwnGeneratorWebTests extends AbstractEndpointWebTests {

	@Autowired
	OrderNumbers orderNumbers;

	@Test
	void theEndpointAndHealthShowWhatTheApplicationsGeneratorReports() throws Exception {
		this.orderNumbers.getUID();
		this.orderNumbers.getUID();
		JsonNode described = this.json.readTree(get("/actuator/uid").body());
		assertThat(described.path("generator").asString()).isEqualTo("order-numbers");
		assertThat(described.path("workerId").asLong()).isEqualTo(77);
		assertThat(described.path("assigner").asString()).isEqualTo("by-hand");
		assertThat(described.path("issued").asLong()).isEqualTo(2);
		assertThat(described.path("layout").path("timeBits").asInt()).isEqualTo(41);

		HttpResponse<String> up = get("/actuator/health/uid");
		assertThat(up.statusCode()).isEqualTo(200);
		JsonNode health = this.json.readTree(up.body());
		assertThat(health.path("status").asString()).isEqualTo("UP");
		assertThat(health.path("details").path("generator").asString()).isEqualTo("order-numbers");
		assertThat(health.path("details").path("workerId").asLong()).isEqualTo(77);

		JsonNode issued = this.json.readTree(get("/actuator/metrics/uid.ids.issued").body());
		assertThat(issued.path("measurements").get(0).path("value").asDouble()).isEqualTo(2.0);

		this.orderNumbers.broken = true;
		HttpResponse<String> down = get("/actuator/health/uid");
		assertThat(down.statusCode()).isEqualTo(503);
		assertThat(this.json.readTree(down.body()).path("details").path("error").asString())
			.isEqualTo("The order number table is read-only");
		assertThat(this.json.readTree(get("/actuator/uid").body()).path("failure").asString())
			.isEqualTo("The order number table is read-only");
	}

	/** An application's own generator that says what it is. */
	static class OrderNumbers implements UidGenerator {

		private final AtomicLong next = new AtomicLong();

		volatile boolean broken;

		@Override
		public long getUID() {
			return this.next.incrementAndGet();
		}

		@Override
		public UidLayout layout() {
			return UidLayout.defaults();
		}

		@Override
		public UidGeneratorStatus status() {
			return new UidGeneratorStatus("order-numbers", layout(),
					new UidGeneratorStatus.Worker(77, "by-hand", Instant.now(), 0, false), this.next.get(), 0, null,
					null, null, this.broken ? new UidUnavailableException("The order number table is read-only") : null);
		}

	}

	@Configuration(proxyBeanMethods = false)
	@Import(UidEndpointTestApplication.class)
	static class Application {

		@Bean
		OrderNumbers orderNumbers() {
			return new OrderNumbers();
		}

	}

}
