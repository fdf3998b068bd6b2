package io.github.uidgen.autoconfigure;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;

import javax.sql.DataSource;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.AppenderBase;
import ch.qos.logback.core.read.ListAppender;
import io.github.uidgen.UidGenerator;
import io.github.uidgen.UidGeneratorStatus;
import io.github.uidgen.autoconfigure.actuate.UidEndpointAutoConfiguration;
import io.github.uidgen.autoconfigure.actuate.UidHealthContributorAutoConfiguration;
import io.github.uidgen.autoconfigure.actuate.UidMetricsAutoConfiguration;
import io.github.uidgen.segment.SegmentRange;
import io.github.uidgen.segment.SegmentStore;
import io.github.uidgen.segment.SegmentStoreException;
import io.github.uidgen.segment.SegmentStoreUnavailableException;
import io.github.uidgen.segment.SegmentUidGenerator;
import io.github.uidgen.segment.SegmentUidGenerators;
import io.github.uidgen.segment.StoredKeys;
import io.github.uidgen.segment.jdbc.JdbcSegmentStore;
import io.github.uidgen.testsupport.Duplicates;
import io.github.uidgen.testsupport.ServerProcess;
import io.github.uidgen.testsupport.ThrowawayRedis;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests that the auto-configured segment generator ({@code uid.generator=segment}) claims its first segment in the
 * background, beside the rest of the context's start, with the guarantees of a claim made while its bean is created:
 * the bean is the key's {@link SegmentUidGenerator}, a call before the first segment waits for it, a start whose
 * first claim fails still fails with the same exception, and a context closed while the claim is under way leaves no
 * thread behind. The store is the real {@link JdbcSegmentStore} on the machine's MariaDB, wrapped to record which
 * thread claims and to hold the first claim for a while. A store that cannot be reached is tried again for
 * {@code uid.segment.store-wait-at-start}, against a Redis nobody listens on or a {@code redis-server} of the test's
 * own that comes up meanwhile; one that answers and refuses is not.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SegmentGeneratorStartTests {

	private static final String MARIADB_URL = "jdbc:mysql://127.0.0.1:3306/test";

	private final String table = "uid_ac_segstart_" + UUID.randomUUID().toString().substring(0, 8);

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(StaticWorkerIdAssignerAutoConfiguration.class,
				UidGeneratorAutoConfiguration.class, UidEndpointAutoConfiguration.class,
				UidHealthContributorAutoConfiguration.class, UidMetricsAutoConfiguration.class))
		.withPropertyValues("uid.generator=segment", "management.endpoints.web.exposure.include=uid");

	private final ApplicationContextRunner onMariaDb = this.contextRunner
		.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class))
		.withPropertyValues("spring.datasource.url=" + MARIADB_URL, "spring.datasource.username=root",
				"spring.datasource.password=", "uid.segment.db.table=" + this.table,
				"uid.segment.db.initialize-schema=true")
		.withUserConfiguration(RecordingStoreConfiguration.class);

	@AfterAll
	void dropTable() {
		new JdbcTemplate(new DriverManagerDataSource(MARIADB_URL, "root", "")).execute("DROP TABLE IF EXISTS "
				+ this.table);
	}

	@Test
	void theFirstSegmentIsClaimedOnABackgroundThreadWhileTheRestOfTheContextStarts() {
		ListAppender<ILoggingEvent> logged = capture();
		String refreshing = Thread.currentThread().getName();
		try {
			this.onMariaDb.withPropertyValues("uid.segment.key=beside", "uid.segment.step=10")
				.withBean(HoldFirstClaim.class, () -> new HoldFirstClaim(Duration.ofMillis(600)))
				.withBean(EarlyCaller.class)
				.run((context) -> {
					assertThat(context).hasNotFailed();
					RecordingStore store = context.getBean(RecordingStore.class);
					assertThat(store.claimThreads).as("the first claim, off the thread that refreshes (%s)",
							refreshing).first().asString().startsWith("uid-segment-prefetch").isNotEqualTo(refreshing);
					EarlyCaller early = context.getBean(EarlyCaller.class);
					assertThat(early.fetchedWhenCreated).as("a bean created after the generator's, while the first "
							+ "claim was still under way").isZero();
					SegmentUidGenerator generator = context.getBean(SegmentUidGenerator.class);
					assertThat(context.getBean(UidGenerator.class)).isSameAs(generator);
					assertThat(context.getBean(SegmentUidGenerators.class).forKey("beside")).isSameAs(generator);
					assertThat(generator.getSegmentsFetched()).as("ready with the first segment").isOne();
					assertThat(generator.getStep()).as("the empty start is no segment used up in 0 ms").isEqualTo(10);
					assertThat(generator.getCurrentSegment()).isEqualTo(new SegmentRange(1, 10));
					assertThat(generator.getFailure()).isNull();
					assertThat(logged.list).extracting(ILoggingEvent::getFormattedMessage)
						.anySatisfy((message) -> assertThat(message)
							.startsWith("uid segment generator for key 'beside' has its first segment (1..10 from the "
									+ "db store)")
							.endsWith("ms after its start began, beside the rest of the application's start"));
				});
		}
		finally {
			release(logged);
		}
	}

	@Test
	void aCallBeforeTheFirstSegmentWaitsForItAndGetsTheFirstNumberWhileTheStatusSaysStarting() {
		this.onMariaDb.withPropertyValues("uid.segment.key=early")
			.withBean(HoldFirstClaim.class, () -> new HoldFirstClaim(Duration.ofMillis(600)))
			.withBean(EarlyCaller.class)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				EarlyCaller early = context.getBean(EarlyCaller.class);
				assertThat(early.statusWhenCreated.failure()).as("the status while starting, not a failure to throw")
					.isNotNull()
					.hasMessageStartingWith("The segment generator of key 'early' is starting: claiming its first "
							+ "segment from the db store since");
				assertThat(early.statusWhenCreated.segment().segmentsFetched()).isZero();
				assertThat(early.firstUid).as("waited for the first segment").isOne();
				assertThat(early.waitedMillis).as("waited for the held claim").isGreaterThanOrEqualTo(200);
				assertThat(context.getBean(UidGenerator.class).getUID()).isEqualTo(2);
				assertThat(context.getBean(SegmentUidGenerator.class).getIssuedCount()).isEqualTo(2);
			});
	}

	@Test
	void aStartWhoseFirstClaimFailsFailsWithTheSameExceptionAsBefore() {
		// A Redis nobody listens on, and no wait for it: the claim's Redis round trip fails as it always did, now at
		// the end of the start.
		this.contextRunner.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class))
			.withPropertyValues("spring.data.redis.host=127.0.0.1", "spring.data.redis.port=" + ServerProcess.freePort(),
					"spring.data.redis.timeout=1s", "uid.segment.store=redis", "uid.segment.key=unreachable",
					"uid.segment.store-wait-at-start=0")
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(storeFailure(context.getStartupFailure())).as("in %s", context.getStartupFailure())
					.isNotNull()
					.hasMessageStartingWith("Cannot reach the Redis that hands out uid segments");
				FailureAnalysis analysis = StartupFailures.analyze(context.getStartupFailure(),
						"uid.segment.store=redis");
				assertThat(analysis).isNotNull();
				assertThat(analysis.getDescription()).contains("Property: uid.segment.store").contains("Value: redis");
				assertThat(analysis.getAction()).contains("Check that Redis is running");
			});
		// A table that is missing: the analysis with the DDL, as before, without waiting (the store answered).
		ListAppender<ILoggingEvent> logged = capture();
		try {
			this.onMariaDb
				.withPropertyValues("uid.segment.key=missing", "uid.segment.db.initialize-schema=false",
						"uid.segment.db.table=" + this.table + "_missing")
				.run((context) -> {
					assertThat(context).hasFailed();
					FailureAnalysis analysis = StartupFailures.analyze(context.getStartupFailure());
					assertThat(analysis).isNotNull();
					assertThat(analysis.getAction()).contains("CREATE TABLE IF NOT EXISTS " + this.table + "_missing");
				});
			assertThat(messages(logged)).noneSatisfy((message) -> assertThat(message)
				.contains("could not claim its first segment"));
		}
		finally {
			release(logged);
		}
	}

	/**
	 * A Redis that is not up yet when the application starts (the whole system starting at once), and comes up while
	 * the start waits for it: each try is logged, the start goes on once it answers, and numbers are issued.
	 */
	@Test
	void aStoreThatIsNotUpYetIsWaitedForWithinStoreWaitAtStart(@TempDir Path dir) throws Exception {
		try (ThrowawayRedis redis = ThrowawayRedis.start(dir, "--appendonly", "yes", "--appendfsync", "always")) {
			redis.stop();
			Signal firstTryFailed = new Signal("could not claim its first segment from the redis store (try 1)");
			ListAppender<ILoggingEvent> logged = capture();
			capture(firstTryFailed);
			CompletableFuture<Void> upOnceTried = CompletableFuture.runAsync(() -> {
				if (!firstTryFailed.await(Duration.ofSeconds(30))) {
					throw new IllegalStateException("no failed try logged within 30 s");
				}
				redis.start();
			});
			try {
				this.contextRunner.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class))
					.withPropertyValues("spring.data.redis.host=127.0.0.1", "spring.data.redis.port=" + redis.port(),
							"spring.data.redis.timeout=2s", "uid.segment.store=redis", "uid.segment.key=late",
							"uid.segment.step=10", "uid.segment.store-wait-at-start=60s")
					.run((context) -> {
						assertThat(context).hasNotFailed();
						UidGenerator generator = context.getBean(UidGenerator.class);
						long[] numbers = new long[100];
						for (int i = 0; i < numbers.length; i++) {
							numbers[i] = generator.getUID();
						}
						assertThat(Duplicates.count(numbers)).isZero();
						assertThat(numbers[0]).as("the key's first number").isOne();
						assertThat(context.getBean(SegmentUidGenerator.class).getFailure()).isNull();
					});
				upOnceTried.get(30, TimeUnit.SECONDS);
				assertThat(messages(logged)).anySatisfy((message) -> assertThat(message)
					.startsWith("uid segment generator for key 'late' could not claim its first segment from the redis "
							+ "store (try 1): Cannot reach the Redis that hands out uid segments")
					.contains("the start fails if the store does not answer within 60000 ms of the first try")
					.contains("uid.segment.store-wait-at-start"));
			}
			finally {
				release(logged);
				release(firstTryFailed);
			}
		}
	}

	/** A Redis that never answers fails the start once the wait is over, saying how long it was tried. */
	@Test
	void aStoreThatNeverAnswersFailsTheStartOnceStoreWaitAtStartIsOver() {
		this.contextRunner.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class))
			.withPropertyValues("spring.data.redis.host=127.0.0.1", "spring.data.redis.port=" + ServerProcess.freePort(),
					"spring.data.redis.timeout=1s", "uid.segment.store=redis", "uid.segment.key=never",
					"uid.segment.store-wait-at-start=1s")
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(storeFailure(context.getStartupFailure())).as("in %s", context.getStartupFailure())
					.isInstanceOf(SegmentStoreUnavailableException.class)
					.hasMessageStartingWith("The redis segment store did not hand out the first segment of key "
							+ "'never' within 1000 ms of the first try")
					.hasMessageContaining("Cannot reach the Redis that hands out uid segments");
				FailureAnalysis analysis = StartupFailures.analyze(context.getStartupFailure(),
						"uid.segment.store=redis");
				assertThat(analysis).isNotNull();
				assertThat(analysis.getAction()).contains("Check that Redis is running")
					.contains("uid.segment.store-wait-at-start");
			});
	}

	@Test
	void aContextThatFailsWhileTheFirstClaimIsUnderWayClosesCleanly() {
		Set<Thread> before = prefetchThreads();
		AtomicBoolean claimReturned = new AtomicBoolean();
		CountDownLatch claimStarted = new CountDownLatch(1);
		this.onMariaDb.withPropertyValues("uid.segment.key=closed-early")
			.withBean(HoldFirstClaim.class, () -> new HoldFirstClaim(Duration.ofMillis(1500)))
			.withBean(ClaimWatcher.class, () -> new ClaimWatcher(claimStarted, claimReturned))
			.withBean(FailingBean.class)
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure()).rootCause().hasMessage("another bean fails");
			});
		await("the held claim returns").atMost(Duration.ofSeconds(15)).untilTrue(claimReturned);
		await("no prefetch thread left").atMost(Duration.ofSeconds(15)).until(() -> {
			Set<Thread> left = prefetchThreads();
			left.removeAll(before);
			return left.isEmpty();
		});
	}

	/** The segment store's failure in the chain of causes, as the failure analyzer finds it. */
	private static Throwable storeFailure(Throwable failure) {
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			if (cause instanceof SegmentStoreException) {
				return cause;
			}
		}
		return null;
	}

	private static Set<Thread> prefetchThreads() {
		return Thread.getAllStackTraces()
			.keySet()
			.stream()
			.filter((thread) -> thread.getName().startsWith("uid-segment-prefetch#") && thread.isAlive())
			.collect(Collectors.toSet());
	}

	private static ListAppender<ILoggingEvent> capture() {
		ListAppender<ILoggingEvent> logged = new ListAppender<>();
		logged.start();
		((Logger) LoggerFactory.getLogger(SegmentUidGenerator.class)).addAppender(logged);
		return logged;
	}

	private static void capture(Appender<ILoggingEvent> appender) {
		appender.start();
		((Logger) LoggerFactory.getLogger(SegmentUidGenerator.class)).addAppender(appender);
	}

	private static void release(Appender<ILoggingEvent> logged) {
		((Logger) LoggerFactory.getLogger(SegmentUidGenerator.class)).detachAppender(logged);
	}

	/** The messages logged, read once the logging threads are done. */
	private static List<String> messages(ListAppender<ILoggingEvent> logged) {
		synchronized (logged) {
			return logged.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
		}
	}

	/** Tells another thread when a message containing a text is logged. */
	private static final class Signal extends AppenderBase<ILoggingEvent> {

		private final String text;

		private final CountDownLatch logged = new CountDownLatch(1);

		Signal(String text) {
			this.text = text;
		}

		@Override
		protected void append(ILoggingEvent event) {
			if (event.getFormattedMessage().contains(this.text)) {
				this.logged.countDown();
			}
		}

		boolean await(Duration bound) {
			try {
				return this.logged.await(bound.toMillis(), TimeUnit.MILLISECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return false;
			}
		}

	}

	/** The application's own segment store bean: the real JDBC store, recorded. */
	@Configuration(proxyBeanMethods = false)
	static class RecordingStoreConfiguration {

		@Bean
		RecordingStore recordingStore(DataSource dataSource, Environment environment,
				ObjectProvider<HoldFirstClaim> hold, ObjectProvider<ClaimWatcher> watcher) {
			return new RecordingStore(JdbcSegmentStore.builder(dataSource)
				.table(environment.getRequiredProperty("uid.segment.db.table"))
				.initializeSchema(environment.getRequiredProperty("uid.segment.db.initialize-schema", Boolean.class))
				.build(), hold.getIfAvailable(() -> new HoldFirstClaim(Duration.ZERO)), watcher.getIfAvailable());
		}

	}

	/** How long the first claim is held before it goes to the store: a store whose first connection is slow. */
	record HoldFirstClaim(Duration duration) {
	}

	/** Told when the first claim has started and when it has returned. */
	record ClaimWatcher(CountDownLatch started, AtomicBoolean returned) {
	}

	/** Delegates every call to a real store, recording the thread of each claim. */
	static final class RecordingStore implements SegmentStore {

		private final SegmentStore store;

		private final HoldFirstClaim hold;

		private final ClaimWatcher watcher;

		final List<String> claimThreads = new CopyOnWriteArrayList<>();

		RecordingStore(SegmentStore store, HoldFirstClaim hold, ClaimWatcher watcher) {
			this.store = store;
			this.hold = hold;
			this.watcher = watcher;
		}

		@Override
		public SegmentRange claim(String key, long size) {
			boolean first = this.claimThreads.isEmpty();
			this.claimThreads.add(Thread.currentThread().getName());
			if (first && this.watcher != null) {
				this.watcher.started().countDown();
			}
			try {
				if (first && !this.hold.duration().isZero()) {
					try {
						Thread.sleep(this.hold.duration().toMillis());
					}
					catch (InterruptedException ex) {
						Thread.currentThread().interrupt();
					}
				}
				return this.store.claim(key, size);
			}
			finally {
				if (first && this.watcher != null) {
					this.watcher.returned().set(true);
				}
			}
		}

		@Override
		public Optional<StoredKeys> readKeys(int maxKeys) {
			return this.store.readKeys(maxKeys);
		}

		@Override
		public String name() {
			return this.store.name();
		}

	}

	/** A bean created after the generator's that takes a number at once, as an application's bean may. */
	static final class EarlyCaller {

		final long fetchedWhenCreated;

		final UidGeneratorStatus statusWhenCreated;

		final long firstUid;

		final long waitedMillis;

		EarlyCaller(UidGenerator generator) {
			this.fetchedWhenCreated = ((SegmentUidGenerator) generator).getSegmentsFetched();
			this.statusWhenCreated = generator.status();
			long start = System.nanoTime();
			this.firstUid = generator.getUID();
			this.waitedMillis = Duration.ofNanos(System.nanoTime() - start).toMillis();
		}

	}

	/**
	 * A bean created after the generator's that fails once the first claim is under way, so that the context closes
	 * while the claim is held (failing at once could close the generator before its claim had started).
	 */
	static final class FailingBean {

		FailingBean(UidGenerator generator, ClaimWatcher watcher) throws InterruptedException {
			if (!watcher.started().await(15, TimeUnit.SECONDS)) {
				throw new IllegalStateException("the first claim did not start within 15 s");
			}
			throw new IllegalStateException("another bean fails");
		}

	}

}
