package io.github.uidgen.worker.redis;

import java.time.Duration;

import io.github.uidgen.worker.support.LeaseSettings;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How a namespace's renewal interval and claim probation follow from the heartbeat: no Redis needed, nothing is sent.
 */
class RegistryNamespaceTests {

	@Test
	void aLongHeartbeatIsCappedAndTheProbationAddsAtMostHalfASecond() {
		RegistryNamespace registry = open(Duration.ofSeconds(10));
		assertThat(registry.checkInterval()).isEqualTo(RegistryNamespace.MAX_CHECK_INTERVAL);
		assertThat(registry.probation()).isEqualTo(Duration.ofSeconds(2));
	}

	@Test
	void aShortHeartbeatIsKeptAndTheProbationAddsHalfOfIt() {
		RegistryNamespace registry = open(Duration.ofMillis(400));
		assertThat(registry.checkInterval()).isEqualTo(Duration.ofMillis(400));
		assertThat(registry.probation()).isEqualTo(Duration.ofMillis(600));
	}

	private static RegistryNamespace open(Duration heartbeat) {
		LeaseSettings lease = new LeaseSettings(Duration.ofSeconds(30), heartbeat, "me", null);
		return RegistryNamespace.open(new LettuceConnectionFactory(), "{uid:test}", lease, Duration.ofSeconds(15),
				RegistryTrust.SAME_SERVER, false);
	}

}
