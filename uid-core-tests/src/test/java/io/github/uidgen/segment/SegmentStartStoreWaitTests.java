package io.github.uidgen.segment;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import com.zaxxer.hikari.HikariDataSource;
import io.github.uidgen.CapturedLog;
import io.github.uidgen.segment.jdbc.JdbcSegmentStore;
import io.github.uidgen.segment.jdbc.SegmentTableMissingException;
import io.github.uidgen.segment.redis.RedisSegmentStore;
import io.github.uidgen.testsupport.Duplicates;
import io.github.uidgen.testsupport.ServerProcess;
import io.github.uidgen.testsupport.TestDatabases;
import io.github.uidgen.testsupport.TestDatabases.Database;
import io.github.uidgen.testsupport.TestRedis;
import io.github.uidgen.testsupport.ThrowawayRedis;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static io.github.uidgen.segment.SegmentUidGeneratorTests.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * A start in the background ({@link SegmentUidGenerators#startKey(String)}) whose store cannot be reached yet, as
 * when the whole system starts at once: with {@code storeWaitAtStart} the first segment is tried again, each try
 * logged with the store's error and the pause, and the generator starts once the store answers, a call made
 * meanwhile waiting with it; a store that does not answer within the wait fails the start saying so; one that
 * answers and refuses fails it at once. Against a {@code redis-server} of the test's own, stopped and started by its
 * PID, and a table missing from the machine's MariaDB.
 */
class SegmentStartStoreWaitTests {

	@RegisterExtension
	final CapturedLog generatorLog = CapturedLog.of(SegmentUidGenerator.class, Level.INFO);

	@TempDir
	Path dir;

	@Test
	void aStoreThatComesUpWithinTheWaitIsWaitedForAndNumbersAreIssuedOnce() throws Exception {
		try (ThrowawayRedis redis = ThrowawayRedis.start(this.dir, "--appendonly", "yes", "--appendfsync", "always")) {
			redis.stop();
			LettuceConnectionFactory factory = redis.connectionFactory();
			try (SegmentUidGenerators generators = new SegmentUidGenerators(SegmentUidGenerator
				.builder(RedisSegmentStore.builder(factory).keyPrefix(TestRedis.uniqueNamespace("uid-seg-wait")).build())
				.step(10)
				.waitTimeout(Duration.ofSeconds(60))
				.storeWaitAtStart(Duration.ofSeconds(60)))) {
				SegmentUidGenerator generator = generators.startKey("orders");
				CompletableFuture<Long> early = CompletableFuture.supplyAsync(generator::getUID);
				await(() -> generator.getStoreFailureCount() >= 2, "a second try of a store that is down");
				assertThat(generator.getFailure()).as("still starting")
					.hasMessageStartingWith("The segment generator of key 'orders' is starting: claiming its first "
							+ "segment from the redis store since")
					.hasMessageContaining("; the store has not answered yet: Cannot reach the Redis that hands out "
							+ "uid segments");
				assertThat(early).as("a call meanwhile waits with the start").isNotDone();

				redis.start();
				generator.awaitFirstSegment();
				List<Long> numbers = new ArrayList<>();
				numbers.add(early.get(30, TimeUnit.SECONDS));
				for (int i = 0; i < 99; i++) {
					numbers.add(generator.getUID());
				}
				assertThat(Duplicates.count(numbers.stream().mapToLong(Long::longValue).toArray())).isZero();
				assertThat(numbers).first().as("the first number of the key").isEqualTo(1L);
				assertThat(numbers).isSorted();
				assertThat(generator.getFailure()).isNull();
			}
			finally {
				factory.destroy();
			}
		}
		assertThat(messages(Level.WARN)).anySatisfy((message) -> assertThat(message)
			.startsWith("uid segment generator for key 'orders' could not claim its first segment from the redis store "
					+ "(try 1): Cannot reach the Redis that hands out uid segments")
			.contains("Trying again in 100 ms; the start fails if the store does not answer within 60000 ms of the "
					+ "first try (storeWaitAtStart, uid.segment.store-wait-at-start in Spring Boot)."))
			.anySatisfy((message) -> assertThat(message).contains("(try 2)").contains("Trying again in 200 ms"));
		assertThat(messages(Level.INFO)).anySatisfy((message) -> assertThat(message)
			.startsWith("uid segment generator for key 'orders' has its first segment (1..10 from the redis store, "
					+ "which answered try "));
	}

	@Test
	void aStoreThatDoesNotAnswerWithinTheWaitFailsTheStartSayingSo() {
		LettuceConnectionFactory factory = TestRedis.connectionFactory(ServerProcess.freePort());
		try (SegmentUidGenerators generators = new SegmentUidGenerators(
				SegmentUidGenerator.builder(RedisSegmentStore.builder(factory).build())
					.storeWaitAtStart(Duration.ofMillis(500)))) {
			SegmentUidGenerator generator = generators.startKey("never");
			Throwable failure = catchThrowable(generator::awaitFirstSegment);
			assertThat(failure).isExactlyInstanceOf(SegmentStoreUnavailableException.class)
				.hasMessageStartingWith("The redis segment store did not hand out the first segment of key 'never' "
						+ "within 500 ms of the first try (storeWaitAtStart, uid.segment.store-wait-at-start in Spring "
						+ "Boot), ")
				.hasMessageContaining(" tries: Cannot reach the Redis that hands out uid segments")
				.cause()
				.isExactlyInstanceOf(SegmentStoreUnavailableException.class)
				.hasMessageStartingWith("Cannot reach the Redis that hands out uid segments");
			assertThat(catchThrowable(generator::awaitFirstSegment)).as("the start failed for good").isSameAs(failure);
			assertThat(generator.getStoreFailureCount()).as("tried more than once").isGreaterThanOrEqualTo(2);
		}
		finally {
			factory.destroy();
		}
		assertThat(messages(Level.WARN)).anySatisfy((message) -> assertThat(message)
			.startsWith("uid segment generator for key 'never' could not claim its first segment from the redis store "
					+ "(try 1)"));
	}

	@Test
	void aStoreThatAnswersAndRefusesFailsTheStartAtOnce() {
		try (HikariDataSource dataSource = Database.MARIADB.open()) {
			String missing = TestDatabases.uniqueTable("uid_seg_missing");
			try (SegmentUidGenerators generators = new SegmentUidGenerators(
					SegmentUidGenerator.builder(JdbcSegmentStore.builder(dataSource).table(missing).build())
						.storeWaitAtStart(Duration.ofSeconds(60)))) {
				SegmentUidGenerator generator = generators.startKey("refused");
				assertThat(catchThrowable(generator::awaitFirstSegment))
					.as("not tried again, and thrown as the store threw it")
					.isExactlyInstanceOf(SegmentTableMissingException.class);
			}
		}
		assertThat(messages(Level.WARN)).noneSatisfy((message) -> assertThat(message)
			.contains("could not claim its first segment"));
	}

	private List<String> messages(Level level) {
		return this.generatorLog.events().stream()
			.filter((event) -> event.getLevel() == level)
			.map(ILoggingEvent::getFormattedMessage)
			.toList();
	}

}
