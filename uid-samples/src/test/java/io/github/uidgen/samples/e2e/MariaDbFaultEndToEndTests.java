package io.github.uidgen.samples.e2e;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import io.github.uidgen.samples.e2e.SampleClient.HealthAnswer;
import io.github.uidgen.samples.e2e.SampleClient.UidAnswer;
import io.github.uidgen.testsupport.ThrowawayMariaDb;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code mysql} profile against a MariaDB server of the test's own: besides the paused holder, the database is
 * stopped for 15 s while two instances serve, and started again. With the connection pool's and driver's defaults
 * (uid has to bound its own store calls), each instance must keep serving while its recorded mark lasts, then
 * refuse with a detail that gives the cause, report DOWN within seconds of its first refusal, and come back UP and
 * serving by itself once the database is back, as the documentation promises, without a restart.
 */
class MariaDbFaultEndToEndTests extends StoreFaultEndToEndTests {

	static final Duration OUTAGE = Duration.ofSeconds(15);

	/** How soon after an instance's first refusal its {@code uid} health must say DOWN. */
	static final Duration DOWN_WITHIN = Duration.ofSeconds(5);

	/** How soon after the database is back an instance must be UP and serving again. */
	static final Duration RECOVERS_WITHIN = Duration.ofSeconds(20);

	/**
	 * What a refusal during the outage must name besides "no ID": why, such as the mark not recorded since some
	 * time, the store call outstanding, or the database out of reach.
	 */
	static final String CAUSE = "(?is).*(since|outstanding|database|unreachable|reach).*";

	private ThrowawayMariaDb db;

	MariaDbFaultEndToEndTests() {
		super("mysql");
	}

	@Override
	void startStore(Path dir) {
		this.db = ThrowawayMariaDb.start(dir);
	}

	@Override
	void stopStore() {
		if (this.db != null) {
			this.db.close();
		}
	}

	@Override
	List<String> storeArguments(String namespace) {
		return List.of("--spring.datasource.url=jdbc:mysql://127.0.0.1:" + this.db.port() + "/test",
				"--uid.worker.db.lease-table=" + namespace);
	}

	@Override
	List<String> leaseArguments(Duration lease, Duration heartbeat) {
		return List.of("--uid.worker.db.lease-duration=" + lease.toMillis() + "ms",
				"--uid.worker.db.heartbeat-interval=" + heartbeat.toMillis() + "ms");
	}

	@Test
	@Order(2)
	void databaseStoppedForFifteenSecondsFailsRequestsWithTheCauseAndHealthFollowsBothWays() {
		List<SampleProcess> instances = launchReady(namespace("outage"), List.of(), "outage-a", "outage-b");
		List<TrafficLoop> traffic = new ArrayList<>();
		List<HealthWatch> health = new ArrayList<>();
		for (SampleProcess instance : instances) {
			traffic.add(traffic(instance, 1_000, Duration.ofMillis(20)));
			health.add(watchHealth(instance));
		}
		traffic.forEach((loop) -> loop.awaitServed(10, STARTUP));

		Instant stoppingAt = Instant.now();
		this.db.stop();
		Instant stoppedAt = Instant.now();
		assertThat(this.db.process().isAlive()).as("mariadbd (pid %s) exited", this.db.process().pid()).isFalse();
		Waits.until(stoppedAt.plus(OUTAGE));
		assertThat(this.db.process().isAlive() || this.db.answers())
			.as("the database stayed down from %s for %s", stoppedAt, OUTAGE)
			.isFalse();
		this.db.start();
		Instant startedAt = Instant.now();

		SoftAssertions softly = new SoftAssertions();
		ServedIds served = new ServedIds();
		for (SampleProcess instance : instances) {
			assertRecovers(softly, instance, startedAt, served.of(instance.name()));
		}
		Waits.sleep(Duration.ofSeconds(1));
		traffic.forEach((loop) -> served.add(loop.name(), loop.stop()));
		health.forEach(HealthWatch::close);
		for (int i = 0; i < instances.size(); i++) {
			assertOutageSeen(softly, traffic.get(i), health.get(i), stoppingAt, stoppedAt, startedAt);
		}
		served.assertNoDuplicates(softly, "before, during and after the outage");
		softly.assertAll();
	}

	/**
	 * Checks what one instance's client and health said between the stop of the database and its start.
	 */
	private static void assertOutageSeen(SoftAssertions softly, TrafficLoop traffic, HealthWatch health,
			Instant stoppingAt, Instant stoppedAt, Instant startedAt) {
		String name = traffic.name();
		softly.assertThat(traffic.answers((answer) -> answer.ok() && answer.received().isAfter(stoppedAt)))
			.as("%s kept serving from its recorded mark after the database stopped at %s", name, stoppedAt)
			.isNotEmpty();
		Optional<TrafficLoop.Answer> firstFailure = traffic.firstFailureAfter(stoppingAt);
		if (firstFailure.isEmpty()) {
			softly.fail("%s never refused a request while the database was down from %s to %s; last answers: %s",
					name, stoppedAt, startedAt, traffic.lastAnswers(5));
			return;
		}
		TrafficLoop.Answer failure = firstFailure.get();
		softly.assertThat(failure.received())
			.as("%s's first refusal %s came while the database was down", name, failure)
			.isBefore(startedAt);
		softly.assertThat(failure.status()).as("%s's first refusal: %s", name, failure).isEqualTo(503);
		softly.assertThat(failure.detail())
			.as("%s's first refusal gives the cause (the mark not recorded since when, the store call outstanding, "
					+ "the database out of reach)", name)
			.matches(CAUSE);
		Instant downBy = failure.received().plus(DOWN_WITHIN);
		Optional<HealthWatch.Reading> down = health.firstAfter(stoppingAt, HealthAnswer::isDown);
		softly.assertThat(down.map(HealthWatch.Reading::at))
			.as("%s: /actuator/health/uid DOWN by %s, %s after the first refusal at %s; %s", name, downBy,
					DOWN_WITHIN, failure.received(), health.changes())
			.hasValueSatisfying((at) -> assertThat(at).isBeforeOrEqualTo(downBy));
	}

	/**
	 * Checks that an instance is UP and serving again soon after the database is back, without a restart.
	 */
	private static void assertRecovers(SoftAssertions softly, SampleProcess instance, Instant startedAt,
			IssuedIds probed) {
		Instant deadline = startedAt.plus(RECOVERS_WITHIN);
		UidAnswer[] last = new UidAnswer[1];
		UidAnswer served = Waits.poll(deadline, () -> {
			last[0] = tryUid(instance);
			if (last[0].ok()) {
				probed.addAll(new long[] { last[0].id() });
				return last[0];
			}
			return null;
		});
		softly.assertThat(served)
			.as("%s serves again by %s, %s after the database was back; last answer %s", instance.name(), deadline,
					RECOVERS_WITHIN, last[0])
			.isNotNull();
		HealthAnswer[] health = new HealthAnswer[1];
		HealthAnswer up = Waits.poll(deadline, () -> {
			try {
				health[0] = instance.client().health("/actuator/health/uid", Duration.ofSeconds(3));
			}
			catch (java.io.IOException ex) {
				health[0] = new HealthAnswer(-1, "NO ANSWER", ex.toString());
			}
			return health[0].isUp() ? health[0] : null;
		});
		softly.assertThat(up)
			.as("%s: /actuator/health/uid UP again by %s; last: %s", instance.name(), deadline,
					(health[0] != null) ? health[0].body() : null)
			.isNotNull();
	}

}
