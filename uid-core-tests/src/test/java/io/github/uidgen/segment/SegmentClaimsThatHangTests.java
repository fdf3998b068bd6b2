package io.github.uidgen.segment;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import com.zaxxer.hikari.HikariDataSource;
import io.github.uidgen.segment.jdbc.JdbcSegmentStore;
import io.github.uidgen.testsupport.TestDatabases;
import io.github.uidgen.testsupport.TestDatabases.Database;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * Claims that hang, on the real PostgreSQL: a row of the segment table locked by another transaction (as a long
 * manual {@code UPDATE} or a stuck session would hold it) holds the claim of that key, and the shared thread that
 * runs it, until the lock is released. Keys it does not concern get their segments on threads added for them, up to
 * four times the pool, and those threads end once idle; a key whose failed claim is due for its retry is not held up
 * either; numbers never repeat.
 */
class SegmentClaimsThatHangTests {

	private static final Duration WAIT_TIMEOUT = Duration.ofSeconds(2);

	/**
	 * How long a key may take to issue again once its claim can go through, and a caller to give up on a hung one: a
	 * bound for a stalled machine, not a promise of speed.
	 */
	private static final Duration BOUND = Duration.ofSeconds(60);

	private final HikariDataSource dataSource = Database.POSTGRESQL.open();

	private final String table = TestDatabases.uniqueTable("uid_seg_hang");

	private final CountingThreadFactory threads = new CountingThreadFactory();

	private final List<Connection> lockers = new ArrayList<>();

	@AfterEach
	void releaseAndDrop() {
		this.lockers.forEach(SegmentClaimsThatHangTests::rollBackAndClose);
		TestDatabases.dropTable(this.dataSource, this.table);
		this.dataSource.close();
	}

	@Test
	void aClaimThatHangsHoldsUpNoOtherKeyAndTheThreadAddedForThemEndsOnceIdle() throws Exception {
		try (SegmentUidGenerators generators = new SegmentUidGenerators(settings())) {
			SegmentUidGenerator hung = generators.forKey("hung");
			SegmentUidGenerator free = generators.forKey("free");
			SegmentUidGenerator another = generators.forKey("another");
			lockRow("hung");
			long[] hungBefore = take(hung, 10);
			awaitClaimsWaitingForLocks(1);

			assertThat(take(free, 11)).as("served on a thread added for it").endsWith(10, 11);
			assertThat(take(another, 11)).as("served on the same added thread").endsWith(10, 11);
			assertThat(this.threads.created()).as("the pool's one thread and one added").hasSize(2);
			SegmentUnavailableException waited = catchThrowableOfType(SegmentUnavailableException.class,
					hung::getUID);
			assertThat(waited).as("the key whose claim hangs fails at its wait timeout").isNotNull();
			assertThat(waited.getMessage()).contains("the claim under way has not returned for");

			releaseLocks();
			long resumed = awaitIssue(hung);
			assertThat(resumed).isEqualTo(11);
			assertThat(TakingThreads.duplicates(hungBefore, new long[] { resumed })).isZero();
			SegmentUidGeneratorTests.await(() -> aliveThreads() == 1, "the added thread to end once idle");
			assertThat(this.threads.created().get(0).isAlive()).as("the pool's own thread stays").isTrue();
		}
		SegmentUidGeneratorTests.await(() -> aliveThreads() == 0, "every thread to end on close");
	}

	@Test
	void claimsThatHangAddThreadsUpToFourTimesThePoolAndNoMore() throws Exception {
		try (SegmentUidGenerators generators = new SegmentUidGenerators(settings())) {
			int hungKeys = SegmentSettings.EXTRA_THREADS_FACTOR + 1;
			List<SegmentUidGenerator> hung = new ArrayList<>();
			for (int k = 0; k < hungKeys; k++) {
				hung.add(generators.forKey("hung-" + k));
				lockRow("hung-" + k);
			}
			SegmentUidGenerator free = generators.forKey("free");
			for (SegmentUidGenerator generator : hung) {
				take(generator, 10);
			}
			// A caller waiting for each: each waits out its wait timeout, adding threads while it waits.
			List<Thread> callers = new ArrayList<>();
			List<Throwable> failures = new CopyOnWriteArrayList<>();
			for (SegmentUidGenerator generator : hung) {
				Thread caller = new Thread(() -> {
					try {
						generator.getUID();
					}
					catch (Throwable ex) {
						failures.add(ex);
					}
				});
				callers.add(caller);
				caller.start();
			}
			awaitClaimsWaitingForLocks(SegmentSettings.EXTRA_THREADS_FACTOR);
			take(free, 10);
			assertThat(catchThrowableOfType(SegmentUnavailableException.class, free::getUID))
				.as("no thread left for a key whose store answers").isNotNull();
			for (Thread caller : callers) {
				caller.join(BOUND.toMillis());
				assertThat(caller.isAlive()).as("a caller still waiting for its hung key").isFalse();
			}
			assertThat(failures).hasSize(hungKeys)
				.allSatisfy((failure) -> assertThat(failure).isInstanceOf(SegmentUnavailableException.class));
			assertThat(this.threads.created()).as("one thread and three added, no more")
				.hasSize(SegmentSettings.EXTRA_THREADS_FACTOR);

			releaseLocks();
			for (SegmentUidGenerator generator : hung) {
				assertThat(awaitIssue(generator)).isEqualTo(11);
			}
			assertThat(awaitIssue(free)).isEqualTo(11);
			SegmentUidGeneratorTests.await(() -> aliveThreads() == 1, "the added threads to end once idle");
		}
	}

