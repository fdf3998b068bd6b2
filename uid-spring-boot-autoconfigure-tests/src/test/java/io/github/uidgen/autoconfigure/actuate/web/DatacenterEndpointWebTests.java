package io.github.uidgen.autoconfigure.actuate.web;

import io.github.uidgen.UidGenerator;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code uid} endpoint and health component of an application in data center 5 of 8 (3 of the 10 worker
 * bits): the description names the data center and the layout's data-center bits, parse takes an ID apart into
 * data center, worker and sequence, and an ID of another data center decodes to that one.
 */
@SpringBootTest(classes = UidEndpointTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "management.endpoints.web.exposure.include=uid,health",
				"management.endpoint.health.show-details=always", "uid.worker.assigner=static", "uid.worker.id=9",
				"uid.datacenter-bits=3", "uid.datacenter-id=5" })
class DatacenterEndpointWebTests extends AbstractEndpointWebTests {

	@Autowired
	UidGenerator generator;

	@Test
	void describesTheDataCenterAndTheLayoutsDataCenterBits() throws Exception {
		JsonNode body = getJson("/actuator/uid");
		assertThat(body.get("datacenterId").asLong()).isEqualTo(5);
		assertThat(body.get("workerId").asLong()).isEqualTo(9);
		JsonNode layout = body.get("layout");
		assertThat(layout.get("workerBits").asInt()).isEqualTo(10);
		assertThat(layout.get("datacenterBits").asInt()).isEqualTo(3);
		assertThat(layout.get("maxDatacenterId").asLong()).isEqualTo(7);
		assertThat(layout.get("maxWorkerId").asLong()).isEqualTo(127);
	}

	@Test
	void parseShowsTheDataCenterOfAnIdOfThisOneAndOfAnother() throws Exception {
		long uid = this.generator.getUID();
		JsonNode parsed = getJson("/actuator/uid/parse?uid=" + uid);
		assertThat(parsed.get("datacenterId").asLong()).isEqualTo(5);
		assertThat(parsed.get("workerId").asLong()).isEqualTo(9);
		assertThat(parsed.get("sequence").asLong()).isEqualTo(this.generator.decode(uid).sequence());

		// Worker 9 of data center 2, in the same millisecond: another ID, read back as such.
		long fromDataCenterTwo = this.generator.layout().compose(uid >>> 22, 2, 9, this.generator.decode(uid).sequence());
		assertThat(fromDataCenterTwo).isNotEqualTo(uid);
		JsonNode other = getJson("/actuator/uid/parse?uid=" + fromDataCenterTwo);
		assertThat(other.get("datacenterId").asLong()).isEqualTo(2);
		assertThat(other.get("workerId").asLong()).isEqualTo(9);
		assertThat(other.get("timestamp").asString()).isEqualTo(parsed.get("timestamp").asString());
	}

	@Test
	void healthNamesTheDataCenter() throws Exception {
		JsonNode details = getJson("/actuator/health").get("components").get("uid").get("details");
		assertThat(details.get("datacenterId").asLong()).isEqualTo(5);
		assertThat(details.get("workerId").asLong()).isEqualTo(9);
	}

}
