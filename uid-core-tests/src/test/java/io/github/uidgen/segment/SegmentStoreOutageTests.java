package io.github.uidgen.segment;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;

import com.zaxxer.hikari.HikariDataSource;
import io.github.uidgen.segment.jdbc.JdbcSegmentStore;
import io.github.uidgen.segment.jdbc.LeafAllocSegmentStore;
import io.github.uidgen.segment.redis.RedisSegmentStore;
import io.github.uidgen.testsupport.ThrowawayMariaDb;
import io.github.uidgen.testsupport.ThrowawayRedis;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * Stores that go down or lose their data, on throwaway servers of the test's own: the numbers already claimed are
 * served, then {@code getUID} fails with {@link SegmentUnavailableException} (never a repeated or smaller number),
 * and issue resumes where the store left off once it is back (on uid's table and on Leaf's). A Redis that comes back
 * empty is refused for good.
 */
class SegmentStoreOutageTests {

	private static final Duration WAIT_TIMEOUT = Duration.ofSeconds(2);

	@Test
	void aStoppedRedisIsServedFromTheBuffersThenFailsClearlyAndIssueResumesWhenItIsBack(@TempDir Path dir) {
		try (ThrowawayRedis redis = ThrowawayRedis.start(dir, "--appendonly", "yes", "--appendfsync", "always")) {
			LettuceConnectionFactory factory = redis.connectionFactory();
			try {
				outageScenario(RedisSegmentStore.builder(factory).build(), redis::stop, redis::start);
			}
			finally {
				factory.destroy();
			}
		}
	}

	@Test
	void aStoppedMariaDbIsServedFromTheBuffersThenFailsClearlyAndIssueResumesWhenItIsBack(@TempDir Path dir) {
		try (ThrowawayMariaDb mariaDb = ThrowawayMariaDb.start(dir); HikariDataSource dataSource = mariaDb.dataSource()) {
			JdbcSegmentStore store = JdbcSegmentStore.builder(dataSource)
				.initializeSchema(true)
				.timeout(WAIT_TIMEOUT)
				.build();
			outageScenario(store, mariaDb::stop, mariaDb::start);
		}
	}

	@Test
	void aStoppedMariaDbHoldingLeafsTableIsServedFromTheBuffersThenFailsClearlyAndIssueResumesWhenItIsBack(
			@TempDir Path dir) {
		try (ThrowawayMariaDb mariaDb = ThrowawayMariaDb.start(dir); HikariDataSource dataSource = mariaDb.dataSource()) {
			mariaDb.execute("CREATE TABLE leaf_alloc (biz_tag varchar(128) NOT NULL DEFAULT '', max_id bigint(20) "
					+ "NOT NULL DEFAULT '1', step int(11) NOT NULL, description varchar(256) DEFAULT NULL, update_time "
					+ "timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP, PRIMARY KEY (biz_tag))");
			mariaDb.execute("INSERT INTO leaf_alloc (biz_tag, max_id, step) VALUES ('orders', 1, 1000)");
			outageScenario(LeafAllocSegmentStore.builder(dataSource).timeout(WAIT_TIMEOUT).build(), mariaDb::stop,
					mariaDb::start);
		}
	}

	@Test
	void aRedisThatComesBackEmptyIsRefusedForGoodAndNoNumberRepeats(@TempDir Path dir) {
		try (ThrowawayRedis redis = ThrowawayRedis.start(dir)) {
			LettuceConnectionFactory factory = redis.connectionFactory();
			// A Redis that keeps nothing, as the test is about what comes of that; accepted on purpose.
			try (SegmentUidGenerator generator = generator(RedisSegmentStore.builder(factory)
				.requirePersistence(false)
				.build())) {
				long[] before = take(generator, 600);
				SegmentUidGeneratorTests.await(() -> generator.getSegmentsFetched() == 2, "the second segment");
				redis.restartEmpty();
				long[] buffered = take(generator, 1400);
				assertThat(buffered[0]).isEqualTo(601);
				assertThat(buffered[buffered.length - 1]).isEqualTo(2000);
				SegmentUnavailableException refused = awaitFailure(generator, SegmentStoreRewoundException.class);
				assertThat(refused.getCause()).hasMessageContaining("went backwards for key 'orders'")
					.hasMessageContaining("handed out 1..1000 after this generator had already claimed up to 2000");
				for (int attempt = 0; attempt < 3; attempt++) {
					assertThat(catchThrowableOfType(SegmentUnavailableException.class, generator::getUID))
						.as("refused for good").isNotNull();
				}
				assertThat(TakingThreads.duplicates(before, buffered)).isZero();
			}
			finally {
				factory.destroy();
			}
		}
	}

