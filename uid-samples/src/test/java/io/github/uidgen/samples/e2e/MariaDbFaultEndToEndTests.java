package io.github.uidgen.samples.e2e;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import io.github.uidgen.testsupport.ThrowawayMariaDb;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code mysql} profile against a MariaDB server of the test's own: besides the paused holder, the database is
 * stopped for 20 s while two instances serve, one with each generator, and started again. At the default lease (30 s)
 * and clock skew (2 s) both issue on their leases meanwhile: they refuse no request, {@code /actuator/health/uid}
 * stays UP and says how long the database has been silent and how long issue can go on, and once the database is
 * back their renewals come through again within a second or so, without a restart.
 */
class MariaDbFaultEndToEndTests extends StoreFaultEndToEndTests {

	static final Duration OUTAGE = Duration.ofSeconds(20);

	/**
	 * How soon after the database's return an instance's renewals must come through again: at the next retry (100 ms),
	 * on a connection the assigner opens without the pool while the pool has none to give (HikariCP's own retries are
	 * up to 5 s apart by then), plus time for the connection, the renewal and the health read (every 200 ms) on a busy
	 * machine.
	 */
	static final Duration RESUMES_WITHIN = Duration.ofSeconds(3);

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
	void databaseStoppedForTwentySecondsRefusesNothingAndHealthSaysHowLongIssueCanGoOn() {
		String namespace = namespace("outage");
		List<SampleProcess> instances = List.of(launch("outage-cached", namespace, List.of()),
				launch("outage-default", namespace, List.of("--uid.generator=default")));
		instances.forEach((instance) -> instance.awaitReady(STARTUP));
		List<Long> workerIds = instances.stream().map(StoreFaultEndToEndTests::workerId).toList();
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
		SoftAssertions softly = new SoftAssertions();
		for (int i = 0; i < instances.size(); i++) {
			assertHealthAnswersDuringOutage(softly, instances.get(i), health.get(i), stoppedAt, stoppedAt.plus(OUTAGE));
		}
		Waits.until(stoppedAt.plus(OUTAGE));
		assertThat(this.db.process().isAlive() || this.db.answers())
			.as("the database stayed down from %s for %s", stoppedAt, OUTAGE)
			.isFalse();
		this.db.start();
		Instant startedAt = Instant.now();

		health.forEach((watch) -> awaitStoreHeardAgain(softly, watch, startedAt, startedAt.plus(RESUMES_WITHIN)));
		traffic.forEach((loop) -> loop.awaitServed(loop.answers(TrafficLoop.Answer::ok).size() + 3, STARTUP));
		ServedIds served = new ServedIds();
		traffic.forEach((loop) -> served.add(loop.name(), loop.stop()));
		for (int i = 0; i < instances.size(); i++) {
			assertRodeThrough(softly, traffic.get(i), health.get(i), stoppingAt, startedAt);
			assertAllOfWorker(served.of(instances.get(i).name()), DEFAULT_LAYOUT, workerIds.get(i));
		}
		served.assertNoDuplicates(softly, "before, during and after the outage");
		softly.assertAll();
	}

}
