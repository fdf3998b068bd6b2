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

	/** A renewal due every 1.5 s that reaches Redis a second late still falls within a 3 s probation. */
	@Test
	void aLongHeartbeatIsCappedAndTheProbationAddsASecondForALateRenewalAndAtMostHalfASecond() {
		RegistryNamespace registry = open(Duration.ofSeconds(10));
		assertThat(registry.checkInterval()).isEqualTo(RegistryNamespace.MAX_CHECK_INTERVAL);
		assertThat(registry.probation()).isEqualTo(Duration.ofSeconds(3));
	}

	/** A short heartbeat shortens the probation, but never below the interval plus a second for a late renewal. */
	@Test
	void aShortHeartbeatIsKeptAndTheProbationAddsASecondForALateRenewalAndHalfOfIt() {
		RegistryNamespace registry = open(Duration.ofMillis(400));
		assertThat(registry.checkInterval()).isEqualTo(Duration.ofMillis(400));
		assertThat(registry.probation()).isEqualTo(Duration.ofMillis(1_600));
		assertThat(open(Duration.ofMillis(100)).probation()).as("at least 100 ms for the round trip")
			.isEqualTo(Duration.ofMillis(1_200));
	}

	private static RegistryNamespace open(Duration heartbeat) {
		LeaseSettings lease = new LeaseSettings(Duration.ofSeconds(30), heartbeat, "me", null);
		return RegistryNamespace.open(RegistryScripts.templateOn(new LettuceConnectionFactory()), "{uid:test}", lease,
				Duration.ofSeconds(15), RegistryTrust.SAME_SERVER, false);
	}

}
