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

	/**
	 * A renewal due every 1.5 s that reaches Redis a second late still falls within a 3 s probation; a longer heartbeat
	 * is kept (a fleet renewing less often) and lengthens the probation by as much.
	 */
	@Test
	void theProbationAddsASecondForALateRenewalAndAtMostHalfASecondToTheHeartbeat() {
		assertThat(open(Duration.ofMillis(1_500)).probation()).isEqualTo(Duration.ofSeconds(3));
		RegistryNamespace slow = open(Duration.ofSeconds(10));
		assertThat(slow.checkInterval()).isEqualTo(Duration.ofSeconds(10));
		assertThat(slow.probation()).isEqualTo(Duration.ofMillis(11_500));
	}

	/**
	 * A claim stands the longest heartbeat any claim in the namespace declared, when it is longer than its own: a
	 * holder renewing every 4 s must be heard by a newcomer renewing every 1.5 s.
	 */
	@Test
	void aLongerHeartbeatDeclaredInTheNamespaceLengthensTheProbationAndAShorterOneDoesNot() {
		RegistryNamespace registry = open(Duration.ofMillis(1_500));
		assertThat(registry.probationFor(4_000)).isEqualTo(Duration.ofMillis(5_500));
		assertThat(registry.probationFor(1_500)).isEqualTo(Duration.ofSeconds(3));
		assertThat(registry.probationFor(400)).isEqualTo(Duration.ofSeconds(3));
		assertThat(registry.probationFor(0)).as("no heartbeat declared (claims of an older version)")
			.isEqualTo(Duration.ofSeconds(3));
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