	/**
	 * Claims two segments (1..2000, taking 600), stops the store, takes the 1,400 numbers still held, expects a clear
	 * failure next, starts the store and expects issue to resume at 2001: nothing lost in the store, nothing repeated.
	 */
	private static void outageScenario(SegmentStore store, Runnable stop, Runnable start) {
		try (SegmentUidGenerator generator = generator(store)) {
			long[] before = take(generator, 600);
			SegmentUidGeneratorTests.await(() -> generator.getSegmentsFetched() == 2, "the second segment");
			assertThat(generator.getRemaining()).isEqualTo(1400);

			stop.run();
			long[] buffered = take(generator, 1400);
			assertThat(TakingThreads.firstNotIncreasing(buffered)).isEqualTo(-1);
			assertThat(buffered[0]).isEqualTo(601);
			assertThat(buffered[buffered.length - 1]).isEqualTo(2000);
			long failedAt = System.nanoTime();
			SegmentUnavailableException failure = catchThrowableOfType(SegmentUnavailableException.class,
					generator::getUID);
			assertThat(failure).as("the call after the buffers are used up fails").isNotNull();
			assertThat(failure).hasMessageContaining("Every number of key 'orders' claimed so far is used up");
			assertThat(Duration.ofNanos(System.nanoTime() - failedAt)).as("fails within the bounds")
				.isLessThan(WAIT_TIMEOUT.multipliedBy(4));
			assertThat(generator.getRemaining()).isZero();

			start.run();
			long resumed = awaitIssue(generator);
			assertThat(resumed).as("issue resumes where the store left off").isEqualTo(2001);
			assertThat(generator.getFailure()).isNull();
			assertThat(generator.getStoreFailure()).isNull();
			long[] after = take(generator, 100);
			assertThat(after[0]).isEqualTo(2002);
			assertThat(TakingThreads.duplicates(before, buffered, after, new long[] { resumed })).isZero();
		}
	}

	private static SegmentUidGenerator generator(SegmentStore store) {
		return SegmentUidGenerator.builder(store)
			.key("orders")
			.step(1000)
			.maxStep(1000)
			.prefetchThreshold(50)
			.waitTimeout(WAIT_TIMEOUT)
			.build();
	}

	private static long awaitIssue(SegmentUidGenerator generator) {
		long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
		for (;;) {
			try {
				return generator.getUID();
			}
			catch (SegmentUnavailableException ex) {
				if (System.nanoTime() - deadline > 0) {
					throw new AssertionError("Issue did not resume within 90 s", ex);
				}
				sleep(200);
			}
		}
	}

	private static SegmentUnavailableException awaitFailure(SegmentUidGenerator generator,
			Class<? extends Throwable> cause) {
		long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
		for (;;) {
			SegmentUnavailableException failure = catchThrowableOfType(SegmentUnavailableException.class,
					generator::getUID);
			assertThat(failure).as("no number is handed out from a store that came back empty").isNotNull();
			if (cause.isInstance(failure.getCause())) {
				return failure;
			}
			if (System.nanoTime() - deadline > 0) {
				throw new AssertionError("No failure caused by " + cause.getSimpleName() + " within 90 s", failure);
			}
			sleep(200);
		}
	}

	private static long[] take(SegmentUidGenerator generator, int count) {
		long[] ids = new long[count];
		Arrays.setAll(ids, (i) -> generator.getUID());
		return ids;
	}

	private static void sleep(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new AssertionError("Interrupted", ex);
		}
	}

}
