package io.github.uidgen.snowflake;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.github.uidgen.UidClock;
import io.github.uidgen.snowflake.TestGenerators.Kind;
import io.github.uidgen.worker.FixedWorkerIdAssigner;
import io.github.uidgen.worker.WorkerAssignment;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A generator whose worker ID comes with a mark ahead of the clock waits at start for the clock to pass it, and says
 * so, with how long and the setting that bounds it: a start that stands still for seconds with nothing in the log
 * looks hung. A start that need not wait says nothing of the kind.
 */
class StartClockWaitTests {

	/** How far the worker's mark lies ahead of the clock when the assigner hands it out. */
	private static final Duration MARK_AHEAD = Duration.ofMillis(400);

	private final Logger sessionLogger = (Logger) LoggerFactory.getLogger(WorkerSession.class);

	private final ListAppender<ILoggingEvent> logged = new ListAppender<>();

	private Level levelBefore;

	@BeforeEach
	void captureTheSessionLog() {
		this.levelBefore = this.sessionLogger.getLevel();
		this.sessionLogger.setLevel(Level.INFO);
		this.logged.start();
		this.sessionLogger.addAppender(this.logged);
	}

	@AfterEach
	void stopCapturing() {
		this.sessionLogger.detachAppender(this.logged);
		this.sessionLogger.setLevel(this.levelBefore);
	}

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
		return this.logged.list.stream()
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
