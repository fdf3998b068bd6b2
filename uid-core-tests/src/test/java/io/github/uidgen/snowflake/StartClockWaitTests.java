package io.github.uidgen.snowflake;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import io.github.uidgen.CapturedLog;
import io.github.uidgen.UidClock;
import io.github.uidgen.snowflake.TestGenerators.Kind;
import io.github.uidgen.worker.FixedWorkerIdAssigner;
import io.github.uidgen.worker.WorkerAssignment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A generator whose worker ID comes with a mark ahead of the clock waits at start for the clock to pass it, and says
 * so, with how long and the setting that bounds it: a start that stands still for seconds with nothing in the log
 * looks hung. A start that need not wait says nothing of the kind.
 */
class StartClockWaitTests {

	/** How far the worker's mark lies ahead of the clock when the assigner hands it out. */
	private static final Duration MARK_AHEAD = Duration.ofMillis(400);

	@RegisterExtension
	final CapturedLog sessionLog = CapturedLog.of(WorkerSession.class, Level.INFO);

	@Test
	void aStartThatWaitsForTheClockToPassTheMarkLogsTheWait() {
		AtomicLong markMillis = new AtomicLong();
		AbstractUidGenerator generator = TestGenerators.build(Kind.DEFAULT,
				markedAssigner(4, () -> markMillis.updateAndGet((none) -> System.currentTimeMillis()
						+ MARK_AHEAD.toMillis())),
				UidClock.SYSTEM);
		try {
			assertThat(TestGenerators.LAYOUT.startMillis(TestGenerators.unitOf(generator.getUID())))
				.as("the first ID lies past the mark")
				.isGreaterThan(markMillis.get());
		}
		finally {
			generator.close();
		}
		List<String> waits = waitsLogged();
		assertThat(waits).hasSize(1);
		assertThat(waits.get(0)).matches("uid worker ID 4: waiting \\d+ ms before issuing, until the clock reaches .*")
			.contains("past what it has issued before (its recorded mark)")
			.contains("a start waits at most " + TestGenerators.MAX_STARTUP_WAIT.toMillis() + " ms for it")
			.contains("uid.mark.max-startup-wait");
		long waitedMillis = Long.parseLong(waits.get(0).replaceAll("^uid worker ID 4: waiting (\\d+) ms.*", "$1"));
		assertThat(waitedMillis).as("the wait logged is the mark's lead over the clock, at most")
			.isPositive()
			.isLessThanOrEqualTo(MARK_AHEAD.toMillis() + 1);
	}

	@Test
	void aStartWhoseMarkLiesBehindTheClockLogsNoWait() {
		AbstractUidGenerator generator = TestGenerators.build(Kind.DEFAULT,
				markedAssigner(5, () -> System.currentTimeMillis() - MARK_AHEAD.toMillis()), UidClock.SYSTEM);
		try {
			generator.getUID();
		}
		finally {
			generator.close();
		}
		assertThat(waitsLogged()).isEmpty();
	}

	private List<String> waitsLogged() {
		return this.sessionLog.events().stream()
			.map(ILoggingEvent::getFormattedMessage)
			.filter((message) -> message.contains(": waiting "))
			.toList();
	}

	/**
	 * A fixed worker ID handed out with a mark, as a store hands out a worker ID held before; the mark is worked out
	 * when the claim is made, so that how long the generator takes to be built does not eat into its lead.
	 */
	private static FixedWorkerIdAssigner markedAssigner(long workerId, LongSupplier markMillis) {
		return new FixedWorkerIdAssigner(workerId) {

			@Override
			public WorkerAssignment assign(long maxWorkerId) {
				return new WorkerAssignment(workerId, markMillis.getAsLong());
			}

		};
	}

}
