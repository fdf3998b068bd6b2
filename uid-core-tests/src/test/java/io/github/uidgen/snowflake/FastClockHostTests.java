package io.github.uidgen.snowflake;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.github.uidgen.ClockBehindHighWaterMarkException;
import io.github.uidgen.UidClock;
import io.github.uidgen.UidLayout;
import io.github.uidgen.UidTimeUnit;
import io.github.uidgen.testsupport.SteppableClock;
import io.github.uidgen.testsupport.TestRedis;
import io.github.uidgen.worker.redis.RedisWorkerIdAssigner;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * One host whose clock runs ten minutes fast issues IDs as worker 0 and stops, leaving a mark ten minutes in the
 * future on the lowest free worker ID. Hosts with a correct clock must still start, on other worker IDs; only when
 * that worker ID is the last one free does a start fail, saying which worker's mark lies ahead and by how much.
 */
class FastClockHostTests {

	private static final Duration FAST = Duration.ofMinutes(10);

	private LettuceConnectionFactory connectionFactory;

	private String namespace;

	private final List<AbstractUidGenerator> generators = new ArrayList<>();

	@BeforeEach
	void connect() {
		this.connectionFactory = TestRedis.connectionFactory();
		this.namespace = TestRedis.uniqueNamespace("fast-clock");
		TestRedis.markNewRegistry(this.connectionFactory, "{uid-test:" + this.namespace + "}");
	}

	@AfterEach
	void closeAndWipe() {
		this.generators.forEach(AbstractUidGenerator::close);
		TestRedis.wipe(this.connectionFactory, "{uid-test:" + this.namespace + "}");
		this.connectionFactory.destroy();
	}

	@Test
	void hostsWithACorrectClockStartOnOtherWorkerIdsThanTheOneAFastHostLeftAhead() {
		UidLayout layout = layout(3);
		AbstractUidGenerator fast = start(layout, "fast-host", new SteppableClock(FAST));
		long fastWorker = fast.status().worker().id();
		fast.getUID();
		fast.close();
		this.generators.remove(fast);

		for (int i = 0; i < 3; i++) {
			AbstractUidGenerator correct = start(layout, "correct-host-" + i, UidClock.SYSTEM);
			assertThat(correct.status().worker().id()).as("a correct host does not get the fast host's worker ID")
				.isNotEqualTo(fastWorker);
			correct.getUID();
		}
	}

	@Test
	void whenOnlyTheFastHostsWorkerIdIsFreeTheStartSaysWhoseMarkLiesAheadAndByHowMuch() {
		UidLayout layout = layout(1);
		AbstractUidGenerator fast = start(layout, "fast-host", new SteppableClock(FAST));
		long fastWorker = fast.status().worker().id();
		start(layout, "holds-the-other", UidClock.SYSTEM);
		fast.close();
		this.generators.remove(fast);

		assertThatExceptionOfType(ClockBehindHighWaterMarkException.class)
			.isThrownBy(() -> start(layout, "correct-host", UidClock.SYSTEM))
			.satisfies((ex) -> assertThat(ex.getWorkerId()).isEqualTo(fastWorker))
			.withMessageContaining("Worker " + fastWorker + " may already have issued IDs up to")
			.withMessageContaining("ahead of this host's clock")
			// Ten minutes, plus the reservations the fast host recorded, less the probations of the starts since.
			.withMessageMatching("(?s).*, (59|60)\\d{4} ms \\(\\d+ min \\d+ s\\) ahead.*");
	}

	private static UidLayout layout(int workerBits) {
		return new UidLayout(UidTimeUnit.MILLISECONDS, UidLayout.DEFAULT_EPOCH, 41, workerBits, 12);
	}

	private AbstractUidGenerator start(UidLayout layout, String instanceId, UidClock clock) {
		RedisWorkerIdAssigner assigner = RedisWorkerIdAssigner.builder(this.connectionFactory)
			.keyPrefix("uid-test")
			.namespace(this.namespace)
			.instanceId(instanceId)
			.build();
		AbstractUidGenerator generator = DefaultUidGenerator.builder()
			.layout(layout)
			.clock(clock)
			.workerIdAssigner(assigner)
			.maxStartupWait(Duration.ofSeconds(1))
			.build();
		this.generators.add(generator);
		return generator;
	}

}