	@Test
	void aKeyWhoseFailedClaimIsDueForItsRetryIsNotHeldUpByAClaimThatHangs() throws Exception {
		try (SegmentUidGenerators generators = new SegmentUidGenerators(settings())) {
			SegmentUidGenerator hung = generators.forKey("hung");
			SegmentUidGenerator flaky = generators.forKey("flaky");
			lockRow("hung");
			// A counter set out of range makes flaky's next claim fail; the claim is retried once it is due.
			setCounter("flaky", SegmentUidGenerator.MAX_ID - 5);
			long[] flakyBefore = take(flaky, 6);
			SegmentUidGeneratorTests.await(() -> flaky.getStoreFailureCount() >= 1, "flaky's claim to fail");
			take(hung, 6);
			awaitClaimsWaitingForLocks(1);
			setCounter("flaky", 100);

			long[] flakyRest = take(flaky, 4);
			long resumed = awaitIssue(flaky);
			assertThat(resumed).as("its retry ran on a thread added for it").isEqualTo(101);
			assertThat(TakingThreads.duplicates(flakyBefore, flakyRest, new long[] { resumed })).isZero();

			releaseLocks();
			take(hung, 4);
			assertThat(awaitIssue(hung)).isEqualTo(11);
		}
	}

	private SegmentUidGenerator.Builder settings() {
		JdbcSegmentStore store = JdbcSegmentStore.builder(this.dataSource)
			.table(this.table)
			.initializeSchema(true)
			.timeout(Duration.ofSeconds(30))
			.build();
		SegmentUidGenerator.Builder settings = SegmentUidGenerator.builder(store)
			.step(10)
			.maxStep(10)
			.prefetchThreshold(50)
			.waitTimeout(WAIT_TIMEOUT)
			.prefetchThreads(1)
			.prefetchThreadFactory(this.threads);
		settings.settings().extraThreadKeepAlive(Duration.ofMillis(300));
		return settings;
	}

	/** Locks a key's row in a transaction that stays open until {@link #releaseLocks()}. */
	private void lockRow(String key) throws SQLException {
		Connection connection = this.dataSource.getConnection();
		this.lockers.add(connection);
		connection.setAutoCommit(false);
		try (PreparedStatement lock = connection
			.prepareStatement("SELECT max_id FROM " + this.table + " WHERE segment_key = ? FOR UPDATE")) {
			lock.setString(1, key);
			lock.executeQuery().close();
		}
	}

	private void releaseLocks() {
		this.lockers.forEach(SegmentClaimsThatHangTests::rollBackAndClose);
		this.lockers.clear();
	}

	private void setCounter(String key, long value) {
		TestDatabases.execute(this.dataSource, "UPDATE " + this.table + " SET max_id = " + value
				+ " WHERE segment_key = '" + key + "'");
	}

	/** Waits until as many claims on the test's table wait for a row lock. */
	private void awaitClaimsWaitingForLocks(int count) {
		SegmentUidGeneratorTests.await(() -> ((Number) TestDatabases.query(this.dataSource,
				"SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE ?",
				"%UPDATE " + this.table + " %")
			.get(0)
			.get(0)).intValue() == count, count + " claims waiting for a row lock");
	}

	private long aliveThreads() {
		return this.threads.created().stream().filter(Thread::isAlive).count();
	}

	/** Asks for a number until one comes, for at most {@link #BOUND}; fails with the last failure. */
	private static long awaitIssue(SegmentUidGenerator generator) throws InterruptedException {
		long deadline = System.nanoTime() + BOUND.toNanos();
		for (;;) {
			try {
				return generator.getUID();
			}
			catch (SegmentUnavailableException ex) {
				if (System.nanoTime() - deadline > 0) {
					throw new AssertionError("No number of key '" + generator.getKey() + "' within " + BOUND, ex);
				}
				Thread.sleep(20);
			}
		}
	}

	private static long[] take(SegmentUidGenerator generator, int count) {
		long[] ids = new long[count];
		for (int i = 0; i < count; i++) {
			ids[i] = generator.getUID();
		}
		return ids;
	}

	private static void rollBackAndClose(Connection connection) {
		try (connection) {
			connection.rollback();
		}
		catch (SQLException ex) {
			// already gone: its locks went with it
		}
	}

}
